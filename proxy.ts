import createMiddleware from 'next-intl/middleware';
import { routing } from './i18n/routing';

/**
 * Runs before every page route: negotiates the language (URL prefix, then cookie, then
 * Accept-Language). API routes, /metrics and static files are not localised.
 */
export default createMiddleware(routing);

export const config = {
  matcher: ['/((?!api|metrics|_next|_vercel|.*\\..*).*)'],
};
