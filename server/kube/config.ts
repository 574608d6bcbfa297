/**
 * Where the API server is and how to authenticate: a kubeconfig file (an explicit path, else
 * $KUBECONFIG, else ~/.kube/config) or, inside a pod, the service-account credentials.
 * client-node does the loading; this only decides which source and names it in errors.
 */
import { KubeConfig } from '@kubernetes/client-node';

export interface KubeConfigSource {
  /** A kubeconfig path, or an already loaded KubeConfig. Default: $KUBECONFIG, ~/.kube/config, in-cluster. */
  kubeconfig?: string | KubeConfig;
  /** A context other than the file's current-context. */
  context?: string;
}

export class KubeConfigError extends Error {
  constructor(
    readonly source: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`kubeconfig ${source}: ${message}`, options);
    this.name = 'KubeConfigError';
  }
}

export function loadKubeConfig(source: KubeConfigSource = {}): KubeConfig {
  const { kubeconfig, context } = source;
  let kc: KubeConfig;
  let label: string;
  if (kubeconfig instanceof KubeConfig) {
    kc = kubeconfig;
    label = '(given)';
  } else {
    kc = new KubeConfig();
    label =
      kubeconfig ??
      process.env.KUBECONFIG ??
      (process.env.KUBERNETES_SERVICE_HOST ? '(in-cluster)' : '~/.kube/config');
    try {
      if (kubeconfig) kc.loadFromFile(kubeconfig);
      else kc.loadFromDefault();
    } catch (err) {
      throw new KubeConfigError(label, err instanceof Error ? err.message : String(err), {
        cause: err,
      });
    }
  }
  if (context) {
    if (!kc.getContextObject(context))
      throw new KubeConfigError(label, `no context named "${context}"`);
    kc.setCurrentContext(context);
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster)
    throw new KubeConfigError(
      label,
      `current context "${kc.getCurrentContext()}" names no cluster`,
    );
  return kc;
}

/** The API server URL the config points at, for status lines and error messages. */
export function serverOf(kc: KubeConfig): string {
  return kc.getCurrentCluster()?.server ?? '(none)';
}
