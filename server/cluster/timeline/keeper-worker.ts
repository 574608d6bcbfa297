/**
 * The checkpoint keeper's worker thread (started by keeper-thread.ts through the workers' boot
 * file): its own connection to the timeline, the replicas' keeper lock, and the keeper answering
 * one request at a time with the floor each request brings.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CheckpointKeeper, ClusterCheckpoints } from './checkpoints';
import { keeperLock } from './keeper-lock';
import type { KeeperReply, KeeperRequest, KeeperValue, KeeperWorkerConfig } from './keeper-thread';
import { openClusterTimeline } from './timeline';

const port = parentPort;
if (!port) throw new Error('keeper-worker.ts runs as a worker thread (see keeper-thread.ts)');
const config = (workerData as { config: KeeperWorkerConfig }).config;

let floor = 0;
const lock = keeperLock(config.open);
// One query at a time (the fold reads, then the write): a small pool beside the console's.
const opened = openClusterTimeline({ ...config.open, poolSize: 2 }).then((timeline) => ({
  timeline,
  keeper: new CheckpointKeeper({
    timeline,
    checkpoints: new ClusterCheckpoints(timeline),
    floor: () => Promise.resolve(floor),
    lock,
    ...(config.everyEvents !== undefined ? { everyEvents: config.everyEvents } : {}),
    ...(config.minIntervalMs !== undefined ? { minIntervalMs: config.minIntervalMs } : {}),
  }),
}));
// A timeline that could not be opened: each request says why, then the thread ends, and the
// console's next look starts a new one (the database may be back by then).
let broken = false;
opened.catch(() => {
  broken = true;
});

async function answer(m: KeeperRequest): Promise<KeeperValue> {
  const { timeline, keeper } = await opened;
  switch (m.op) {
    case 'tick': {
      floor = m.floor;
      const cp = await keeper.tick();
      return cp ? { gid: cp.gid, tMax: cp.tMax } : undefined;
    }
    case 'retain':
      floor = m.floor;
      return keeper.retain({ maxAgeMs: m.maxAgeMs });
    case 'close':
      await lock.close();
      await timeline.close();
      return undefined;
  }
}

let queue = Promise.resolve();
port.on('message', (m: KeeperRequest) => {
  queue = queue.then(async () => {
    let reply: KeeperReply;
    try {
      reply = { id: m.id, ok: true, value: await answer(m) };
    } catch (err) {
      reply = { id: m.id, ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    port.postMessage(reply);
    if (broken) {
      await lock.close();
      port.close();
    }
  });
});
