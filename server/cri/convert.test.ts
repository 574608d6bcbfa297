import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  intern,
  stringMap,
  nsToMs,
  parseNodeResources,
  parseRestartCount,
  toContainerEvent,
  toContainerStatsSample,
  toContainerState,
  toImageInfo,
  toInspectedContainer,
  toInspectedSandbox,
  toRuntimeContainer,
  toRuntimeSandbox,
  toRuntimeStatus,
  toSandboxStatsSample,
  toSandboxState,
  toSandboxStatusResult,
} from './convert';
import type { Container__Output } from './generated/runtime/v1/Container';
import type { ContainerStatus__Output } from './generated/runtime/v1/ContainerStatus';

type AnyInput = Parameters<typeof toRuntimeContainer>[0];

const baseStatus: ContainerStatus__Output = {
  id: 'c1',
  metadata: { name: 'meta-name', attempt: 2 },
  state: 'CONTAINER_EXITED',
  created_at: '1700000000000000000',
  started_at: '1700000001500000000',
  finished_at: '1700000003000000000',
  exit_code: 3,
  image: {
    image: 'podscope.local/busybox:1',
    annotations: {},
    user_specified_image: '',
    runtime_handler: '',
    image_ref: '',
  },
  image_ref: 'sha256:abc',
  reason: 'Error',
  message: '',
  labels: { 'io.kubernetes.container.name': 'web' },
  annotations: { 'io.kubernetes.container.restartCount': '4' },
  mounts: [],
  log_path: '',
  resources: null,
  image_id: 'sha256:abc',
  user: null,
  stop_signal: 'RUNTIME_DEFAULT',
};

describe('nsToMs', () => {
  it('converts int64 nanosecond strings to epoch ms keeping the fraction', () => {
    expect(nsToMs('1700000000123456789')).toBe(1700000000123 + 0.456789);
    expect(nsToMs('1500000')).toBe(1.5);
    expect(nsToMs('0')).toBe(0);
    expect(nsToMs('-2000000')).toBe(-2);
  });
  it('maps garbage to 0', () => {
    expect(nsToMs('abc')).toBe(0);
    expect(nsToMs(undefined)).toBe(0);
    expect(nsToMs('')).toBe(0);
    expect(nsToMs(Number.NaN)).toBe(0);
  });
  it('is within a microsecond of exact BigInt arithmetic for real-world timestamps', () => {
    // int64 ns up to year 2262; a double at that magnitude resolves ~0.5 µs.
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 9_223_372_036_854_775_807n }), (ns) => {
        const ms = nsToMs(ns.toString());
        const wholeMs = ns / 1_000_000n;
        const remainderNs = ns - wholeMs * 1_000_000n;
        const errorNs = (ms - Number(wholeMs)) * 1e6 - Number(remainderNs);
        expect(Math.abs(errorNs)).toBeLessThanOrEqual(1000);
      }),
    );
  });
});

describe('enum mapping', () => {
  it('maps CRI container states and unknown values', () => {
    expect(toContainerState('CONTAINER_CREATED')).toBe('created');
    expect(toContainerState('CONTAINER_RUNNING')).toBe('running');
    expect(toContainerState('CONTAINER_EXITED')).toBe('exited');
    expect(toContainerState('CONTAINER_UNKNOWN')).toBe('unknown');
    // protobufjs hands an enum number it has no name for through as the number.
    expect(toContainerState(7)).toBe('unknown');
    expect(toContainerState(1)).toBe('running');
  });
  it('maps sandbox states, anything but READY is notready', () => {
    expect(toSandboxState('SANDBOX_READY')).toBe('ready');
    expect(toSandboxState('SANDBOX_NOTREADY')).toBe('notready');
    expect(toSandboxState(9)).toBe('notready');
  });
});

describe('restartCount annotation', () => {
  it('reads decimal counts and maps garbage to 0', () => {
    const rc = (v: string) => parseRestartCount({ 'io.kubernetes.container.restartCount': v });
    expect(rc('0')).toBe(0);
    expect(rc('12')).toBe(12);
    expect(rc('-1')).toBe(0);
    expect(rc('1e3')).toBe(0);
    expect(rc('three')).toBe(0);
    expect(rc('99999999999999999999')).toBe(0);
    expect(parseRestartCount({})).toBe(0);
  });
});

