import createMiddleware from 'next-intl/middleware';
import { NextResponse, type NextRequest } from 'next/server';
import { routing } from './i18n/routing';
import { getConfig, type Config } from './server/config';
import { rootLogger } from './server/log';
import { authenticate, SESSION_COOKIE } from './server/security/auth';
import { contentSecurityPolicy, STATIC_SECURITY_HEADERS } from './server/security/headers';
import { hostAllowed, originAllowed, SAFE_METHODS } from './server/security/hosts';
import { FailureLimiter } from './server/security/rate-limit';
import { SESSION_MAX_AGE_S } from './server/security/session';

/**
 * Runs before every request except Next's static assets:
 * 1. the Host header must name this server (DNS rebinding), server/security/hosts.ts;
 * 2. who is asking — the access token or a session, when a token is configured — every route,
 *    the SSE stream and /metrics included (server/security/auth.ts);
 * 3. a request that may change state must not come from another site's page (Origin);
 * 4. security headers and a nonce-based Content-Security-Policy;
 * 5. language negotiation for pages (URL prefix, then cookie, then Accept-Language).
 * The configuration is the process's one parsed copy (server/config.ts getConfig).
 */
const intl = createMiddleware(routing);
const dev = process.env.NODE_ENV === 'development';

const LIMITER = Symbol.for('podscope.signInLimiter');
function limiter(): FailureLimiter {
  const g = globalThis as { [LIMITER]?: FailureLimiter };
  return (g[LIMITER] ??= new FailureLimiter());
}

let configProblemLogged = false;

export default function proxy(req: NextRequest): NextResponse {
  let config: Config;
  try {
    config = getConfig();
  } catch (err) {
    // Fail closed: without a configuration nobody can say whether a token is needed.
    if (!configProblemLogged) {
      configProblemLogged = true;
      rootLogger().error(err instanceof Error ? err.message : String(err));
    }
    return refuse(500, 'Podscope: the server configuration is invalid; see the server log.\n');
  }
  const policy = { bindHost: config.host, allowedHosts: config.allowedHosts };
  const host = req.headers.get('host');
  if (!hostAllowed(host, policy)) {
    return refuse(
      421,
      'Podscope: this server does not answer for the host name in this request. Open it by its own address, or add the name to PODSCOPE_ALLOWED_HOSTS.\n',
    );
  }

  const auth = authenticate(
    { url: req.url, headers: req.headers, sessionCookie: req.cookies.get(SESSION_COOKIE)?.value },
    { token: config.token, limiter: limiter() },
  );
  if (!auth.ok) {
    const { status, message, retryAfterS } = auth.refusal;
    return refuse(
      status,
      message,
      status === 401
        ? { 'www-authenticate': 'Bearer realm="podscope"' }
        : { 'retry-after': String(retryAfterS ?? 1) },
    );
  }

  if (!SAFE_METHODS.has(req.method) && !originAllowed(req.headers.get('origin'), host, policy)) {
    return refuse(403, 'Podscope: refused a request that may change state from another site.\n');
  }

  if (auth.newSession) {
    // Trade the token in the URL for a session cookie (never the token itself), and drop it
    // from the address bar.
    const clean = new URL(req.url);
    clean.searchParams.delete('token');
    const res = NextResponse.redirect(clean);
    res.cookies.set(SESSION_COOKIE, auth.newSession, {
      httpOnly: true,
      sameSite: 'strict',
      path: '/',
      maxAge: SESSION_MAX_AGE_S,
      secure: clean.protocol === 'https:' || req.headers.get('x-forwarded-proto') === 'https',
    });
    return secure(res);
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

function refuse(status: number, message: string, headers: Record<string, string> = {}) {
  return secure(
    new NextResponse(message, {
      status,
      headers: {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        ...headers,
      },
    }),
  );
}

function secure(res: NextResponse): NextResponse {
  for (const [k, v] of Object.entries(STATIC_SECURITY_HEADERS)) res.headers.set(k, v);
  return res;
}

export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'],
};
