import { VisibilityFilter } from '@/lib/timeline/visibility';
import { getConfig } from '@/server/config';
import { withRequestLog } from '@/server/log';
import { getRuntime } from '@/server/runtime';
import { kubeAuth } from '@/server/security/kube/service';
import { signIn, signInResponse } from '@/server/security/kube/sign-in';
import { sharedLimiter } from '@/server/security/rate-limit';
import { SESSION_COOKIE } from '@/server/security/session';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const secure = (req: Request) =>
  new URL(req.url).protocol === 'https:' || req.headers.get('x-forwarded-proto') === 'https';

const cookie = (req: Request, value: string, maxAgeS: number) =>
  `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAgeS}; HttpOnly; SameSite=Strict${secure(req) ? '; Secure' : ''}`;

/**
 * Sign-in with a Kubernetes token (PODSCOPE_AUTH=kubernetes; server/security/kube/sign-in.ts):
 * the form's token is reviewed, a session cookie naming the user is set, and the browser returns
 * to the page it came from (303). A refusal shows the form again with the reason.
 */
export async function POST(req: Request): Promise<Response> {
  return withRequestLog(req, 'sign-in', async (log) => {
    const kube = kubeAuth(getConfig());
    if (!kube)
      return new Response('Podscope: this server does not sign in with Kubernetes tokens.\n', {
        status: 404,
      });
    const podscope = await getRuntime();
    const result = await signIn(req, {
      kube,
      limiter: sharedLimiter(),
      namespaces: () => VisibilityFilter.namespaces(podscope.engine.snapshot()),
    });
    if (!result.ok) {
      log.info({ status: result.status }, `sign-in refused: ${result.message}`);
      return signInResponse(result.status, { next: result.next, message: result.message });
    }
    log.info({ user: result.user.username }, 'signed in');
    return new Response(null, {
      status: 303,
      headers: {
        location: result.next,
        'set-cookie': cookie(req, result.session, result.maxAgeS),
        'cache-control': 'no-store',
      },
    });
  });
}

/** Signs out: the session cookie is cleared. */
export function DELETE(req: Request): Response {
  return new Response(null, {
    status: 204,
    headers: { 'set-cookie': cookie(req, '', 0), 'cache-control': 'no-store' },
  });
}
