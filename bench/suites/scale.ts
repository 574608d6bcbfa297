/**
 * snapshot_bytes_10k_pods, stream_bytes_per_transition and ui_frame_ms_p95_10k_pods, on one
 * live console: the real server (`next start`) watching 91 simulated nodes × 110 pods = 10,010
 * pods (30,030 containers) in the simulator process, which then changes 1 % of the containers
 * every second (300/s, spread over the nodes; half are kills, half the restarts that follow).
 *
 * - snapshot: the first message of cluster.watch (the whole state), bytes as sent (compressed
 *   when the server compresses; the request offers what Chromium offers).
 * - stream: every byte of cluster.watch on the wire after the snapshot over the window (events,
 *   ids, pings), divided by the container state transitions it carried (ContainerStateChanged).
 * - ui frame: Chromium on /en (the live console; 10k pods draw on the canvas scene), panning
 *   with the mouse while the churn goes on; the p95 of requestAnimationFrame intervals, median
 *   over `reps` pans. With `profile`, a Chromium CPU profile of one pan is written beside the
 *   results for the explanation of a miss.
 */
import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { benchPage, launchChromium } from '../lib/browser';
import { ConsoleServer } from '../lib/server';
import { SimProcess } from '../lib/sim-process';
import { WireDecoder } from '@/lib/timeline/wire';
import { SseReader, watchFrame, watchUrl } from '../lib/sse';
import { median, quantile, round, sleep, waitFor } from '../lib/stats';

/**
 * Below this share of the asked churn seen on the stream, its bytes are not a wire figure. A
 * quiet run sees ~40 % (the simulator's 91 nodes do not make 300 changes/s; 2026-12-02: 2,440 of
 * 6,000), a starved one under 1 %.
 */
const MIN_DELIVERED_SHARE = 0.2;

export interface ScaleOptions {
  /** The built console to serve (snapshotBuild()). */
  appDir?: string | undefined;
  nodes?: number;
  pods?: number;
  containers?: number;
  /** Share of containers changed per second (default 1 %). */
  churnPerS?: number;
  streamWindowS?: number;
  reps?: number;
  profilePath?: string;
  log?: (line: string) => void;
}

export interface ScaleResult {
  snapshot_bytes_10k_pods: number;
  stream_bytes_per_transition: number;
  ui_frame_ms_p95_10k_pods: number;
  details: {
    pods: number;
    containers: number;
    churn_per_s: number;
    snapshot_ms: number;
    snapshot_decoded_bytes: number;
    /** The Content-Encoding the server chose for the stream. */
    encoding: string;
    stream: {
      window_s: number;
      /** Container changes the simulator was asked for in the window, and the share seen. */
      asked_transitions: number;
      delivered_share: number;
      /** On the wire, as sent. */
      bytes: number;
      /** After decompression (what EventSource parses). */
      decoded_bytes: number;
      decoded_bytes_per_transition: number;
      frames: number;
      events: number;
      transitions: number;
      events_per_transition: number;
      events_by_kind: Record<string, number>;
    };
    ui: {
      reps: number;
      p95_per_rep: number[];
      p50_ms: number;
      frames: number;
      first_draw_ms: number;
      long_frames_over_50ms: number;
    };
    browser_stream_encoding: { accept: string; content: string };
    server_rss_mb: number;
    server_cpu_pct_during_ui: number;
  };
}

