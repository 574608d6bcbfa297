/**
 * Size and count limits where input enters, each proved at its edge with arbitrary input: the
 * input is either within the limits and served, or refused with a clear BAD_REQUEST / ConfigError
 * — never another exception, never served past a limit.
 *
 *   cluster.watch lastEventId     digits only, at most 15 (also as the SSE Last-Event-ID header)
 *   timeline.range                limit 1–50,000 (default 10,000), and PODSCOPE_RANGE_MAX_BYTES per
 *                                 page; from/to 0–8.64e15, from ≤ to;
 *                                 afterSeq ≥ 0; nodes ≤ 1,000 names of 1–253 characters
 *   timeline.stateAt              t 0–8.64e15
 *   nodes.connect                 test/faults/security.int.test.ts
 *   configuration                 server/config.ts (port 0–65535, token ≥ 16, sim.nodes ≤ 1,000 …)
 */
import { TRPCError } from '@trpc/server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnsequencedEvent } from '@/lib/timeline/events';
import { ConfigError, isLoopback, loadConfig } from '@/server/config';
import { Engine } from '@/server/engine/engine';
import type { RuntimeClient } from '@/server/engine/relist/runtime-client';
import { engineStore } from '@/server/engine/store-adapter';
import { openStore, type TimelineStore } from '@/server/timeline-db';
import { createCaller } from '@/server/trpc/root';
import { testContext } from '@/server/trpc/testing/context';
import { serve, SseConnection } from '../faults/sse';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';

let store: TimelineStore;
let engine: Engine;
let caller: ReturnType<typeof createCaller>;
let server: Awaited<ReturnType<typeof serve>>;

beforeAll(async () => {
  store = openStore({ path: ':memory:' });
  engine = new Engine({
    store: engineStore(store),
    timings: DEFAULT_ENGINE_TIMINGS,
    dial: () => ({}) as RuntimeClient,
    log: () => undefined,
  });
  const batch: UnsequencedEvent[] = [];
  for (let i = 0; i < 120; i++)
    batch.push({
      kind: 'cri',
      type: 'RelistFailed',
      source: 'relist',
      node: `n${i % 3}`,
      t: 1_000 + i,
      detail: { i },
    });
  engine.record(batch);
  caller = createCaller(testContext({ engine }));
  server = await serve(engine);
});
afterAll(async () => {
  await server.close();
  await engine.stop();
  store.close();
});

async function outcome<T>(
  p: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; code: string }> {
  try {
    return { ok: true, value: await p };
  } catch (err) {
    if (err instanceof TRPCError) return { ok: false, code: err.code };
    throw err; // anything else fails the property
  }
}

describe('cluster.watch lastEventId', () => {
  it('only sequence numbers of at most 15 digits are taken; anything else is BAD_REQUEST', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 20 }),
          fc.stringMatching(/^\d{1,20}$/),
          fc.constantFrom('-1', '1e3', ' 5', '0x10', '５'),
        ),
        async (id) => {
          const ac = new AbortController();
          // Resuming at the head (seq 120) is caught up: nothing comes until something happens,
          // so the stream is ended after a while rather than awaited for ever.
          const caughtUp = setTimeout(() => ac.abort(), 1_000);
          const c = createCaller(testContext({ engine }), { signal: ac.signal });
          const r = await outcome(
            c.cluster
              .watch({ lastEventId: id })
              .then(async (it) => (await it[Symbol.asyncIterator]().next()).value),
          );
          clearTimeout(caughtUp);
          ac.abort();
          if (!/^\d{1,15}$/.test(id)) expect(r).toEqual({ ok: false, code: 'BAD_REQUEST' });
          else if (Number(id) === 120) expect(r).toEqual({ ok: true, value: undefined });
          else expect(r).toMatchObject({ ok: true, value: expect.anything() });
        },
      ),
      { numRuns: 200, examples: [['120'], ['0120'], ['119'], ['121']] },
    );
  });

  it('a garbage Last-Event-ID header gets a clear refusal over HTTP, and the server serves on', async () => {
    for (const header of ['abc', '1'.repeat(16), '-5', '12; drop']) {
      const c = await SseConnection.open(`${server.url}/cluster.watch`, header);
      let text = '';
      for (let f = await c.next(); f; f = await c.next())
        text += `${f.event ?? ''} ${f.data ?? ''}\n`;
      c.close();
      expect(c.status === 400 || text.includes('BAD_REQUEST')).toBe(true);
      expect(text).toContain('lastEventId must be a sequence number');
    }
    const good = await SseConnection.open(`${server.url}/cluster.watch`, '100');
    let first = await good.next();
    while (first && first.id === undefined) first = await good.next();
    good.close();
    expect(first?.id).toBe('120');
  });
});

