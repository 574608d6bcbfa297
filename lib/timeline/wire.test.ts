import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encode, reviveInPlace, toJsonValue } from './codec';
import type { Explanation } from '../kubelet/explanation';
import type { TimelineEvent } from './events';
import { sampleEvents } from './file/testing';
import { reduceAll } from './reducer';
import { emptyState, type ClusterState } from './state';
import {
  copyData,
  WireDecoder,
  WireEncoder,
  WireError,
  type WireFrame,
  type WireVersion,
} from './wire';

/** As the SSE transport carries it: the tRPC transformer's JSON on one side, revived on the other. */
const transport = <T>(v: T): T => reviveInPlace<T>(JSON.parse(JSON.stringify(toJsonValue(v))));

/** Events as the timeline would write them, keys sorted (the wire may reorder a status's keys). */
function canonical(events: readonly TimelineEvent[]): string {
  return JSON.stringify(
    JSON.parse(encode(events), (_k, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
        : v,
    ),
  );
}

function chunks<T>(items: readonly T[], sizes: readonly number[]): T[][] {
  const out: T[][] = [];
  let i = 0;
  let s = 0;
  while (i < items.length) {
    const n = Math.max(1, sizes[s++ % Math.max(1, sizes.length)] ?? 1);
    out.push(items.slice(i, i + n));
    i += n;
  }
  return out;
}

function roundTrip(
  events: readonly TimelineEvent[],
  opts: { sizes?: number[]; tableSize?: number; seed?: ClusterState; version?: WireVersion } = {},
): { back: TimelineEvent[]; frames: WireFrame[] } {
  const enc = new WireEncoder({
    ...(opts.tableSize ? { tableSize: opts.tableSize } : {}),
    ...(opts.version ? { version: opts.version } : {}),
  });
  const dec = new WireDecoder(opts.tableSize ? { tableSize: opts.tableSize } : {});
  if (opts.seed) {
    enc.seed(opts.seed);
    dec.seed(transport(opts.seed));
  }
  const frames: WireFrame[] = [];
  const back: TimelineEvent[] = [];
  for (const batch of chunks(events, opts.sizes ?? [7])) {
    const frame = transport(enc.encode(batch));
    frames.push(frame);
    back.push(...dec.decode(frame));
  }
  return { back, frames };
}

/** Where the container events of the tests below happen. */
const WEB = { kind: 'container', podUid: 'u1', list: 'regular', name: 'web', node: 'n1' } as const;

/** A container "web" running as `id` since 1,000 s, and the same killed (137) at `at`. */
function webStatuses(id: string) {
  const running = {
    name: 'web',
    restartCount: 0,
    image: 'podscope.local/busybox:1',
    imageID: 'podscope.local/busybox@sha256:' + 'c'.repeat(64),
    containerID: `containerd://${id}`,
    ready: true,
    state: { running: { startedAt: new Date(1_000_000) } },
    started: true,
  };
  const killed = (at: number) => ({
    ...running,
    ready: false,
    started: false,
    state: {
      terminated: {
        exitCode: 137,
        reason: 'Error',
        startedAt: new Date(1_000_000),
        finishedAt: new Date(at),
        containerID: `containerd://${id}`,
      },
    },
  });
  return { running, killed };
}

describe('lean wire', () => {
  const events = sampleEvents(6);

  it('decodes to the events it was given, through the SSE transport', () => {
    const { back, frames } = roundTrip(events);
    expect(canonical(back)).toBe(canonical(events));
    expect(frames[0]?.r).toBe(1);
    expect(frames.slice(1).every((f) => f.r === undefined)).toBe(true);
  });

  it('folds to the same state as the plain events (live equals replay)', () => {
    const { back } = roundTrip(events, { sizes: [1, 3, 50] });
    expect(encode(reduceAll(emptyState(), back))).toBe(encode(reduceAll(emptyState(), events)));
  });

  it('continues a stream that began with a snapshot, diffing against its statuses', () => {
    const cut = Math.floor(events.length / 2);
    const seed = reduceAll(emptyState(), events.slice(0, cut));
    const rest = events.slice(cut);
    const { back, frames } = roundTrip(rest, { seed });
    expect(canonical(back)).toBe(canonical(rest));
    expect(frames[0]?.r).toBeUndefined();
    // Some container status went as a diff against the snapshot's.
    expect(frames.some((f) => f.e.some((e) => e.D !== undefined))).toBe(true);
    expect(encode(reduceAll(seed, back))).toBe(encode(reduceAll(emptyState(), events)));
  });

  it('v2 names a pod the snapshot held by its place on its node, once; later by its slot', () => {
    const cut = Math.floor(events.length / 2);
    const seed = reduceAll(emptyState(), events.slice(0, cut));
    const rest = events.slice(cut);
    const { back, frames } = roundTrip(rest, { seed, version: 2 });
    expect(canonical(back)).toBe(canonical(rest));
    const sent = frames.flatMap((f) => f.e);
    const placed = sent.filter((e) => e.u !== undefined);
    expect(placed.length).toBeGreaterThan(0);
    expect(placed.every((e) => e.p === undefined && typeof e.u === 'number')).toBe(true);
    // No event names a pod of the snapshot by its uid as text.
    const seeded = Object.values(seed.nodes).flatMap((n) => Object.keys(n.pods));
    for (const e of sent) expect(seeded).not.toContain(e.p);
    // A place the reader's snapshot has no pod at is refused.
    const dec = new WireDecoder();
    dec.seed(transport(seed));
    const node = Object.keys(seed.nodes)[0] ?? '';
    expect(() =>
      dec.decode({ type: 'wire', v: 2, s: 1, e: [{ k: 'pod:PodUpdated', n: node, u: 9999 }] }),
    ).toThrow(/no pod at place/);
  });

  it('is smaller than the plain events: diffs, interned ids, inputs not repeating params', () => {
    const { frames } = roundTrip(events, { sizes: [5] });
    const plain = chunks(events, [5]).map((b) => JSON.stringify(toJsonValue(b)).length);
    const lean = frames.map((f) => JSON.stringify(toJsonValue(f)).length);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(sum(lean)).toBeLessThan(sum(plain) * 0.7);
  });

  it('sends a kill and the restart after it as diffs; inputs equal to params as keys', () => {
    const id1 = 'a'.repeat(64);
    const id2 = 'b'.repeat(64);
    const { running, killed } = webStatuses(id1);
    const terminated = killed(2_000_000);
    const restarted = {
      ...running,
      restartCount: 1,
      containerID: `containerd://${id2}`,
      state: { running: { startedAt: new Date(3_000_000) } },
      lastState: terminated.state,
    };
    const base = WEB;
    const stream: TimelineEvent[] = [
      { ...base, seq: 10, t: 1, type: 'ContainerStateChanged', status: running, to: 'running' },
      {
        ...base,
        seq: 11,
        t: 2,
        type: 'ContainerStateChanged',
        status: terminated,
        from: 'running',
        to: 'terminated',
        why: {
          id: 'container.terminated.error',
          params: { exitCode: 137, reason: 'Error' },
          rule: 'pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses',
          inputs: { restartCount: 0, ready: false, exitCode: 137, reason: 'Error' },
        },
      },
      { ...base, seq: 12, t: 3, type: 'ContainerStateChanged', status: restarted, to: 'running' },
    ];
    const { back, frames } = roundTrip(stream, { sizes: [1] });
    expect(canonical(back)).toBe(canonical(stream));
    const [, kill, restart] = frames.map((f) => f.e[0] as Record<string, unknown>);
    expect(kill?.S).toBeUndefined();
    expect(Object.keys((kill?.D as { s: object }).s).sort()).toEqual(['ready', 'started', 'state']);
    expect((kill?.w as { n: unknown[] }).n).toEqual([
      ['restartCount', 0],
      ['ready', false],
      'exitCode',
      'reason',
    ]);
    // The restart: lastState is the previous state (sent as a flag), the new id goes once.
    expect(restart?.D).toMatchObject({ L: 1 });
    expect(JSON.stringify(restart)).not.toContain('lastState');
    expect(JSON.stringify(frames).split(id1).length - 1).toBe(1);
  });

  it('round-trips whatever the batch sizes, table size and snapshot point (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: events.length }),
        fc.constantFrom<WireVersion>(1, 2),
        (sizes, tableSize, cut, version) => {
          const seed = cut > 0 ? reduceAll(emptyState(), events.slice(0, cut)) : undefined;
          const rest = events.slice(cut);
          const { back } = roundTrip(rest, {
            sizes,
            tableSize,
            version,
            ...(seed ? { seed } : {}),
          });
          expect(canonical(back)).toBe(canonical(rest));
        },
      ),
      { numRuns: 120 },
    );
  });

  it('a resumed stream (no snapshot) starts over: the reset frame clears what the reader held', () => {
    const enc1 = new WireEncoder();
    const dec = new WireDecoder();
    const cut = 40;
    for (const b of chunks(events.slice(0, cut), [9])) dec.decode(transport(enc1.encode(b)));
    // The connection drops; the server resumes after the last seq with a new encoder.
    const enc2 = new WireEncoder();
    const back: TimelineEvent[] = [];
    for (const b of chunks(events.slice(cut), [4]))
      back.push(...dec.decode(transport(enc2.encode(b))));
    expect(canonical(back)).toBe(canonical(events.slice(cut)));
  });

  it('v2 sends a known container id as a flag, and a kill as a template with its times as holes', () => {
    const id1 = 'a'.repeat(64);
    const { running, killed: kill } = webStatuses(id1);
    const base = { kind: 'container', list: 'regular', name: 'web', node: 'n1' } as const;
    const stream: TimelineEvent[] = [
      { ...base, podUid: 'u1', seq: 1, t: 1, type: 'ContainerStateChanged', status: running },
      { ...base, podUid: 'u2', seq: 2, t: 2, type: 'ContainerStateChanged', status: running },
    ];
    for (const [i, pod] of ['u1', 'u2'].entries()) {
      const seq = 10 + i * 2;
      stream.push(
        {
          kind: 'cri',
          type: 'ContainerExited',
          source: 'relist',
          seq,
          t: 5_000 + seq,
          node: 'n1',
          podUid: pod,
          container: 'web',
          id: id1,
        },
        {
          ...base,
          podUid: pod,
          seq: seq + 1,
          t: 5_000 + seq,
          type: 'ContainerStateChanged',
          status: kill(2_000_000 + seq),
        },
      );
    }
    const v2 = roundTrip(stream, { sizes: [2, 1, 1, 1, 1], version: 2 });
    expect(canonical(v2.back)).toBe(canonical(stream));
    const sent = v2.frames.flatMap((f) => f.e);
    expect(sent[2]).toMatchObject({ I: 1 });
    expect(sent[2]?.i).toBeUndefined();
    // Both kills as the same template: the holes are the two times (ms before the event) and
    // the container id as "the same as before".
    expect(sent[3]?.D).toEqual({
      t: [expect.any(Object), 5_010 - 1_000_000, 5_010 - 2_000_010, []],
    });
    expect(sent[5]?.D).toEqual({
      t: [expect.any(Number), 5_012 - 1_000_000, 5_012 - 2_000_012, []],
    });
    expect(JSON.stringify(v2.frames).split(id1).length - 1).toBe(1);
    // Version 1 sends the id (interned) and the kill's fields.
    const v1 = roundTrip(stream, { sizes: [2, 1, 1, 1, 1], version: 1 });
    expect(canonical(v1.back)).toBe(canonical(stream));
    expect(v1.frames.flatMap((f) => f.e)[2]?.i).toBeDefined();
  });

  it('a container id that becomes null stays null, in either version', () => {
    const status = (containerID: string | null) =>
      ({
        name: 'web',
        restartCount: 0,
        image: 'i',
        imageID: 'j',
        ready: false,
        containerID,
      }) as never;
    const base = WEB;
    const stream: TimelineEvent[] = [
      { ...base, seq: 1, t: 1, type: 'ContainerStatusChanged', status: status('containerd://x') },
      { ...base, seq: 2, t: 2, type: 'ContainerStatusChanged', status: status(null) },
      { ...base, seq: 3, t: 3, type: 'ContainerStatusChanged', status: status('containerd://x') },
    ];
    for (const version of [1, 2] as const) {
      const { back } = roundTrip(stream, { sizes: [1], version });
      expect(canonical(back)).toBe(canonical(stream));
    }
  });

  it('v2 sends an explanation, a condition (its times as holes) or a CRI detail seen before as a slot', () => {
    const why = {
      id: 'condition.ready.containersNotReady',
      params: { reason: 'ContainersNotReady' },
      rule: 'pkg/kubelet/status/generate.go GeneratePodReadyCondition',
      inputs: { ContainersReady: 'False' },
    };
    const condition = (at: number) => ({
      type: 'Ready',
      status: 'False',
      reason: 'ContainersNotReady',
      message: 'containers with unready status: [web]',
      lastTransitionTime: new Date(at),
    });
    const detail = { state: 'exited', attempt: 0, exitCode: 137, reason: 'Error' };
    const stream: TimelineEvent[] = [];
    for (const [i, pod] of ['u1', 'u2', 'u3'].entries()) {
      const seq = 10 + i * 3;
      stream.push(
        {
          kind: 'cri',
          type: 'ContainerExited',
          source: 'relist',
          seq,
          t: seq,
          node: 'n1',
          podUid: pod,
          detail,
        },
        {
          kind: 'pod',
          type: 'PodConditionChanged',
          seq: seq + 1,
          t: seq,
          node: 'n1',
          podUid: pod,
          condition: condition(seq * 1000),
          from: 'True',
          why,
          cause: seq,
        },
        {
          kind: 'pod',
          type: 'PodUpdated',
          seq: seq + 2,
          t: seq,
          node: 'n1',
          podUid: pod,
          patch: { whyPhase: { ...why, id: 'phase.running' } },
          cause: seq,
        },
      );
    }
    for (const sizes of [[1], [2], [9]]) {
      const { back, frames } = roundTrip(stream, { sizes, version: 2 });
      expect(canonical(back)).toBe(canonical(stream));
      const sent = frames.flatMap((f) => f.e);
      // The first pod's sends them whole; the others by slot, with only the time.
      expect(typeof sent[0]?.d).toBe('object');
      expect(
        sent
          .slice(3)
          .filter((e) => e.d !== undefined)
          .every((e) => typeof e.d === 'number'),
      ).toBe(true);
      const conds = sent.filter((e) => e.K !== undefined) as { K: unknown[]; W: unknown }[];
      expect(conds.map((e) => typeof e.K[0])).toEqual(['object', 'number', 'number']);
      expect(conds.map((e) => typeof e.W)).toEqual(['object', 'number', 'number']);
      // The condition's time is the template's hole: milliseconds before the event's time.
      expect(conds[2]?.K.slice(1)).toEqual([16 - 16_000]);
      const phases = sent
        .filter((e) => e.P !== undefined)
        .map((e) => typeof (e.P as { W: unknown }).W);
      expect(phases).toEqual(['object', 'number', 'number']);
      // Each decoded copy is its own object.
      expect(
        back[4]?.kind === 'pod' && back[7]?.kind === 'pod' && back[4].why !== back[7].why,
      ).toBe(true);
    }
    // Version 1 (the bus, readers of before) sends none of them.
    const v1 = roundTrip(stream, { sizes: [9], version: 1 });
    expect(canonical(v1.back)).toBe(canonical(stream));
    expect(v1.frames.every((f) => f.v === 1)).toBe(true);
    for (const e of v1.frames.flatMap((f) => f.e))
      for (const k of ['W', 'K', 'd', 'I', 'R']) expect(e[k]).toBeUndefined();
  });

  it('v2 sends an explanation that is not plain data as itself, not interned', () => {
    // Not what the types allow (params are JSON values), but what the encoder must not intern.
    const why = { id: 'x', params: { at: new Date(5_000) } } as unknown as Explanation;
    const stream: TimelineEvent[] = [1, 2].map((seq) => ({
      kind: 'pod',
      type: 'PodPhaseChanged',
      seq,
      t: seq,
      node: 'n1',
      podUid: 'u1',
      phase: 'Running',
      why,
    }));
    const { back, frames } = roundTrip(stream, { sizes: [1], version: 2 });
    expect(canonical(back)).toBe(canonical(stream));
    expect(frames.every((f) => f.e[0]?.W === undefined && typeof f.e[0]?.w === 'object')).toBe(
      true,
    );
  });

  it('refuses a value slot that holds no value, and a template without its holes', () => {
    const base = { k: 'pod:PodConditionChanged', n: 'a', p: 'u' };
    const frame = (e: Record<string, unknown>[]) => ({ type: 'wire', v: 2, s: 1, e });
    // Slot 0 holds the string "pod:PodConditionChanged", not a value.
    expect(() => new WireDecoder().decode(frame([{ ...base, W: 0 }]))).toThrow(/value slot/);
    expect(() => new WireDecoder().decode(frame([{ ...base, K: [7] }]))).toThrow(/value slot/);
    const ready = { type: 'Ready', lastTransitionTime: 0 };
    const one = (K: unknown[]) => () => new WireDecoder().decode(frame([{ ...base, K }]));
    expect(one([ready])).toThrow(/fewer holes/);
    expect(one([ready, 1, 2])).toThrow(/more holes/);
    expect(one([ready, 'x'])).toThrow(/bad time/);
    expect(() =>
      new WireDecoder().decode(frame([{ ...base, w: { i: 'x' }, W: { i: 'x' } }])),
    ).toThrow(/given twice/);
  });

  it('v2 sends a node usage as figures beside interned pod templates, pods by place (property)', () => {
    const seed = reduceAll(emptyState(), events.slice(0, Math.floor(events.length / 2)));
    const [node, view] = Object.entries(seed.nodes)[0] ?? ['', undefined];
    const seeded = Object.keys(view?.pods ?? {});
    expect(seeded.length).toBeGreaterThan(0);
    const figures = fc.record(
      { cpuCores: fc.double(), memoryBytes: fc.nat() },
      { requiredKeys: ['memoryBytes'] },
    );
    // Half the pods as computeUsage makes them: the pod's figures the sum of its containers'.
    const podUsage = fc
      .tuple(
        fc.record({
          cpuCores: fc.double(),
          memoryBytes: fc.nat(),
          containers: fc.dictionary(fc.constantFrom('app', 'proxy', 'log-shipper'), figures),
        }),
        fc.boolean(),
      )
      .map(([pod, summed]) => {
        if (!summed) return pod;
        const sum = (k: 'cpuCores' | 'memoryBytes') =>
          Object.values(pod.containers).reduce<number | undefined>(
            (a, c) => (c[k] === undefined ? a : (a ?? 0) + c[k]),
            undefined,
          );
        const { cpuCores: _c, memoryBytes: _m, ...rest } = pod;
        const cpu = sum('cpuCores');
        const mem = sum('memoryBytes');
        return {
          ...rest,
          ...(cpu !== undefined ? { cpuCores: cpu } : {}),
          ...(mem !== undefined ? { memoryBytes: mem } : {}),
        };
      });
    const uid = fc.constantFrom(...seeded, 'elsewhere', '__proto__', 'constructor');
    const usage = fc.record({
      at: fc.integer({ min: 0, max: 2 ** 45 }),
      pods: fc.dictionary(uid, podUsage, { maxKeys: 6 }),
    });
    fc.assert(
      fc.property(fc.array(usage, { minLength: 1, maxLength: 5 }), (usages) => {
        const stream = usages.map((u, i): TimelineEvent => ({
          kind: 'node',
          type: 'NodeUpdated',
          seq: seed.seq + 1 + i,
          t: 1_000_000 + i,
          node,
          usage: u,
        }));
        const { back, frames } = roundTrip(stream, { seed, version: 2, sizes: [1, 2] });
        expect(canonical(back)).toBe(canonical(stream));
        const sent = frames.flatMap((f) => f.e);
        expect(sent.every((e) => e.G !== undefined && e.usage === undefined)).toBe(true);
        for (const e of sent)
          for (const pod of (e.G as unknown[]).slice(1) as unknown[][])
            expect(typeof pod[0] === 'number' || !seeded.includes(pod[0] as string)).toBe(true);
      }),
      { numRuns: 80 },
    );
    // Pods of the same containers share one template: the second pod's goes as a slot. A pod's
    // figures that are its containers' sum go as "+" (recomputed), others as themselves.
    const pod = (cpu: number, mem: number, podMem = mem) => ({
      cpuCores: cpu,
      memoryBytes: podMem,
      containers: { app: { cpuCores: cpu, memoryBytes: mem } },
    });
    const two: TimelineEvent = {
      kind: 'node',
      type: 'NodeUpdated',
      seq: seed.seq + 1,
      t: 5,
      node,
      usage: { at: 5, pods: { a: pod(0.25, 1), b: pod(0.5, 3), c: pod(0.5, 3, 4) } },
    };
    const once = roundTrip([two], { seed, version: 2 });
    expect(canonical(once.back)).toBe(canonical([two]));
    const G = once.frames[0]?.e[0]?.G as unknown[][];
    expect(G[0]).toBe(0);
    const summed = {
      cpuCores: '+',
      memoryBytes: '+',
      containers: { app: { cpuCores: 0, memoryBytes: 0 } },
    };
    // A fraction goes as the base64 of its 8 bytes (11 characters), an integer as itself.
    const f = (n: number) => {
      const b = Buffer.alloc(8);
      b.writeDoubleBE(n);
      return b.toString('base64').slice(0, 11);
    };
    expect(G[1]).toEqual(['a', summed, f(0.25), 1]);
    expect(G[2]).toEqual(['b', expect.any(Number), f(0.5), 3]);
    expect(G[3]).toEqual(['c', { ...summed, memoryBytes: 0 }, 4, f(0.5), 3]);
    const bad = (G: unknown[]) => () =>
      new WireDecoder().decode({
        type: 'wire',
        v: 2,
        s: 1,
        e: [{ k: 'node:NodeUpdated', n: 'x', G }],
      });
    expect(bad([0, ['a', { m: 0 }]])).toThrow(/fewer figures/);
    expect(bad([0, ['a', { m: 0 }, 1, 2]])).toThrow(/more figures/);
    expect(bad([0, [3, { m: 0 }, 1]])).toThrow(/no pod at place/);
    expect(bad([0, ['a', { m: 0 }, 'not a figure']])).toThrow(/bad figure/);
  });

  it('refuses frames it cannot follow with a WireError', () => {
    const dec = new WireDecoder();
    expect(() => dec.decode({ type: 'events', events: [] })).toThrow(WireError);
    expect(() => dec.decode({ type: 'wire', v: 3, s: 1, e: [] })).toThrow(/version/);
    expect(() => dec.decode({ type: 'wire', v: 1, s: 1, e: [{ k: 5 }] })).toThrow(/known slot/);
    expect(() => dec.decode({ type: 'wire', v: 1, s: 1, e: ['x'] })).toThrow(/not an object/);
    expect(() =>
      dec.decode({ type: 'wire', v: 1, s: 1, e: [{ k: 'container:ContainerStateChanged' }] }),
    ).toThrow(/no node/);
    expect(() =>
      dec.decode({
        type: 'wire',
        v: 1,
        s: 1,
        e: [
          {
            k: 'container:ContainerStateChanged',
            n: 'a',
            p: 'u',
            N: 'c',
            l: 'regular',
            D: { s: { ready: true } },
          },
        ],
      }),
    ).toThrow(/never sent/);
    expect(() =>
      dec.decode({ type: 'wire', v: 1, s: 1, e: [{ k: 'cri:RelistFailed', n: 'a', z: 1 }] }),
    ).toThrow(/unknown field/);
  });

  it('refuses a passed-through field that would replace a checked one or reach the prototype', () => {
    const frame = (extra: string) =>
      JSON.parse(
        `{"type":"wire","v":1,"s":1,"e":[{"k":"cri:RelistFailed","n":"a","q":7,${extra}}]}`,
      ) as unknown;
    // A long key is an encoder's pass-through; it may not overwrite the seq read from `q` …
    expect(() => new WireDecoder().decode(frame('"seq":"not a number"'))).toThrow(/given twice/);
    expect(() => new WireDecoder().decode(frame('"node":"b"'))).toThrow(/given twice/);
    // … nor, as JSON.parse makes it an own key, set the decoded event's prototype.
    expect(() => new WireDecoder().decode(frame('"__proto__":{"polluted":true}'))).toThrow(
      /not allowed/,
    );
    expect(() => new WireDecoder().decode(frame('"w":{"i":"x","__proto__":{}}'))).toThrow(
      /not allowed/,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // An ordinary pass-through field still arrives.
    const [e] = new WireDecoder().decode(frame('"message":"deadline exceeded"'));
    expect((e as unknown as Record<string, unknown>).message).toBe('deadline exceeded');
  });

  it('interns a string and a value with the same text apart (v2): each comes back as itself', () => {
    const detail = { reason: 'x' };
    const text = JSON.stringify(detail);
    const events: TimelineEvent[] = [1, 2, 3, 4].map((i) => ({
      kind: 'cri',
      type: 'ContainerStarted',
      source: 'relist',
      seq: i,
      t: 1_000 + i,
      node: 'n',
      podUid: text,
      container: i % 2 ? text : 'app',
      id: `c-${i}`,
      detail,
    }));
    for (const tableSize of [2, 3, 8_192]) {
      const { back, frames } = roundTrip(events, { version: 2, tableSize, sizes: [1, 3] });
      expect(canonical(back)).toBe(canonical(events));
      if (tableSize === 8_192) expect(JSON.stringify(frames[1])).not.toContain('reason');
    }
  });
});

