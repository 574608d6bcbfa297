/**
 * Signing in with a Kubernetes token in a browser (PODSCOPE_AUTH=kubernetes): the request proxy
 * answers a page request from someone not signed in with signInPage() (401); its form posts the
 * token to /api/signin (handleSignIn), which asks the API server who it belongs to (TokenReview)
 * and whether they may read anything here (SubjectAccessReview), then sets the session cookie —
 * which names the user and is signed, never the token (session.ts) — and returns to the page.
 */
import { readStreamLimited } from '@/lib/timeline/file';
import { clientAddress, signInUnavailable } from '../auth';
import type { FailureLimiter } from '../rate-limit';
import { isKubeReviewUnavailable, READ_CHECK, type KubeUser } from './reviewer';
import type { KubeAuth } from './service';
import { issueUserSession, USER_SESSION_MAX_AGE_S } from './session';

export const SIGN_IN_PATH = '/api/signin';
/** The sign-in form's body is a token and a path: this is plenty. */
const MAX_FORM_BYTES = 16 * 1024;

const escape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** Where to go after signing in: a path on this server, never another site. */
export function returnPath(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return '/';
  if (raw.length > 2048 || [...raw].some((c) => c.charCodeAt(0) < 0x20)) return '/';
  return raw;
}

/** The sign-in page's own policy: no script at all, its one style element, posting to itself. */
export const SIGN_IN_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** The sign-in page: a form, no script. */
export function signInPage(options: { next: string; message?: string }): string {
  const message = options.message
    ? `<p role="alert" class="error">${escape(options.message)}</p>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · Podscope</title>
<style>body{font:16px system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem;color:#1d2433}
textarea{width:100%;font:13px ui-monospace,monospace;box-sizing:border-box}button{margin-top:.75rem;padding:.5rem 1.25rem}
.error{color:#a8071a}code{font-size:13px}</style></head>
<body><main><h1>Sign in to Podscope</h1>
<p>Paste a Kubernetes bearer token. The API server says who it belongs to, and you see the namespaces whose pods you may <code>get</code>.</p>
${message}<form method="post" action="${SIGN_IN_PATH}">
<input type="hidden" name="next" value="${escape(options.next)}">
<label for="token">Token</label><textarea id="token" name="token" rows="6" required autocomplete="off" spellcheck="false"></textarea>
<button type="submit">Sign in</button></form>
<p>For example <code>kubectl create token &lt;service-account&gt;</code>, or your OIDC ID token. The token is not kept: the session cookie only names you.</p>
</main></body></html>
`;
}

/** The sign-in page as a response. */
export function signInResponse(status: number, options: { next: string; message?: string }) {
  return new Response(signInPage(options), {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': SIGN_IN_CSP,
    },
  });
}

export interface SignInDeps {
  kube: KubeAuth;
  limiter: FailureLimiter;
  /** The namespaces the console shows now: a user who may read none of them is refused. */
  namespaces(): Iterable<string>;
  now?: number;
}

export type SignInResult =
  | { ok: true; user: KubeUser; session: string; next: string; maxAgeS: number }
  | { ok: false; status: 400 | 401 | 403 | 413 | 429 | 503; message: string; next: string };

/** Checks the posted form; never throws for anything the user or the API server did. */
export async function signIn(req: Request, deps: SignInDeps): Promise<SignInResult> {
  const now = deps.now ?? Date.now();
  const text = await boundedText(req);
  const form = new URLSearchParams(text ?? '');
  const next = returnPath(form.get('next'));
  if (text === undefined)
    return { ok: false, status: 413, message: 'The form is too large.', next };
  const token = form.get('token')?.trim() ?? '';
  if (!token) return { ok: false, status: 400, message: 'Paste a token to sign in.', next };
  const client = clientAddress(req.headers, deps.kube.trusted);
  const wait = deps.limiter.blockedFor(client, now);
  if (wait > 0)
    return {
      ok: false,
      status: 429,
      message: `Too many failed sign-in attempts; try again in ${wait} s.`,
      next,
    };
  try {
    const user = await deps.kube.reviewer.reviewToken(token);
    if (!user) {
      deps.limiter.fail(client, now);
      return { ok: false, status: 401, message: 'The API server did not accept this token.', next };
    }
    if (!(await mayReadSomething(deps, user)))
      return {
        ok: false,
        status: 403,
        message: `Signed in as ${user.username}, who may not get pods in any namespace this console shows. Ask for "get" on pods (a RoleBinding in a namespace, or a ClusterRoleBinding).`,
        next,
      };
    const session = issueUserSession(user, deps.kube.secret, now);
    return { ok: true, user, session, next, maxAgeS: USER_SESSION_MAX_AGE_S };
  } catch (err) {
    if (isKubeReviewUnavailable(err))
      return { ok: false, status: 503, message: signInUnavailable(err).trim(), next };
    if (err instanceof Error && err.name === 'SessionTooLarge')
      return { ok: false, status: 400, message: err.message, next };
    throw err;
  }
}

async function mayReadSomething(deps: SignInDeps, user: KubeUser): Promise<boolean> {
  const { reviewer } = deps.kube;
  if (await reviewer.can(user, { ...READ_CHECK })) return true;
  for (const ns of new Set(deps.namespaces()))
    if (await reviewer.can(user, { ...READ_CHECK, namespace: ns })) return true;
  return false;
}

async function boundedText(req: Request): Promise<string | undefined> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > MAX_FORM_BYTES) return undefined;
  if (!req.body) return '';
  const bytes = await readStreamLimited(req.body.getReader(), MAX_FORM_BYTES);
  return bytes && Buffer.from(bytes).toString('utf8');
}
