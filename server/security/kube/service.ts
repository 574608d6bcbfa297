/**
 * The process's one sign-in service for PODSCOPE_AUTH=kubernetes: the reviewer (TokenReview and
 * SubjectAccessReview against the API server PODSCOPE_KUBECONFIG names, else in-cluster), the
 * key sessions are signed with, and the trusted OAuth2 proxies. Kept on globalThis, like the
 * configuration: the request proxy and the routes are bundled apart by Next.js and must share
 * one cache of reviews and one session key.
 */
import type { BlockList } from 'node:net';
import type { Config } from '@/server/config';
import { loadKubeConfig } from '@/server/kube/config';
import { rootLogger } from '@/server/log';
import { trustedProxies } from './proxy-identity';
import { kubeReviewer, type KubeReviewer } from './reviewer';
import { randomSessionSecret } from './session';

export interface KubeAuth {
  reviewer: KubeReviewer;
  /** Signs and checks sessions (server/security/kube/session.ts). */
  secret: string;
  /** Peers whose forwarded identity headers are believed. */
  trusted: BlockList;
}

const KEY = Symbol.for('podscope.kubeAuth');
type Slot = { [KEY]?: KubeAuth };

/** Builds the service from the configuration (exported for tests; servers use kubeAuth()). */
export function createKubeAuth(config: Config, reviewer?: KubeReviewer): KubeAuth {
  let secret = config.sessionSecret;
  if (!secret) {
    secret = randomSessionSecret();
    rootLogger().warn(
      'PODSCOPE_SESSION_SECRET is not set: this process signs sessions with its own key, so other replicas will not accept them and a restart signs everyone out',
    );
  }
  return {
    reviewer: reviewer ?? kubeReviewer(loadKubeConfig({ kubeconfig: config.kubeconfig })),
    secret,
    trusted: trustedProxies(config.trustedProxies),
  };
}

/** The process's service; undefined unless the configuration asks for Kubernetes sign-in. */
export function kubeAuth(config: Config): KubeAuth | undefined {
  if (config.auth !== 'kubernetes') return undefined;
  const g = globalThis as Slot;
  g[KEY] ??= createKubeAuth(config);
  return g[KEY];
}
