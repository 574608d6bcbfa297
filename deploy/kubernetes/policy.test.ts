/**
 * The manifests' security review, as a test: renders deploy/kubernetes (and the quickstart, and
 * the components) with render.ts — and with `kubectl kustomize` when kubectl is installed,
 * requiring the same objects — validates every object against the Kubernetes schemas
 * (kubernetes-models) and checks the rules of issue 14 and deploy/README.md.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import * as models from 'kubernetes-models';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import pkg from '@/package.json';
import { objectId, podSpecOf, renderKustomization, type K8sObject } from './testing/render';

const here = join(process.cwd(), 'deploy', 'kubernetes');
const component = (name: string) => join(here, 'components', name);

const RENDERINGS: Record<string, () => K8sObject[]> = {
  base: () => renderKustomization(here),
  quickstart: () => renderKustomization(join(here, 'overlays', 'quickstart')),
  'base + cri-o + priority-class': () =>
    renderKustomization(here, [component('cri-o'), component('priority-class')]),
  'base + k3s': () => renderKustomization(here, [component('k3s')]),
};

/** The CRI sockets the agent may mount (containerd, CRI-O, k3s/RKE2). */
const CRI_SOCKETS = [
  '/run/containerd/containerd.sock',
  '/var/run/crio/crio.sock',
  '/run/k3s/containerd/containerd.sock',
];
const AGENT_NS = 'podscope-agent';
const CONSOLE_NS = 'podscope';
const IMAGE = 'localhost/podscope';

type Obj = K8sObject & { spec?: Record<string, unknown> };
interface Container {
  name: string;
  image: string;
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  ports?: { name?: string; containerPort: number }[];
  securityContext?: Record<string, unknown>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}
interface Probe {
  httpGet?: {
    path: string;
    port: string | number;
    httpHeaders?: { name: string; value: string }[];
  };
}
interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: {
    name: string;
    hostPath?: { path: string; type?: string };
    secret?: { secretName?: string };
  }[];
  securityContext?: Record<string, unknown>;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  tolerations?: Record<string, unknown>[];
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  priorityClassName?: string;
}
interface Rule {
  apiGroups?: string[];
  resources?: string[];
  verbs: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

const find = (objs: Obj[], kind: string, name: string) =>
  objs.find((o) => o.kind === kind && o.metadata.name === name);
const workloads = (objs: Obj[]) => objs.filter((o) => podSpecOf(o) !== undefined);
const podOf = (o: Obj) => podSpecOf(o) as unknown as PodSpec;
const allContainers = (p: PodSpec) => [...(p.initContainers ?? []), ...p.containers];

/** The kubernetes-models class for an object's apiVersion and kind. */
function modelFor(o: K8sObject): (new (data: unknown) => { validate(): void }) | undefined {
  const [group, version] = o.apiVersion.includes('/')
    ? (o.apiVersion.split('/') as [string, string])
    : ['', o.apiVersion];
  const ns = group
    ? group.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase()).replace(/^(\w)/, (c) => c)
    : '';
  const groupModule = (group ? (models as Record<string, unknown>)[ns] : models) as
    Record<string, Record<string, unknown>> | undefined;
  return groupModule?.[version]?.[o.kind] as
    (new (data: unknown) => { validate(): void }) | undefined;
}

function kubectlKustomize(dir: string): K8sObject[] | undefined {
  const r = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
  if (r.error) return undefined; // no kubectl here: render.ts alone
  if (r.status !== 0) throw new Error(`kubectl kustomize ${dir}: ${r.stderr}`);
  return parseAllDocuments(r.stdout, { version: '1.1' }).map((d) => d.toJS() as K8sObject);
}

const byId = (objs: K8sObject[]) =>
  Object.fromEntries(
    objs.map((o): [string, K8sObject] => [objectId(o), o]).sort(([a], [b]) => a.localeCompare(b)),
  );

describe('render.ts', () => {
  for (const [dir, label] of [
    [here, 'deploy/kubernetes'],
    [join(here, 'overlays', 'quickstart'), 'overlays/quickstart'],
  ] as const) {
    it(`renders ${label} as kubectl kustomize does (compared when kubectl is installed)`, () => {
      const ours = renderKustomization(dir);
      const theirs = kubectlKustomize(dir);
      if (theirs) expect(byId(ours)).toEqual(byId(theirs));
      expect(ours.length).toBeGreaterThan(10);
    });
  }
});