describe('containers', () => {
  it('takes the name from the kubelet label, falling back to metadata', () => {
    expect(toInspectedContainer(baseStatus).name).toBe('web');
    expect(toInspectedContainer({ ...baseStatus, labels: {} }).name).toBe('meta-name');
  });
  it('keeps exit fields only for an exited container', () => {
    const exited = toInspectedContainer(baseStatus, 's1');
    expect(exited).toMatchObject({
      sandboxId: 's1',
      state: 'exited',
      exitCode: 3,
      reason: 'Error',
      startedAt: 1700000001500,
      finishedAt: 1700000003000,
      restartCount: 4,
      attempt: 2,
      imageId: 'sha256:abc',
      inspected: true,
    });
    const running = toInspectedContainer({ ...baseStatus, state: 'CONTAINER_RUNNING', reason: '' });
    expect(running.exitCode).toBeUndefined();
    expect(running.finishedAt).toBeUndefined();
    expect(running.startedAt).toBe(1700000001500);
  });
  it('ignores started_at of a created container', () => {
    const created = toInspectedContainer({ ...baseStatus, state: 'CONTAINER_CREATED' });
    expect(created.startedAt).toBeUndefined();
  });
  it('keeps a reason reported while still running (child OOM kill)', () => {
    const c = toInspectedContainer({
      ...baseStatus,
      state: 'CONTAINER_RUNNING',
      reason: 'OOMKilled',
    });
    expect(c.reason).toBe('OOMKilled');
  });
  it('converts a ListContainers item as not inspected', () => {
    const item: Container__Output = {
      id: 'c2',
      pod_sandbox_id: 's2',
      metadata: { name: 'side', attempt: 0 },
      image: null,
      image_ref: 'sha256:def',
      state: 'CONTAINER_RUNNING',
      created_at: '1000000',
      labels: {},
      annotations: {},
      image_id: '',
    };
    expect(toRuntimeContainer(item)).toEqual({
      id: 'c2',
      sandboxId: 's2',
      name: 'side',
      attempt: 0,
      state: 'running',
      createdAt: 1,
      image: '',
      imageRef: 'sha256:def',
      restartCount: 0,
      labels: {},
      annotations: {},
      inspected: false,
    });
  });
});

describe('sandboxes', () => {
  it('reads network and namespace mode from PodSandboxStatus', () => {
    const s = toInspectedSandbox({
      id: 's1',
      metadata: { name: 'p', uid: 'u', namespace: 'ns', attempt: 1 },
      state: 'SANDBOX_READY',
      created_at: '2000000',
      network: { ip: '10.88.0.5', additional_ips: [{ ip: 'fd00::5' }] },
      linux: {
        namespaces: {
          options: {
            network: 'NODE',
            pid: 'CONTAINER',
            ipc: 'POD',
            target_id: '',
            userns_options: null,
          },
        },
      },
      labels: { a: 'b' },
      annotations: {},
      runtime_handler: '',
    });
    expect(s).toMatchObject({
      id: 's1',
      name: 'p',
      uid: 'u',
      namespace: 'ns',
      attempt: 1,
      state: 'ready',
      createdAt: 2,
      network: { ip: '10.88.0.5', additionalIps: ['fd00::5'] },
      networkMode: 'NODE',
      inspected: true,
    });
    expect(s.runtimeHandler).toBeUndefined();
  });
});

