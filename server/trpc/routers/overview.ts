import { tracked, type TrackedEnvelope } from '@trpc/server';
import { z } from 'zod';
import { quoteValue } from '@/lib/overview/query';
import {
  OVERVIEW_TICK_MS,
  type OverviewDelta,
  type OverviewMessage,
  type SearchResult,
} from '@/lib/overview/wire';
import type { EngineApi } from '@/server/engine/api';
import { OverviewIndex, type NamespacePredicate } from '@/server/overview/index';
import { OverviewWatcher } from '@/server/overview/watcher';
import type { Viewer } from '@/server/security/viewer';
import { readProcedure, router } from '../init';
import { awaitedAhead } from '../prefetch';
import { lastEventId, nodeList, watchStream, type WatchMessage } from './cluster';

/**
 * The overview of a cluster of any size (docs/overview.md): search answered from the server's
 * index, and one multiplexed stream per tab — the overview's cells and counts, and the detail of
 * the nodes the view shows (lib/overview/wire.ts, OverviewWatchInput, has the contract).
 */
export type OverviewWatchMessage = OverviewMessage | OverviewDelta | WatchMessage;

/** Longer than any query the parser accepts: a longer one answers with its error, not a 400. */
const query = z.string().max(100_000);
const cursor = z.string().max(2_000).optional();

/**
 * The namespaces a viewer may read, as a predicate the index's rows are filtered by (undefined:
 * everything). `update` asks about namespaces that appeared since (a pod in a new namespace is
 * hidden until the answer, never guessed).
 */
async function access(viewer: Viewer, index: OverviewIndex) {
  if (await viewer.seesAll()) return { canRead: undefined, update: () => Promise.resolve() };
  let asked = 0;
  let pred: NamespacePredicate = () => false;
  const update = async () => {
    if (index.namespaces.size === asked) return;
    asked = index.namespaces.size;
    pred = await viewer.readable(index.namespaces);
  };
  await update();
  const canRead: NamespacePredicate = (ns) => pred(ns);
  return { canRead, update };
}

async function answer(
  engine: EngineApi,
  viewer: Viewer,
  q: string,
  after: string | undefined,
): Promise<SearchResult> {
  const index = OverviewIndex.of(engine);
  const { canRead } = await access(viewer, index);
  return index.search(q, { cursor: after, ...(canRead ? { canRead } : {}) });
}

export const overviewRouter = router({
  /** One page of the pods (or nodes) a query selects, worst first; `next` is the next page's cursor. */
  search: readProcedure
    .input(z.object({ q: query, cursor }))
    .query(({ ctx, input }) => answer(ctx.engine, ctx.viewer, input.q, input.cursor)),

  /** A change group's members, a page at a time (its `query`, `change:ID`). */
  members: readProcedure
    .input(z.object({ changeId: z.string().min(1).max(200), cursor }))
    .query(({ ctx, input }) =>
      answer(ctx.engine, ctx.viewer, `change:${quoteValue(input.changeId)}`, input.cursor),
    ),

  /**
   * The overview, then its deltas at most every OVERVIEW_TICK_MS, interleaved with the detail of
   * `nodes` (cluster.watch's messages for those nodes). Tracked by the detail's last seq ("0"
   * before any detail went); a resume re-sends the overview and backfills the detail.
   */
  watch: readProcedure
    .input(
      z
        .object({
          nodes: nodeList.optional(),
          group: z.string().max(253).optional(),
          lastEventId,
          wire: z.union([z.literal(1), z.literal(2)]).optional(),
          held: nodeList.optional(),
        })
        .optional(),
    )
    .subscription(({ ctx, input, signal }) =>
      awaitedAhead(overviewStream(ctx.engine, ctx.viewer, input ?? {}, signal)),
    ),
});

const TICK: unique symbol = Symbol('tick');

const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<typeof TICK>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve(TICK);
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

interface OverviewWatchInput {
  nodes?: string[] | undefined;
  group?: string | undefined;
  lastEventId?: string | null | undefined;
  wire?: 1 | 2 | undefined;
  held?: string[] | undefined;
}

/** overview.watch's stream (see there). */
export async function* overviewStream(
  source: EngineApi,
  viewer: Viewer,
  input: OverviewWatchInput,
  signal: AbortSignal | undefined,
): AsyncGenerator<TrackedEnvelope<OverviewWatchMessage>> {
  const index = OverviewIndex.of(source);
  const { canRead, update } = await access(viewer, index);
  const watcher = new OverviewWatcher(index, canRead, input.group);
  const nodes = [...new Set(input.nodes ?? [])];
  const resumeFrom = input.lastEventId && input.lastEventId !== '0' ? input.lastEventId : undefined;
  let id = nodes.length === 0 ? String(index.seq) : (resumeFrom ?? '0');
  const first: OverviewWatchMessage = watcher.first();
  yield tracked(id, first);
  const detail =
    nodes.length > 0
      ? watchStream(
          source,
          viewer,
          { lastEventId: resumeFrom, wire: input.wire, nodes, held: input.held },
          signal,
        )
      : undefined;
  try {
    let pending = detail?.next();
    let tick = sleep(OVERVIEW_TICK_MS, signal);
    for (;;) {
      const got = await (pending ? Promise.race([pending, tick]) : tick);
      if (signal?.aborted) break;
      if (got === TICK) {
        tick = sleep(OVERVIEW_TICK_MS, signal);
        await update();
        const delta = watcher.delta();
        if (!delta) continue;
        // Without detail the id is the overview's own seq (a resume re-sends the overview anyway).
        if (!detail) id = String(index.seq);
        yield tracked(id, delta satisfies OverviewWatchMessage as OverviewWatchMessage);
        continue;
      }
      if (got.done) break;
      const [seq, message] = got.value;
      id = String(seq);
      yield tracked(id, message satisfies OverviewWatchMessage as OverviewWatchMessage);
      pending = detail?.next();
    }
  } finally {
    // Not awaited: a next() may still be pending on it; the aborted signal ends it.
    detail?.return(undefined).catch(() => undefined);
  }
}
