import createMiddleware from 'next-intl/middleware';
import { NextResponse, type NextRequest } from 'next/server';
import { routing } from './i18n/routing';
import { contentSecurityPolicy, STATIC_SECURITY_HEADERS } from './server/security/headers';
import {
  configuredToken,
  presentedToken,
  TOKEN_COOKIE,
  tokenMatches,
} from './server/security/token';

/**
 * Runs before every request except Next's static assets:
 * 1. the access token, when one is configured — every route, the SSE stream and /metrics included;
 * 2. security headers and a nonce-based Content-Security-Policy;
 * 3. language negotiation for pages (URL prefix, then cookie, then Accept-Language).
 */
const intl = createMiddleware(routing);
const dev = process.env.NODE_ENV === 'development';

export default function proxy(req: NextRequest): NextResponse {
  const token = configuredToken();
  if (token) {
    const presented = presentedToken(req, req.cookies.get(TOKEN_COOKIE)?.value);
    if (!tokenMatches(presented.token, token)) {
      return secure(
        new NextResponse(
          'Podscope: this server requires an access token. Open the console with ?token=<token> once, or send "Authorization: Bearer <token>".\n',
          {
            status: 401,
            headers: {
              'content-type': 'text/plain; charset=utf-8',
              'www-authenticate': 'Bearer realm="podscope"',
            },
          },
        ),
      );
    }
    if (presented.fromQuery) {
      // Trade the token in the URL for an HttpOnly cookie, and drop it from the address bar.
      const clean = new URL(req.url);
      clean.searchParams.delete('token');
      const res = NextResponse.redirect(clean);
      res.cookies.set(TOKEN_COOKIE, token, {
        httpOnly: true,
        sameSite: 'strict',
        path: '/',
        secure: clean.protocol === 'https:',
      });
      return secure(res);
    }
  }

  const path = req.nextUrl.pathname;
  if (path.startsWith('/api/') || path === '/metrics') return secure(NextResponse.next());

  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const csp = contentSecurityPolicy(nonce, dev);
  req.headers.set('content-security-policy', csp);
  req.headers.set('x-nonce', nonce);
  const res = intl(req);
  res.headers.set('content-security-policy', csp);
  return secure(res);
}

function secure(res: NextResponse): NextResponse {
  for (const [k, v] of Object.entries(STATIC_SECURITY_HEADERS)) res.headers.set(k, v);
  return res;
}

export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'],
};