describe('status', () => {
  it('reads conditions and the simulator node figures', () => {
    const st = toRuntimeStatus({
      status: { conditions: [{ type: 'RuntimeReady', status: true, reason: '', message: '' }] },
      info: {
        'podscope.sim/node': JSON.stringify({ memoryCapacityBytes: 8, pidMax: -1, bogus: 3 }),
      },
      runtime_handlers: [],
      features: null,
    });
    expect(st.conditions).toEqual([
      { type: 'RuntimeReady', status: true, reason: '', message: '' },
    ]);
    expect(st.node).toEqual({ memoryCapacityBytes: 8 });
  });
  it('ignores an unreadable node entry', () => {
    expect(parseNodeResources('{')).toBeUndefined();
    expect(parseNodeResources('[1]')).toBeUndefined();
    expect(parseNodeResources(undefined)).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------
// Property: arbitrary records never throw, and always give well-typed domain values.
// ---------------------------------------------------------------------------------------------

const junk = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withTypedArray: true,
  withNullPrototype: true,
});

const int64ish = fc.oneof(fc.bigInt().map(String), fc.string(), junk);
const mapish = fc.oneof(fc.dictionary(fc.string(), fc.oneof(fc.string(), junk)), junk);
const enumish = fc.oneof(
  fc.constantFrom('CONTAINER_CREATED', 'CONTAINER_RUNNING', 'CONTAINER_EXITED', 'SANDBOX_READY'),
  fc.integer(),
  junk,
);
const metaish = fc.oneof(
  fc.record(
    { name: fc.oneof(fc.string(), junk), attempt: fc.oneof(fc.integer(), junk) },
    { requiredKeys: [] },
  ),
  junk,
);
const recordish = fc.oneof(
  fc.record(
    {
      id: fc.oneof(fc.string(), junk),
      pod_sandbox_id: fc.oneof(fc.string(), junk),
      metadata: metaish,
      state: enumish,
      created_at: int64ish,
      started_at: int64ish,
      finished_at: int64ish,
      exit_code: fc.oneof(fc.integer(), junk),
      labels: mapish,
      annotations: mapish,
      image: fc.oneof(fc.record({ image: fc.oneof(fc.string(), junk) }), junk),
      reason: junk,
      network: fc.oneof(
        fc.record({ ip: junk, additional_ips: fc.oneof(fc.array(junk), junk) }),
        junk,
      ),
      linux: junk,
      status: junk,
      info: mapish,
      attributes: fc.oneof(fc.record({ id: junk, metadata: metaish, labels: mapish }), junk),
      cpu: fc.oneof(
        fc.record({
          timestamp: int64ish,
          usage_core_nano_seconds: fc.oneof(fc.record({ value: int64ish }), junk),
        }),
        junk,
      ),
      memory: junk,
      containers_statuses: fc.oneof(fc.array(junk), junk),
      pod_sandbox_status: junk,
      container_event_type: enumish,
      repo_tags: fc.oneof(fc.array(junk), junk),
      size: int64ish,
      uid: junk,
    },
    { requiredKeys: [] },
  ),
  junk,
);

const isFiniteNumber = (n: unknown) => typeof n === 'number' && Number.isFinite(n);

describe('conversion of arbitrary records', () => {
  it('never throws and yields well-typed containers', () => {
    fc.assert(
      fc.property(recordish, (r) => {
        for (const c of [
          toRuntimeContainer(r as AnyInput),
          toInspectedContainer(r as ContainerStatus__Output),
        ]) {
          expect(typeof c.id).toBe('string');
          expect(typeof c.name).toBe('string');
          expect(['created', 'running', 'exited', 'unknown']).toContain(c.state);
          expect(isFiniteNumber(c.createdAt)).toBe(true);
          expect(Number.isSafeInteger(c.restartCount) && c.restartCount >= 0).toBe(true);
          for (const v of Object.values(c.labels)) expect(typeof v).toBe('string');
          for (const v of Object.values(c.annotations)) expect(typeof v).toBe('string');
        }
      }),
      { numRuns: 500 },
    );
  });
  it('never throws for sandboxes, events, stats, images and status', () => {
    fc.assert(
      fc.property(recordish, (r) => {
        const any = r as never;
        const sandbox = toRuntimeSandbox(any);
        expect(['ready', 'notready']).toContain(sandbox.state);
        expect(isFiniteNumber(toInspectedSandbox(any).createdAt)).toBe(true);
        toSandboxStatusResult(any);
        const event = toContainerEvent(any);
        expect(['created', 'started', 'stopped', 'deleted', 'unknown']).toContain(event.kind);
        toContainerStatsSample(any);
        toSandboxStatsSample(any);
        expect(isFiniteNumber(toImageInfo(any).sizeBytes)).toBe(true);
        toRuntimeStatus(any);
      }),
      { numRuns: 500 },
    );
  });
});

describe('bounds on what a runtime sends', () => {
  it('caps names, ids, messages and maps', async () => {
    const { toInspectedContainer, toRuntimeSandbox, CRI_TEXT_LIMITS } = await import('./convert');
    const huge = 'x'.repeat(100_000);
    const sandbox = toRuntimeSandbox({
      id: huge,
      metadata: { name: huge, namespace: huge, uid: huge, attempt: 0 },
      labels: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 'v'])),
      annotations: { [huge]: 'dropped', ok: 'kept' },
    } as never);
    expect(sandbox.name.length).toBe(CRI_TEXT_LIMITS.name);
    expect(sandbox.uid.length).toBe(CRI_TEXT_LIMITS.id);
    expect(Object.keys(sandbox.labels)).toHaveLength(CRI_TEXT_LIMITS.entries);
    expect(sandbox.annotations).toEqual({ ok: 'kept' });
    const c = toInspectedContainer({
      id: 'c',
      state: 'CONTAINER_EXITED',
      message: huge,
      reason: huge,
      metadata: { name: huge },
    } as never);
    expect(c.message?.length).toBe(CRI_TEXT_LIMITS.message);
    expect(c.message?.endsWith('…')).toBe(true);
    expect(c.reason?.length).toBe(CRI_TEXT_LIMITS.short);
    expect(c.name.length).toBe(CRI_TEXT_LIMITS.name);
  });
});

describe('intern', () => {
  it('hands out one copy of equal label and annotation values', () => {
    const a = stringMap({ path: ['/dev/', 'termination-log'].join('') });
    const b = stringMap({ path: ['/dev/term', 'ination-log'].join('') });
    expect(a.path).toBe('/dev/termination-log');
    expect(intern(['/dev/termi', 'nation-log'].join(''))).toBe(b.path);
  });

  it('keeps the entries stringMap always kept', () => {
    expect(stringMap({ a: '1', b: 2, c: '3' })).toEqual({ a: '1', c: '3' });
  });
});
