/**
 * Environment variables for a container, as the kubelet's makeEnvironmentVariables resolves them
 * (pkg/kubelet/kubelet_pods.go), against a small in-memory set of ConfigMaps and Secrets the
 * driver knows instead of an API server. A reference the set cannot satisfy fails the container
 * with CreateContainerConfigError and the API server's own wording:
 *
 *   configmap "app-config" not found                      (valueFrom / envFrom, not optional)
 *   couldn't find key LEVEL in ConfigMap shop/app-config    (key missing, not optional)
 *   secret "db" not found / couldn't find key … in Secret …
 *
 * Optional references are skipped, as upstream does. Values are not expanded ($(VAR)), and
 * fieldRef / resourceFieldRef read the few pod fields a demo needs.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';

export type ConfigData = Readonly<Record<string, string>>;

export class EnvResolutionError extends Error {
  override name = 'EnvResolutionError';
}

/** ConfigMaps and Secrets by "namespace/name". */
export class ConfigStore {
  private readonly configMaps = new Map<string, ConfigData>();
  private readonly secrets = new Map<string, ConfigData>();

  constructor(init?: {
    configMaps?: Readonly<Record<string, ConfigData>>;
    secrets?: Readonly<Record<string, ConfigData>>;
  }) {
    for (const [key, data] of Object.entries(init?.configMaps ?? {}))
      this.configMaps.set(key, { ...data });
    for (const [key, data] of Object.entries(init?.secrets ?? {}))
      this.secrets.set(key, { ...data });
  }

  putConfigMap(namespace: string, name: string, data: ConfigData): void {
    this.configMaps.set(`${namespace}/${name}`, { ...data });
  }

  deleteConfigMap(namespace: string, name: string): void {
    this.configMaps.delete(`${namespace}/${name}`);
  }

  putSecret(namespace: string, name: string, data: ConfigData): void {
    this.secrets.set(`${namespace}/${name}`, { ...data });
  }

  configMap(namespace: string, name: string): ConfigData | undefined {
    return this.configMaps.get(`${namespace}/${name}`);
  }

  secret(namespace: string, name: string): ConfigData | undefined {
    return this.secrets.get(`${namespace}/${name}`);
  }
}

type Kind = 'ConfigMap' | 'Secret';

function lookup(
  store: ConfigStore,
  kind: Kind,
  namespace: string,
  name: string,
): ConfigData | undefined {
  return kind === 'ConfigMap' ? store.configMap(namespace, name) : store.secret(namespace, name);
}

function notFound(kind: Kind, name: string): EnvResolutionError {
  return new EnvResolutionError(
    `${kind === 'ConfigMap' ? 'configmap' : 'secret'} "${name}" not found`,
  );
}

function keyRef(
  store: ConfigStore,
  kind: Kind,
  namespace: string,
  ref: { name?: string; key: string; optional?: boolean },
): string | undefined {
  const name = ref.name ?? '';
  const data = lookup(store, kind, namespace, name);
  if (!data) {
    if (ref.optional) return undefined;
    throw notFound(kind, name);
  }
  const value = data[ref.key];
  if (value === undefined) {
    if (ref.optional) return undefined;
    throw new EnvResolutionError(`couldn't find key ${ref.key} in ${kind} ${namespace}/${name}`);
  }
  return value;
}

function fieldValue(pod: V1Pod, path: string): string {
  switch (path) {
    case 'metadata.name':
      return pod.metadata?.name ?? '';
    case 'metadata.namespace':
      return pod.metadata?.namespace ?? '';
    case 'metadata.uid':
      return pod.metadata?.uid ?? '';
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? '';
    default:
      throw new EnvResolutionError(`unsupported fieldRef path "${path}"`);
  }
}

/** makeEnvironmentVariables: envFrom first (in order), then env (later entries win). */
export function makeEnvironmentVariables(
  pod: V1Pod,
  container: V1Container,
  store: ConfigStore,
): Record<string, string> {
  const namespace = pod.metadata?.namespace ?? 'default';
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    const prefix = from.prefix ?? '';
    const ref = from.configMapRef
      ? {
          kind: 'ConfigMap' as const,
          name: from.configMapRef.name ?? '',
          optional: from.configMapRef.optional,
        }
      : from.secretRef
        ? {
            kind: 'Secret' as const,
            name: from.secretRef.name ?? '',
            optional: from.secretRef.optional,
          }
        : undefined;
    if (!ref) continue;
    const data = lookup(store, ref.kind, namespace, ref.name);
    if (!data) {
      if (ref.optional) continue;
      throw notFound(ref.kind, ref.name);
    }
    for (const [k, v] of Object.entries(data)) env[`${prefix}${k}`] = v;
  }
  for (const e of container.env ?? []) {
    if (e.value !== undefined || !e.valueFrom) {
      env[e.name] = e.value ?? '';
      continue;
    }
    const from = e.valueFrom;
    let value: string | undefined;
    if (from.configMapKeyRef) value = keyRef(store, 'ConfigMap', namespace, from.configMapKeyRef);
    else if (from.secretKeyRef) value = keyRef(store, 'Secret', namespace, from.secretKeyRef);
    else if (from.fieldRef) value = fieldValue(pod, from.fieldRef.fieldPath);
    else if (from.resourceFieldRef) value = '0';
    if (value !== undefined) env[e.name] = value;
  }
  return env;
}
