import createMiddleware from 'next-intl/middleware';
import { NextResponse, type NextRequest } from 'next/server';
import { routing } from './i18n/routing';
import { getConfig, type Config } from './server/config';
import { rootLogger } from './server/log';
import { authenticate, SESSION_COOKIE } from './server/security/auth';
import { contentSecurityPolicy, STATIC_SECURITY_HEADERS } from './server/security/headers';
import { hostAllowed, originAllowed, SAFE_METHODS } from './server/security/hosts';
import { encodeIdentity } from './server/security/identity';
import { kubeAuth, type KubeAuth } from './server/security/kube/service';
import { SIGN_IN_PATH, signInResponse } from './server/security/kube/sign-in';
import { IDENTITY_HEADER } from './server/security/peer';
import { sharedLimiter } from './server/security/rate-limit';
import { SESSION_MAX_AGE_S } from './server/security/session';

/**
 * Runs before every request except Next's static assets:
 * 1. the Host header must name this server (DNS rebinding), server/security/hosts.ts;
 * 2. who is asking — the access token or a session when a token is configured, the cluster's
 *    identities with PODSCOPE_AUTH=kubernetes — every route, the SSE stream and /metrics included
 *    (server/security/auth.ts); the answer goes to the routes in IDENTITY_HEADER (any value a
 *    client sent under that name is dropped). Only /api/healthz answers without (it then says
 *    only ok or not), and the sign-in form's POST; a page asked for without signing in in
 *    kubernetes mode is the sign-in page;
 * 3. a request that may change state must not come from another site's page (Origin);
 * 4. security headers and a nonce-based Content-Security-Policy;
 * 5. language negotiation for pages (URL prefix, then cookie, then Accept-Language).
 * The configuration is the process's one parsed copy (server/config.ts getConfig).
 */
const intl = createMiddleware(routing);
const dev = process.env.NODE_ENV === 'development';

let configProblemLogged = false;

export default async function proxy(req: NextRequest): Promise<NextResponse> {
  let config: Config;
  let kube: KubeAuth | undefined;
  try {
    config = getConfig();
    kube = kubeAuth(config);
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

  const path = req.nextUrl.pathname;
  const sessionCookie = req.cookies.get(SESSION_COOKIE)?.value;
  const auth = await authenticate(
    { url: req.url, headers: req.headers, ...(sessionCookie ? { sessionCookie } : {}) },
    { token: config.token, ...(kube ? { kube } : {}), limiter: sharedLimiter() },
  );
  req.headers.delete(IDENTITY_HEADER);
  if (auth.ok) req.headers.set(IDENTITY_HEADER, encodeIdentity(auth.identity));
  const noCredentials = !req.headers.has('authorization') && sessionCookie === undefined;
  const passes =
    auth.ok ||
    // A probe: it learns ok / not ok and nothing else (app/api/healthz).
    (path === '/api/healthz' && noCredentials && auth.refusal.status === 401) ||
    // The sign-in form: the route reviews the token it carries.
    (kube !== undefined && path === SIGN_IN_PATH && req.method === 'POST');
  if (!auth.ok && !passes) {
    const { status, message, retryAfterS } = auth.refusal;
    if (kube && status === 401 && req.method === 'GET' && isPage(path)) {
      const page = signInResponse(401, { next: `${path}${req.nextUrl.search}` });
      return secure(new NextResponse(page.body, { status: 401, headers: page.headers }));
    }
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

  if (auth.ok && auth.newSession) {
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

  if (!isPage(path)) return secure(NextResponse.next({ request: { headers: req.headers } }));

  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const csp = contentSecurityPolicy(nonce, dev);
  req.headers.set('content-security-policy', csp);
  req.headers.set('x-nonce', nonce);
  const res = intl(req);
  res.headers.set('content-security-policy', csp);
  return secure(res);
}

const isPage = (path: string) => !path.startsWith('/api/') && path !== '/metrics';

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
