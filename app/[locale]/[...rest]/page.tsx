import { notFound } from 'next/navigation';

/**
 * Any other path under a language: the localized "not found" page. Without this route Next.js
 * answers with its own prerendered 404, whose scripts carry no CSP nonce and are blocked.
 */
export const dynamic = 'force-dynamic';

export default function UnknownPage(): never {
  notFound();
}
