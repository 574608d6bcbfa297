/**
 * event_to_dom_ms_p50 / _p95 and event_to_dom_poll_ms_p50: from a container's state change in the
 * simulator to the console's DOM showing it.
 *
 * The real server (`next start`) watches two simulated nodes of 4 pods × 3 containers in the
 * simulator process: one answers GetContainerEvents (the engine relists on each event), the
 * other answers UNIMPLEMENTED like containerd 1.6 (the engine polls every second). Chromium shows
 * the live console at /en; every container is drawn with its `data-id` / `data-state`.
 *
 * Each sample: the page arms a MutationObserver for one container's pill; the simulator changes
 * that container (kills a running one, or starts the next attempt of an exited one) and notes
 * the wall-clock time; the page notes the wall-clock time at which the pill's data-state shows
 * the new state. Both clocks are this machine's. Samples are spaced by random pauses so the
 * polling path sees every phase of its relist period.
 */
import type { Page } from '@playwright/test';
import { benchPage, launchChromium } from '../lib/browser';
import { ConsoleServer } from '../lib/server';
import { SimProcess } from '../lib/sim-process';
import { WireDecoder } from '@/lib/timeline/wire';
import { SseReader, watchFrame, watchUrl } from '../lib/sse';
import { median, quantile, round, sleep, seededSleep } from '../lib/stats';

export interface LatencyOptions {
  /** The built console to serve (snapshotBuild()). */
  appDir?: string | undefined;
  samples?: number;
  log?: (line: string) => void;
}

export interface LatencyResult {
  event_to_dom_ms_p50: number;
  event_to_dom_ms_p95: number;
  event_to_dom_poll_ms_p50: number;
  details: {
    samples: number;
    events_ms: number[];
    poll_ms: number[];
    poll_ms_p95: number;
    missed: number;
    /** Medians of where the time went: change → the engine's event time (`t`), → the SSE frame at a Node client, → DOM. */
    breakdown: Record<
      'events' | 'poll',
      { to_engine_ms: number; to_sse_ms: number; sse_to_dom_ms: number }
    >;
  };
}

const PODS = 4;
const CONTAINERS = 3;

export async function benchLatency(options: LatencyOptions = {}): Promise<LatencyResult> {
  const samples = options.samples ?? 21;
  const log = options.log ?? (() => undefined);
  const sim = await SimProcess.start();
  let server: ConsoleServer | undefined;
  let reader: SseReader | undefined;
  const browser = await launchChromium();
  try {
    await sim.grow(1, { pods: PODS, containers: CONTAINERS, eventsMode: 'stream' });
    const list = await sim.grow(2, {
      pods: PODS,
      containers: CONTAINERS,
      eventsMode: 'unimplemented',
    });
    server = await ConsoleServer.start({
      ...(options.appDir ? { appDir: options.appDir } : {}),
      env: { PODSCOPE_CRI: list.map((n) => `${n.name}=${n.endpoint}`).join(',') },
    });
    const page = await benchPage(browser);
    await page.goto(`${server.url}/en`);
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll('[data-layer="container"][data-state="running"]').length >= n,
      list.length * PODS * CONTAINERS,
      { timeout: 120_000 },
    );
    // A second subscriber in this process marks when each change reached the wire.
    reader = new SseReader(watchUrl(server.url));
    const decoder = new WireDecoder();
    await reader.open();
    const watch = reader;
    await sleep(2_000);
    let missed = 0;
    const parts: Record<'events' | 'poll', { engine: number[]; sse: number[]; dom: number[] }> = {
      events: { engine: [], sse: [], dom: [] },
      poll: { engine: [], sse: [], dom: [] },
    };
    const run = async (node: string, mode: 'events' | 'poll'): Promise<number[]> => {
      const out: number[] = [];
      const pause = seededSleep(node === 'bench-001' ? 7 : 11);
      for (let i = 0; i < samples; i++) {
        const slot = i % (PODS * CONTAINERS);
        // Frames before this sample are read through, not dropped: the wire decoder follows
        // the whole stream (a status diff names a container an earlier frame sent).
        for (const f of watch.take()) watchFrame(f, decoder);
        const s = await sample(page, sim, node, slot);
        if (s === undefined) {
          missed++;
        } else {
          out.push(s.seen - s.changed);
          const hit = findTransition(watch, decoder, s.id, s.want);
          if (hit) {
            parts[mode].engine.push(hit.t - s.changed);
            parts[mode].sse.push(hit.at - s.changed);
            parts[mode].dom.push(s.seen - hit.at);
          }
        }
        await pause(200, 900);
      }
      return out;
    };
    const eventsMs = await run('bench-001', 'events');
    log(`  events: p50 ${median(eventsMs)} ms`);
    const pollMs = await run('bench-002', 'poll');
    log(`  polling: p50 ${median(pollMs)} ms`);
    await page.close();
    return {
      event_to_dom_ms_p50: round(median(eventsMs), 0),
      event_to_dom_ms_p95: round(quantile(eventsMs, 0.95), 0),
      event_to_dom_poll_ms_p50: round(median(pollMs), 0),
      details: {
        samples,
        events_ms: eventsMs,
        poll_ms: pollMs,
        poll_ms_p95: round(quantile(pollMs, 0.95), 0),
        missed,
        breakdown: {
          events: {
            to_engine_ms: median(parts.events.engine),
            to_sse_ms: median(parts.events.sse),
            sse_to_dom_ms: median(parts.events.dom),
          },
          poll: {
            to_engine_ms: median(parts.poll.engine),
            to_sse_ms: median(parts.poll.sse),
            sse_to_dom_ms: median(parts.poll.dom),
          },
        },
      },
    };
  } finally {
    reader?.close();
    await browser.close();
    await server?.stop();
    await sim.stop();
  }
}

