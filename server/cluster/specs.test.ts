import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { AgentSpecs } from '@/server/agent/specs';
import { newApiEpoch } from './envelope';
import { clusterNames } from './names';
import { Refusals } from './refusals';
import { compactPod, encodeSpecRecord, parseSpecRecord, type PodSpecRecord } from './specs';

const NODE = 'ip-10-0-0-1.ec2.internal';
const names = clusterNames('c1');

const pod: V1Pod = {
  metadata: {
    name: 'web',
    namespace: 'shop',
    uid: 'u-1',
    labels: { app: 'web' },
    annotations: { 'kubernetes.io/config.source': 'api', 'team.example/owner': 'x' },
    managedFields: [{ manager: 'kubectl' }],
    creationTimestamp: new Date('2026-03-01T10:00:00Z'),
  },
  spec: {
    nodeName: NODE,
    restartPolicy: 'OnFailure',
    terminationGracePeriodSeconds: 12,
    volumes: [{ name: 'secret', secret: { secretName: 's' } }],
    containers: [
      {
        name: 'app',
        image: 'img:1',
        command: ['run'],
        env: [{ name: 'TOKEN', value: 'secret' }],
        readinessProbe: { httpGet: { path: '/ready', port: 8080 } },
      },
    ],
    initContainers: [{ name: 'init', image: 'img:1', args: ['--x'], restartPolicy: 'Always' }],
  },
  status: {
    phase: 'Running',
    startTime: new Date('2026-03-01T10:00:01Z'),
    containerStatuses: [
      {
        name: 'app',
        image: 'img:1',
        imageID: '',
        ready: true,
        restartCount: 0,
        started: true,
        containerID: 'containerd://c1',
        state: { running: { startedAt: new Date('2026-03-01T10:00:02Z') } },
      },
    ],
  },
};

const record = (over: Partial<PodSpecRecord> = {}): PodSpecRecord => ({
  v: 1,
  cluster: 'c1',
  node: NODE,
  epoch: newApiEpoch(),
  t: Date.now(),
  uid: 'u-1',
  pod: JSON.parse(JSON.stringify(compactPod(pod))) as V1Pod,
  ...over,
});
const podKey = { kind: 'pod', node: NODE, uid: 'u-1' } as const;

describe('specs bucket records', () => {
  it('keys: one node token first, reversible', () => {
    const key = names.podSpecKey(NODE, 'u-1');
    expect(key).toBe('ip-10-0-0-1=2Eec2=2Einternal.pod.u-1');
    expect(names.parseSpecKey(key)).toEqual(podKey);
    expect(names.parseSpecKey(names.nodeSpecKey(NODE))).toEqual({ kind: 'node', node: NODE });
    expect(names.specsFilter(NODE)).toBe('ip-10-0-0-1=2Eec2=2Einternal.>');
    for (const bad of ['x', 'a.pod', 'a.pod.b.c', 'a.b', 'a=zz.node'])
      expect(names.parseSpecKey(bad)).toBeUndefined();
  });

  it('compactPod keeps what the kubelet rules read, drops env, commands, volumes, labels and managed fields', () => {
    const c = compactPod(pod);
    expect(c.metadata).toEqual({
      name: 'web',
      namespace: 'shop',
      uid: 'u-1',
      creationTimestamp: pod.metadata?.creationTimestamp,
      annotations: { 'kubernetes.io/config.source': 'api' },
    });
    expect(c.spec?.volumes).toBeUndefined();
    expect(c.spec?.containers).toEqual([
      { name: 'app', image: 'img:1', readinessProbe: { httpGet: { path: '/ready', port: 8080 } } },
    ]);
    expect(c.spec?.initContainers).toEqual([
      { name: 'init', image: 'img:1', restartPolicy: 'Always' },
    ]);
    expect(c.spec).toMatchObject({ restartPolicy: 'OnFailure', terminationGracePeriodSeconds: 12 });
    expect(c.status).toBe(pod.status);
    expect(JSON.stringify(c)).not.toMatch(/secret|TOKEN|kubectl/);
  });

  it('a record read back has the Dates KubeView would hold', () => {
    const parsed = parseSpecRecord(encodeSpecRecord(record()), 'c1', podKey);
    expect(parsed.ok).toBe(true);
    const p = parsed.ok ? (parsed.value as PodSpecRecord).pod : undefined;
    expect(p?.metadata?.creationTimestamp).toEqual(pod.metadata?.creationTimestamp);
    expect(p?.status?.startTime).toBeInstanceOf(Date);
    expect(p?.status?.containerStatuses?.[0]?.state?.running?.startedAt).toEqual(
      new Date('2026-03-01T10:00:02Z'),
    );
  });

  it('refuses a malformed, foreign or misrouted record with one reason', () => {
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o));
    const cases: [unknown, string][] = [
      [record({ cluster: 'other' }), 'foreign-cluster'],
      [record({ node: 'node-2' }), 'subject-mismatch'],
      [record({ uid: 'u-2' }), 'subject-mismatch'],
      [{ ...record(), v: 9 }, 'unknown-version'],
      [record({ epoch: '1-abcdef01' }), 'bad-envelope'],
      [record({ pod: { metadata: { name: 'x' } } }), 'bad-envelope'],
      [
        record({ pod: { ...record().pod, spec: { nodeName: NODE, containers: [{}] } } as V1Pod }),
        'bad-envelope',
      ],
      [
        record({ pod: { ...record().pod, spec: { nodeName: 'node-2', containers: [] } } }),
        'subject-mismatch',
      ],
      [{ ...record(), extra: 1 }, 'bad-envelope'],
      [[1], 'bad-envelope'],
    ];
    for (const [value, reason] of cases) {
      const parsed = parseSpecRecord(enc(value), 'c1', podKey);
      expect(parsed.ok ? 'accepted' : parsed.reason, JSON.stringify(value).slice(0, 120)).toBe(
        reason,
      );
    }
    const notJson = parseSpecRecord(Buffer.from('{'), 'c1', podKey);
    expect(notJson.ok ? '' : notJson.reason).toBe('not-json');
    const big = parseSpecRecord(Buffer.alloc(300 * 1024, 32), 'c1', podKey);
    expect(big.ok ? '' : big.reason).toBe('too-large');
    const node = { kind: 'node', node: NODE } as const;
    const head = { v: 1, cluster: 'c1', node: NODE, epoch: newApiEpoch(), t: 1 };
    expect(parseSpecRecord(enc({ ...head, hostIPs: ['10.0.0.1'] }), 'c1', node).ok).toBe(true);
    const badIps = parseSpecRecord(enc({ ...head, hostIPs: [1] }), 'c1', node);
    expect(badIps.ok ? '' : badIps.reason).toBe('bad-envelope');
    const withVersion = { ...head, hostIPs: [], kubeletVersion: 'v1.29.3' };
    expect(parseSpecRecord(enc(withVersion), 'c1', node).ok).toBe(true);
    const badVersion = parseSpecRecord(
      enc({ ...head, hostIPs: [], kubeletVersion: 129 }),
      'c1',
      node,
    );
    expect(badVersion.ok ? '' : badVersion.detail).toMatch(/kubeletVersion/);
  });
});