describe('timeline queries', () => {
  const time = fc.oneof(
    fc.integer({ min: -10, max: 2_000 }),
    fc.constantFrom(8.64e15, 8.64e15 + 1, -1, 0.5),
  );
  it('range: within the limits it answers (never more than asked), outside it is BAD_REQUEST', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            from: time,
            to: time,
            afterSeq: fc.oneof(fc.integer({ min: -5, max: 200 }), fc.constant(1.5)),
            limit: fc.oneof(
              fc.integer({ min: -1, max: 60 }),
              fc.constantFrom(50_000, 50_001, 0, 2.5),
            ),
            nodes: fc.oneof(
              fc.array(fc.constantFrom('n0', 'n1', '', 'x'.repeat(254)), { maxLength: 3 }),
              fc.constant(Array.from({ length: 1_001 }, (_, i) => `n${i}`)),
            ),
          },
          { requiredKeys: [] },
        ),
        async (q) => {
          const valid =
            (q.from === undefined || (q.from >= 0 && q.from <= 8.64e15)) &&
            (q.to === undefined || (q.to >= 0 && q.to <= 8.64e15)) &&
            (q.from === undefined || q.to === undefined || q.from <= q.to) &&
            (q.afterSeq === undefined || (Number.isInteger(q.afterSeq) && q.afterSeq >= 0)) &&
            (q.limit === undefined ||
              (Number.isInteger(q.limit) && q.limit >= 1 && q.limit <= 50_000)) &&
            (q.nodes === undefined ||
              (q.nodes.length <= 1_000 && q.nodes.every((n) => n.length >= 1 && n.length <= 253)));
          const r = await outcome(caller.timeline.range(q));
          if (!valid) {
            expect(r).toEqual({ ok: false, code: 'BAD_REQUEST' });
          } else {
            expect(r.ok).toBe(true);
            if (r.ok) expect(r.value.events.length).toBeLessThanOrEqual(q.limit ?? 10_000);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stateAt: t within 0–8.64e15, else BAD_REQUEST', async () => {
    await fc.assert(
      fc.asyncProperty(time, async (t) => {
        const r = await outcome(caller.timeline.stateAt({ t }));
        if (t >= 0 && t <= 8.64e15) expect(r.ok).toBe(true);
        else expect(r).toEqual({ ok: false, code: 'BAD_REQUEST' });
      }),
      { numRuns: 100 },
    );
  });
});

describe('configuration from the environment', () => {
  const value = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom(
      '0',
      '-1',
      '65536',
      '1001',
      '1e3',
      'NaN',
      '0.0.0.0',
      '127.0.0.2',
      '::1',
      'a-long-enough-s3cret',
    ),
  );
  const env = fc.record(
    {
      PODSCOPE_HOST: value,
      PODSCOPE_PORT: value,
      // Tokens carry a canary so an error message that repeats one is caught.
      PODSCOPE_TOKEN: fc.oneof(
        value,
        fc.string({ maxLength: 20 }).map((t) => `CANARY${t}`),
      ),
      PODSCOPE_SIM_NODES: value,
      PODSCOPE_SIM_SPEED: value,
      PODSCOPE_RELIST_MS: value,
      PODSCOPE_CRI: fc.oneof(
        value,
        fc.constantFrom('unix:///run/a.sock', 'a=tcp://127.0.0.1:1,a=/run/b.sock', 'x=ftp://h'),
      ),
      PODSCOPE_TOLERATION_SECONDS: value,
    },
    { requiredKeys: [] },
  );

  it('any environment gives a valid configuration or a ConfigError — and never a wide bind without a token', () => {
    fc.assert(
      fc.property(env, (e) => {
        let config;
        try {
          config = loadConfig(e);
        } catch (err) {
          expect(err).toBeInstanceOf(ConfigError);
          expect((err as Error).message).not.toContain('CANARY');
          return;
        }
        expect(config.port).toBeGreaterThanOrEqual(0);
        expect(config.port).toBeLessThanOrEqual(65_535);
        expect(config.sim.nodes).toBeLessThanOrEqual(1_000);
        expect(config.periods.relistMs).toBeGreaterThan(0);
        if (!isLoopback(config.host))
          expect((config.token ?? '').length).toBeGreaterThanOrEqual(16);
      }),
      { numRuns: 500 },
    );
  });
});