/** The first container transition of `id` to the wanted side that the Node subscriber saw. */
function findTransition(
  reader: SseReader,
  decoder: WireDecoder,
  id: string,
  want: 'running' | 'not-running',
): { t: number; at: number } | undefined {
  // Every frame is decoded, in order: the wire decoder follows the whole stream.
  const frames = reader.take().map((f) => ({ f, events: watchFrame(f, decoder).events }));
  for (const { f, events } of frames) {
    for (const e of events) {
      if (
        e.kind !== 'container' ||
        e.type !== 'ContainerStateChanged' ||
        `${e.podUid}/${e.name}` !== id
      )
        continue;
      if ((e.to === 'running') === (want === 'running')) return { t: e.t, at: f.at };
    }
  }
  return undefined;
}

interface Sample {
  id: string;
  want: 'running' | 'not-running';
  changed: number;
  seen: number;
}

/** One change → DOM measurement; undefined when the DOM did not show it within 10 s. */
async function sample(
  page: Page,
  sim: SimProcess,
  node: string,
  slot: number,
): Promise<Sample | undefined> {
  const before = await sim.slot(node, slot);
  const id = `${before.podUid}/${before.container}`;
  const want: Sample['want'] = before.state === 'CONTAINER_RUNNING' ? 'not-running' : 'running';
  await page.evaluate(
    ({ id, want }) => {
      const w = window as unknown as { __seen?: number };
      delete w.__seen;
      const shows = () => {
        const el = document.querySelector(`[data-layer="container"][data-id="${CSS.escape(id)}"]`);
        const state = el?.getAttribute('data-state');
        return want === 'running'
          ? state === 'running'
          : state !== undefined && state !== null && state !== 'running';
      };
      const mo = new MutationObserver(() => {
        if (w.__seen === undefined && shows()) {
          w.__seen = Date.now();
          mo.disconnect();
        }
      });
      mo.observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-state'],
      });
      setTimeout(() => mo.disconnect(), 10_000);
    },
    { id, want },
  );
  const flipped = await sim.flip(node, slot);
  try {
    await page.waitForFunction(
      () => (window as unknown as { __seen?: number }).__seen !== undefined,
      undefined,
      { timeout: 10_000, polling: 50 },
    );
  } catch {
    return undefined;
  }
  const seen = await page.evaluate(() => (window as unknown as { __seen?: number }).__seen ?? 0);
  // Let the Node subscriber's frame arrive too (it is read after the DOM check).
  await sleep(50);
  return { id, want, changed: flipped.t, seen };
}