for (const [name, render] of Object.entries(RENDERINGS)) {
  describe(`manifests: ${name}`, () => {
    const objs = render() as Obj[];

    it('every object is valid against the Kubernetes schema (kubernetes-models)', () => {
      for (const o of objs) {
        const Model = modelFor(o);
        expect(Model, `${o.apiVersion} ${o.kind} has a model`).toBeDefined();
        expect(() => new Model!(o).validate(), objectId(o)).not.toThrow();
      }
    });

    it('every namespaced object names its namespace, one of the two', () => {
      const clusterScoped = new Set([
        'Namespace',
        'ClusterRole',
        'ClusterRoleBinding',
        'PriorityClass',
      ]);
      for (const o of objs) {
        if (clusterScoped.has(o.kind)) expect(o.metadata.namespace, objectId(o)).toBeUndefined();
        else expect([AGENT_NS, CONSOLE_NS], objectId(o)).toContain(o.metadata.namespace);
      }
    });

    it('Pod Security: the agent namespace is privileged (hostPath), the console one restricted', () => {
      const agentNs = find(objs, 'Namespace', AGENT_NS);
      const consoleNs = find(objs, 'Namespace', CONSOLE_NS);
      expect(agentNs?.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('privileged');
      expect(consoleNs?.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
      // Nothing but the agent in the privileged namespace.
      const inAgentNs = workloads(objs).filter((o) => o.metadata.namespace === AGENT_NS);
      expect(inAgentNs.map(objectId)).toEqual([`DaemonSet/${AGENT_NS}/podscope-agent`]);
    });

    it('every container: no privilege, no escalation, ALL capabilities dropped, read-only root fs, seccomp RuntimeDefault, resources', () => {
      for (const w of workloads(objs)) {
        const pod = podOf(w);
        expect(pod.hostPID ?? false, objectId(w)).toBe(false);
        expect(pod.hostIPC ?? false, objectId(w)).toBe(false);
        expect(pod.hostNetwork ?? false, objectId(w)).toBe(false);
        for (const c of allContainers(pod)) {
          const where = `${objectId(w)} ${c.name}`;
          const sc = c.securityContext ?? {};
          expect(sc.privileged ?? false, where).toBe(false);
          expect(sc.allowPrivilegeEscalation, where).toBe(false);
          expect(sc.readOnlyRootFilesystem, where).toBe(true);
          expect((sc.capabilities as { drop?: string[]; add?: string[] })?.drop, where).toEqual([
            'ALL',
          ]);
          expect((sc.capabilities as { add?: string[] })?.add, where).toBeUndefined();
          const seccomp =
            (sc.seccompProfile as { type?: string } | undefined)?.type ??
            (pod.securityContext?.seccompProfile as { type?: string } | undefined)?.type;
          expect(seccomp, where).toBe('RuntimeDefault');
          expect(c.resources?.requests?.cpu, where).toBeDefined();
          expect(c.resources?.requests?.memory, where).toBeDefined();
          expect(c.resources?.limits?.memory, where).toBeDefined();
          expect(c.resources?.limits?.cpu, where).toBeDefined();
          expect(c.image, where).toMatch(/^[^@]+:[^:/@]+$|@sha256:[0-9a-f]{64}$/);
          expect(c.image, where).not.toMatch(/:latest$/);
        }
      }
    });

    it('only the agent mounts a host path: the CRI socket, type Socket', () => {
      for (const w of workloads(objs)) {
        const hostPaths = (podOf(w).volumes ?? []).filter((v) => v.hostPath);
        if (objectId(w) === `DaemonSet/${AGENT_NS}/podscope-agent`) {
          expect(hostPaths).toHaveLength(1);
          expect(hostPaths[0]?.hostPath?.type).toBe('Socket');
          expect(CRI_SOCKETS).toContain(hostPaths[0]?.hostPath?.path);
        } else {
          expect(hostPaths, objectId(w)).toEqual([]);
        }
      }
    });

    it('the agent: every node (tolerates every taint), the CRI socket it mounts is the one it reads, probes on /healthz, NATS from PODSCOPE_NATS_URL, sized from its budget', () => {
      const ds = find(objs, 'DaemonSet', 'podscope-agent')!;
      const pod = podOf(ds);
      expect(pod.tolerations).toEqual([{ operator: 'Exists' }]);
      expect(pod.serviceAccountName).toBe('podscope-agent');
      // It reads only the CRI and NATS: no API token in a node-root-equivalent pod.
      expect(pod.automountServiceAccountToken).toBe(false);
      const [agent] = pod.containers;
      expect(pod.containers).toHaveLength(1);
      expect(agent!.image).toBe(`${IMAGE}:${pkg.version}`);
      expect(agent!.args).toEqual(['agent']);
      const env = Object.fromEntries((agent!.env ?? []).map((e) => [e.name, e]));
      const mount = agent!.volumeMounts?.find(
        (m) => m.name === pod.volumes?.find((v) => v.hostPath)?.name,
      );
      // The socket it reads is the one mounted, read-only, and the node is the pod's own.
      expect(env.PODSCOPE_CRI?.value).toBe(`unix://${mount?.mountPath}`);
      expect(mount?.readOnly).toBe(true);
      expect(env.PODSCOPE_NODE_NAME?.valueFrom).toEqual({
        fieldRef: { fieldPath: 'spec.nodeName' },
      });
      expect(env.PODSCOPE_NATS_URL?.value).toMatch(/^nats:\/\//);
      expect(env.PODSCOPE_AGENT_LISTEN?.value).toMatch(/:9464$/);
      for (const probe of [agent!.livenessProbe, agent!.readinessProbe]) {
        expect(probe?.httpGet?.path).toBe('/healthz');
        expect(agent!.ports?.map((p) => p.name)).toContain(probe?.httpGet?.port);
      }
      // agent_rss_mb ≤ 80 MiB: the request covers it, the limit leaves headroom, and V8's heap
      // cap sits below the limit so it collects before the kernel kills.
      const mib = (q: string | undefined) => Number(/^(\d+)Mi$/.exec(q ?? '')?.[1]);
      expect(mib(agent!.resources?.requests?.memory)).toBeGreaterThanOrEqual(80);
      expect(mib(agent!.resources?.limits?.memory)).toBeGreaterThan(
        mib(agent!.resources?.requests?.memory),
      );
      const heap = Number(/--max-old-space-size=(\d+)/.exec(env.NODE_OPTIONS?.value ?? '')?.[1]);
      expect(heap).toBeLessThan(mib(agent!.resources?.limits?.memory));
    });

    it('the console: 2+ replicas, non-root, probes on /api/healthz, a PodDisruptionBudget and a Service that select it', () => {
      const d = find(objs, 'Deployment', 'podscope-console')!;
      expect(d.spec?.replicas).toBeGreaterThanOrEqual(2);
      const pod = podOf(d);
      expect(pod.securityContext?.runAsNonRoot).toBe(true);
      expect(pod.securityContext?.runAsUser).toBe(65532);
      const [c] = pod.containers;
      expect(c!.image).toBe(`${IMAGE}:${pkg.version}`);
      expect(c!.securityContext?.runAsNonRoot).toBe(true);
      expect(c!.livenessProbe?.httpGet?.path).toBe('/api/healthz');
      expect(c!.readinessProbe?.httpGet?.path).toBe('/api/healthz');
      // The image's declared writable paths are mounted (read-only root fs).
      expect(c!.volumeMounts?.map((m) => m.mountPath)).toEqual(
        expect.arrayContaining(['/tmp', '/data', '/app/.next/cache']),
      );
      const labels = (d.spec?.template as { metadata: { labels: Record<string, string> } }).metadata
        .labels;
      const selects = (sel: Record<string, string> | undefined) =>
        !!sel && Object.entries(sel).every(([k, v]) => labels[k] === v);
      const pdb = objs.find((o) => o.kind === 'PodDisruptionBudget');
      expect(
        selects((pdb?.spec?.selector as { matchLabels?: Record<string, string> })?.matchLabels),
      ).toBe(true);
      const svc = find(objs, 'Service', 'podscope-console');
      expect(selects(svc?.spec?.selector as Record<string, string>)).toBe(true);
    });

    it("the console signs people in with the cluster's identities, its replicas sharing one session key from a mounted Secret", () => {
      const d = find(objs, 'Deployment', 'podscope-console')!;
      const pod = podOf(d);
      const [c] = pod.containers;
      const env = Object.fromEntries((c!.env ?? []).map((e) => [e.name, e]));
      expect(env.PODSCOPE_AUTH?.value).toBe('kubernetes');
      // One way of signing in: no shared token beside it (the configuration refuses both).
      expect(env.PODSCOPE_TOKEN).toBeUndefined();
      expect(env.PODSCOPE_TOKEN_FILE).toBeUndefined();
      // The key is a file from a Secret volume (never an env literal), read-only.
      const file = env.PODSCOPE_SESSION_SECRET_FILE?.value ?? '';
      expect(env.PODSCOPE_SESSION_SECRET).toBeUndefined();
      const mount = c!.volumeMounts?.find((m) => file.startsWith(`${m.mountPath}/`));
      expect(mount?.readOnly, file).toBe(true);
      const volume = pod.volumes?.find((v) => v.name === mount?.name);
      expect(volume?.secret?.secretName).toBeTruthy();
      // The probes carry no credentials: /api/healthz answers without signing in.
      for (const probe of [c!.startupProbe, c!.livenessProbe, c!.readinessProbe])
        expect(probe?.httpGet?.httpHeaders?.map((h) => h.name.toLowerCase()) ?? []).not.toContain(
          'authorization',
        );
    });

    it('NetworkPolicies cover the console, the agents (metrics) and NATS; the console namespace denies by default', () => {
      const policies = objs.filter((o) => o.kind === 'NetworkPolicy');
      const selected = (label: string, ns: string) =>
        policies.some(
          (p) =>
            p.metadata.namespace === ns &&
            (p.spec?.podSelector as { matchLabels?: Record<string, string> })?.matchLabels?.[
              'app.kubernetes.io/name'
            ] === label,
        );
      expect(selected('podscope-console', CONSOLE_NS)).toBe(true);
      expect(selected('podscope-agent', AGENT_NS)).toBe(true);
      expect(selected('nats', CONSOLE_NS)).toBe(true);
      const deny = policies.find(
        (p) =>
          p.metadata.namespace === CONSOLE_NS &&
          Object.keys(p.spec?.podSelector ?? {}).length === 0,
      );
      expect(deny?.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
    });

    it('RBAC, least privilege: exactly the rules of issue 14; no wildcards, no secrets, no cluster-admin, no escalation', () => {
      const roles = objs.filter((o) => o.kind === 'ClusterRole' || o.kind === 'Role');
      const bindings = objs.filter(
        (o) => o.kind === 'ClusterRoleBinding' || o.kind === 'RoleBinding',
      );
      for (const r of roles) {
        for (const rule of (r.rules as Rule[] | undefined) ?? []) {
          const all = [...(rule.apiGroups ?? []), ...(rule.resources ?? []), ...rule.verbs];
          expect(
            all.some((s) => s.includes('*')),
            objectId(r),
          ).toBe(false);
          expect(rule.resources ?? [], objectId(r)).not.toContain('secrets');
          expect(rule.nonResourceURLs, objectId(r)).toBeUndefined();
          for (const v of ['escalate', 'bind', 'impersonate'])
            expect(rule.verbs, objectId(r)).not.toContain(v);
        }
      }
      for (const b of bindings) {
        const ref = b.roleRef as { name: string; kind: string };
        expect(['cluster-admin', 'admin', 'edit']).not.toContain(ref.name);
        expect(roles.map((r) => r.metadata.name)).toContain(ref.name);
        for (const s of b.subjects as { kind: string; name: string }[]) {
          expect(s.kind, objectId(b)).toBe('ServiceAccount');
          expect(s.name).not.toMatch(/^system:/);
        }
      }
      const flat = (name: string) =>
        ((find(objs, 'ClusterRole', name)?.rules as Rule[]) ?? [])
          .flatMap((r) =>
            (r.resources ?? []).flatMap((res) =>
              r.verbs.map((v) => `${r.apiGroups?.[0] || 'core'}/${res}:${v}`),
            ),
          )
          .sort();
      // The agent has no API-server credentials: no role, no binding (its specs come from NATS).
      expect(find(objs, 'ClusterRole', 'podscope-agent')).toBeUndefined();
      expect(
        bindings.some((b) =>
          (b.subjects as { name: string }[]).some((s) => s.name === 'podscope-agent'),
        ),
      ).toBe(false);
      const read = (g: string, r: string) => ['get', 'list', 'watch'].map((v) => `${g}/${r}:${v}`);
      expect(flat('podscope-console')).toEqual(
        [
          ...read('core', 'pods'),
          ...read('core', 'nodes'),
          ...read('core', 'events'),
          ...read('events.k8s.io', 'events'),
          ...read('coordination.k8s.io', 'leases'),
          'authentication.k8s.io/tokenreviews:create',
          'authorization.k8s.io/subjectaccessreviews:create',
        ].sort(),
      );
      // The console's leader election: its own namespace only, only its Lease by name — but
      // create, which RBAC cannot restrict by resourceNames (the name is not known at authorisation).
      const lease = find(objs, 'Role', 'podscope-console-lease');
      expect(lease?.metadata.namespace).toBe(CONSOLE_NS);
      expect(lease?.rules).toEqual([
        {
          apiGroups: ['coordination.k8s.io'],
          resources: ['leases'],
          resourceNames: ['podscope-api-view'],
          verbs: ['get', 'update'],
        },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      ]);
      // The Lease the replicas elect through is the one the Role names, in the console's namespace.
      const consoleEnv = allContainers(
        podOf(find(objs, 'Deployment', 'podscope-console') as Obj),
      ).find((c) => c.name === 'console')?.env;
      expect(consoleEnv?.find((e) => e.name === 'PODSCOPE_LEASE_NAME')?.value).toBe(
        'podscope-api-view',
      );
      expect(consoleEnv?.find((e) => e.name === 'PODSCOPE_LEASE_NAMESPACE')?.valueFrom).toEqual({
        fieldRef: { fieldPath: 'metadata.namespace' },
      });
      // Each service account is bound to its own roles only; only the Lease role is namespaced.
      const bound = bindings.map((b) => [
        (b.subjects as { name: string }[])[0]?.name,
        (b.roleRef as { name: string }).name,
        b.kind,
      ]);
      expect(bound.sort()).toEqual([
        ['podscope-console', 'podscope-console', 'ClusterRoleBinding'],
        ['podscope-console', 'podscope-console-lease', 'RoleBinding'],
      ]);
      const leaseBinding = find(objs, 'RoleBinding', 'podscope-console-lease');
      expect(leaseBinding?.metadata.namespace).toBe(CONSOLE_NS);
      expect(leaseBinding?.roleRef).toEqual({
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'Role',
        name: 'podscope-console-lease',
      });
    });

    it('the image is tagged with the package version, never latest', () => {
      for (const w of workloads(objs))
        for (const c of allContainers(podOf(w)))
          if (c.image.startsWith(`${IMAGE}:`)) expect(c.image).toBe(`${IMAGE}:${pkg.version}`);
    });
  });
}

describe('the variants', () => {
  it('components point the agent at CRI-O and k3s sockets and add the priority class', () => {
    const path = (objs: K8sObject[]) =>
      (podSpecOf(find(objs, 'DaemonSet', 'podscope-agent')!) as unknown as PodSpec).volumes?.find(
        (v) => v.hostPath,
      )?.hostPath?.path;
    expect(path(RENDERINGS.base!())).toBe('/run/containerd/containerd.sock');
    expect(path(RENDERINGS['base + k3s']!())).toBe('/run/k3s/containerd/containerd.sock');
    const crio = RENDERINGS['base + cri-o + priority-class']!();
    expect(path(crio)).toBe('/var/run/crio/crio.sock');
    const ds = podSpecOf(find(crio, 'DaemonSet', 'podscope-agent')!) as unknown as PodSpec;
    expect(ds.priorityClassName).toBe('podscope-agent');
    expect(find(crio as Obj[], 'PriorityClass', 'podscope-agent')).toBeDefined();
  });

  it('the quickstart adds one NATS with JetStream and one PostgreSQL, single replicas', () => {
    const objs = RENDERINGS.quickstart!() as Obj[];
    const nats = find(objs, 'StatefulSet', 'nats');
    const pg = find(objs, 'StatefulSet', 'postgresql');
    expect(nats?.spec?.replicas).toBe(1);
    expect(pg?.spec?.replicas).toBe(1);
    expect(JSON.stringify(nats)).toContain('--jetstream');
    expect(find(objs, 'Service', 'nats')).toBeDefined();
    expect(find(objs, 'Service', 'postgresql')).toBeDefined();
    expect(find(RENDERINGS.base!() as Obj[], 'StatefulSet', 'nats')).toBeUndefined();
  });
});