export async function benchScale(options: ScaleOptions = {}): Promise<ScaleResult> {
  const nodes = options.nodes ?? 91;
  const pods = options.pods ?? 110;
  const containers = options.containers ?? 3;
  const totalContainers = nodes * pods * containers;
  const churnPerS = Math.round((options.churnPerS ?? 0.01) * totalContainers);
  const windowS = options.streamWindowS ?? 20;
  const reps = options.reps ?? 5;
  const log = options.log ?? (() => undefined);

  const sim = await SimProcess.start();
  let server: ConsoleServer | undefined;
  let reader: SseReader | undefined;
  const browser = await launchChromium();
  try {
    log(`  simulator: ${nodes} nodes × ${pods} pods`);
    const list = await sim.grow(nodes, { pods, containers, eventsMode: 'stream' });
    server = await ConsoleServer.start({
      ...(options.appDir ? { appDir: options.appDir } : {}),
      env: { PODSCOPE_CRI: list.map((n) => `${n.name}=${n.endpoint}`).join(',') },
    });
    const srv = server;
    log('  server: waiting for every node to be listed');
    await waitFor(
      async () => {
        const h = await srv.health();
        return (
          h !== undefined &&
          Object.keys(h.nodes).length === nodes &&
          Object.values(h.nodes).every((v) => v !== null)
        );
      },
      600_000,
      'every node to complete its first relist',
      1000,
    );
    await sleep(5_000);

    // ── snapshot ──
    const t0 = Date.now();
    reader = new SseReader(watchUrl(srv.url));
    const decoder = new WireDecoder();
    await reader.open();
    let snapshot: ReturnType<typeof watchFrame> | undefined;
    let snapshotWire = 0;
    const told: string[] = [];
    while (!snapshot) {
      await reader.next(60_000);
      // Frames first: the snapshot may arrive in the same read as the end of the stream.
      for (const f of reader.take()) {
        if (f.event !== undefined && f.event !== 'ping' && f.event !== 'connected')
          told.push(`${f.event}: ${(f.data ?? '').slice(0, 300)}`);
        const w = watchFrame(f, decoder);
        if (w.type === 'snapshot' && !snapshot) {
          snapshot = w;
          // Everything received so far: the snapshot and the few bytes before it, as sent.
          snapshotWire = reader.totalBytes;
        }
      }
      if (!snapshot && reader.done) {
        srv.assertAlive();
        throw new Error(
          `cluster.watch ended before the snapshot (${String(reader.error)}; server said: ${told.join(' | ') || 'nothing'})`,
        );
      }
    }
    const snapshotMs = Date.now() - t0;
    log(
      `  snapshot: ${snapshotWire} bytes on the wire (${snapshot.bytes} decoded, ${reader.encoding}) in ${snapshotMs} ms`,
    );

    // ── stream under churn ──
    await sim.autochurn(churnPerS, 100);
    // The warm-up's frames are not counted, but they are decoded: the wire is stateful (interned
    // strings, status diffs), and a frame skipped leaves the decoder unable to read the next.
    const warm0 = Date.now();
    while (Date.now() - warm0 < 5_000) {
      await reader.next(1_000);
      if (reader.done)
        throw new Error(`cluster.watch ended at churn start: ${String(reader.error)}`);
      for (const f of reader.take()) watchFrame(f, decoder);
    }
    const w0 = Date.now();
    const wire0 = reader.totalBytes;
    let bytes = 0;
    let frames = 0;
    let events = 0;
    let transitions = 0;
    const byKind: Record<string, number> = {};
    while (Date.now() - w0 < windowS * 1000) {
      await reader.next(1_000);
      // Frames first: the server's reason for ending the stream is the last of them.
      for (const f of reader.take()) {
        if (f.event === 'serialized-error' || f.event === 'return')
          throw new Error(
            `cluster.watch ended under churn: ${f.event}: ${f.data ?? ''} (a subscriber that falls behind the live bus is dropped; is the machine loaded?)`,
          );
        const w = watchFrame(f, decoder);
        bytes += f.bytes;
        frames++;
        events += w.events.length;
        for (const e of w.events) {
          const k = `${e.kind}:${e.type}`;
          byKind[k] = (byKind[k] ?? 0) + 1;
          if (e.kind === 'container' && e.type === 'ContainerStateChanged') transitions++;
        }
      }
      if (reader.done) throw new Error(`cluster.watch ended under churn: ${String(reader.error)}`);
    }
    const wire = reader.totalBytes - wire0;
    const encoding = reader.encoding;
    // Bytes per transition says something about the wire only when the transitions asked for
    // happened: on a starved machine the simulator made a few dozen of the thousands asked, and
    // the bytes were relist failures and node conditions (6,478 B "per transition", 2026-12-02).
    const asked = churnPerS * windowS;
    const delivered = asked > 0 ? transitions / asked : 0;
    const streamValid = delivered >= MIN_DELIVERED_SHARE;
    if (!streamValid)
      log(
        `  stream: only ${transitions} of ~${asked} container transitions asked happened (${Math.round(delivered * 100)} %): stream_bytes_per_transition is left null`,
      );
    reader.close();
    reader = undefined;
    log(
      `  stream: ${bytes} bytes, ${events} events, ${transitions} container transitions in ${windowS} s`,
    );

    // ── UI frames while panning ──
    const page = await benchPage(browser);
    // What the console's own subscription negotiated (the stream the user's browser receives).
    let browserEncoding = { accept: '', content: '' };
    page.on('response', (res) => {
      if (!res.url().includes('cluster.watch')) return;
      browserEncoding = {
        accept: res.request().headers()['accept-encoding'] ?? '',
        content: res.headers()['content-encoding'] ?? 'identity',
      };
    });
    const loadStart = Date.now();
    // The server is busy with 91 nodes' relists and the page's own 38 MB snapshot: the load
    // event can take longer than Playwright's default; the canvas below is what counts.
    await page.goto(`${srv.url}/en`, { waitUntil: 'commit', timeout: 180_000 });
    await page.waitForSelector('canvas.ps-canvas', { timeout: 180_000 });
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-layer="node"]').length >= n,
      nodes,
      { timeout: 180_000 },
    );
    const firstDraw = Date.now() - loadStart;
    await sleep(3_000);
    const cpu0 = srv.cpuMs();
    const ui0 = Date.now();
    const p95s: number[] = [];
    const all: number[] = [];
    for (let r = 0; r < reps; r++) {
      const profile = options.profilePath !== undefined && r === 1;
      const session = profile ? await page.context().newCDPSession(page) : undefined;
      if (session) {
        await session.send('Profiler.enable');
        await session.send('Profiler.setSamplingInterval', { interval: 500 });
        await session.send('Profiler.start');
      }
      const intervals = await panAndRecord(page);
      if (session && options.profilePath) {
        const { profile: cpuProfile } = await session.send('Profiler.stop');
        writeFileSync(options.profilePath, JSON.stringify(cpuProfile));
        await session.detach();
      }
      p95s.push(quantile(intervals, 0.95));
      all.push(...intervals);
    }
    const uiCpu = ((srv.cpuMs() - cpu0) / (Date.now() - ui0)) * 100;
    await sim.autochurn(0);
    await page.close();
    return {
      snapshot_bytes_10k_pods: snapshotWire,
      stream_bytes_per_transition:
        streamValid && transitions > 0 ? Math.round(wire / transitions) : Number.NaN,
      ui_frame_ms_p95_10k_pods: round(median(p95s), 1),
      details: {
        pods: nodes * pods,
        containers: totalContainers,
        churn_per_s: churnPerS,
        snapshot_ms: snapshotMs,
        snapshot_decoded_bytes: snapshot.bytes,
        encoding,
        stream: {
          window_s: windowS,
          asked_transitions: asked,
          delivered_share: round(delivered, 2),
          bytes: wire,
          decoded_bytes: bytes,
          decoded_bytes_per_transition:
            transitions > 0 ? Math.round(bytes / transitions) : Number.NaN,
          frames,
          events,
          transitions,
          events_per_transition: transitions > 0 ? round(events / transitions, 2) : Number.NaN,
          events_by_kind: byKind,
        },
        ui: {
          reps,
          p95_per_rep: p95s.map((x) => round(x, 1)),
          p50_ms: round(median(all), 1),
          frames: all.length,
          first_draw_ms: firstDraw,
          long_frames_over_50ms: all.filter((x) => x > 50).length,
        },
        browser_stream_encoding: browserEncoding,
        server_rss_mb: round(srv.rssMb(), 0),
        server_cpu_pct_during_ui: round(uiCpu, 1),
      },
    };
  } finally {
    reader?.close();
    await browser.close();
    await server?.stop();
    await sim.stop();
  }
}

/**
 * Drags the diagram across and back for about three seconds while the page records the interval
 * between animation frames (the frame time the user sees).
 */
async function panAndRecord(page: Page): Promise<number[]> {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __stop: boolean };
    w.__frames = [];
    w.__stop = false;
    let last = performance.now();
    const tick = (now: number) => {
      w.__frames.push(now - last);
      last = now;
      if (!w.__stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame((now) => {
      last = now;
      requestAnimationFrame(tick);
    });
  });
  const box = await page.locator('canvas.ps-canvas').boundingBox();
  if (!box) throw new Error('no canvas to pan');
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  for (const [dx, dy] of [
    [-300, -150],
    [300, 150],
  ] as const) {
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    // ~90 moves over ~1.5 s: a steady drag, one move per frame or so.
    for (let i = 1; i <= 90; i++) {
      await page.mouse.move(cx + (dx * i) / 90, cy + (dy * i) / 90);
      await page.waitForTimeout(16);
    }
    await page.mouse.up();
  }
  return page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __stop: boolean };
    w.__stop = true;
    return w.__frames;
  });
}