describe('the agent’s spec provider', () => {
  const setup = () => {
    const refusals = new Refusals(() => {});
    const specs = new AgentSpecs(NODE, 'c1', refusals);
    const changed: string[][] = [];
    specs.onChange((u) => changed.push(u));
    const put = (r: PodSpecRecord | Record<string, unknown>, key = names.podSpecKey(NODE, 'u-1')) =>
      specs.apply(key, 'PUT', Buffer.from(JSON.stringify(r)), { names });
    return { refusals, specs, changed, put };
  };

  it('serves the spec and the same hints as KubeView; ignores a repeat and an older term; a delete takes it away', () => {
    const { specs, changed, put } = setup();
    const older = newApiEpoch(Date.now() - 60_000);
    const newer = newApiEpoch();
    const r = record({ epoch: newer });
    put(r);
    expect(specs.specFor('u-1')?.spec?.restartPolicy).toBe('OnFailure');
    expect(specs.hintsFor('u-1')?.probes).toEqual({
      app: { containerId: 'c1', startup: true, readiness: true },
    });
    expect(changed).toEqual([['u-1']]);
    put(r); // the same bytes again (a re-watch after a NATS restart)
    expect(changed).toHaveLength(1);
    put(
      record({
        epoch: older,
        pod: {
          ...r.pod,
          spec: { ...r.pod.spec, nodeName: NODE, restartPolicy: 'Always', containers: [] },
        },
      }),
    );
    expect(specs.specFor('u-1')?.spec?.restartPolicy).toBe('OnFailure');
    expect(specs.stats.stale).toBe(1);
    specs.apply(names.podSpecKey(NODE, 'u-1'), 'DEL', new Uint8Array(), { names });
    expect(specs.specFor('u-1')).toBeUndefined();
    expect(changed.at(-1)).toEqual(['u-1']);
  });

  it('a re-watch forgets the keys the bucket no longer holds', () => {
    const { specs, changed, put } = setup();
    put(record());
    put(record({ uid: 'u-2' }), names.podSpecKey(NODE, 'u-2'));
    specs.prune(new Set([names.podSpecKey(NODE, 'u-2')]), { names });
    expect(specs.specFor('u-1')).toBeUndefined();
    expect(specs.specFor('u-2')).toBeDefined();
    expect(changed.at(-1)).toEqual(['u-1']);
  });

  it('host IPs for its own node only; refuses another node’s key and keeps the last good spec', () => {
    const { specs, refusals, put } = setup();
    put(record());
    specs.apply(
      names.nodeSpecKey(NODE),
      'PUT',
      Buffer.from(
        JSON.stringify({
          v: 1,
          cluster: 'c1',
          node: NODE,
          epoch: newApiEpoch(),
          t: 1,
          hostIPs: ['10.0.0.9'],
          kubeletVersion: 'v1.30.2',
        }),
      ),
      { names },
    );
    expect(specs.hostIPsFor(NODE)).toEqual(['10.0.0.9']);
    expect(specs.hostIPsFor('node-2')).toBeUndefined();
    expect(specs.kubeletVersionFor(NODE)).toBe('v1.30.2');
    expect(specs.kubeletVersionFor('node-2')).toBeUndefined();
    put(record({ node: 'node-2' }), names.podSpecKey('node-2', 'u-1'));
    put({ ...record(), cluster: 'other' });
    expect(refusals.total('subject-mismatch')).toBe(1);
    expect(refusals.total('foreign-cluster')).toBe(1);
    expect(specs.specFor('u-1')?.metadata?.name).toBe('web');
  });
});