describe('copyData', () => {
  const cases: [string, unknown][] = [
    ['primitives', [1, 'a', true, null, 0.5, -0]],
    ['nested data', { a: { b: [1, { c: 'd' }], e: null }, f: [] }],
    [
      'dates the transport revived',
      { startedAt: new Date('2026-12-03T12:00:00Z'), at: [new Date(0)] },
    ],
    ['an own "__proto__" field, as JSON.parse makes it', JSON.parse('{"__proto__":{"x":1},"y":2}')],
    ['a null-prototype object', Object.assign(Object.create(null) as object, { a: 1 })],
  ];
  it.each(cases)('copies %s as structuredClone does', (_what, value) => {
    const copy = copyData(value);
    expect(copy).toStrictEqual(structuredClone(value));
    if (typeof value === 'object' && value !== null) expect(copy).not.toBe(value);
  });

  it('shares nothing with what it copied', () => {
    const value = { a: { b: [1, 2] }, t: new Date(5) };
    const copy = copyData(value) as typeof value;
    copy.a.b.push(3);
    copy.t.setTime(6);
    expect(value).toEqual({ a: { b: [1, 2] }, t: new Date(5) });
  });

  it('keeps the "__proto__" field a field, not the prototype', () => {
    const copy = copyData(JSON.parse('{"__proto__":{"polluted":true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('hands anything else to structuredClone', () => {
    const value = { m: new Map([[1, 'a']]) };
    expect(copyData(value)).toStrictEqual(structuredClone(value));
  });
});
