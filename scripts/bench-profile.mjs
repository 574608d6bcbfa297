// Loaded into a console server under benchmark (node --import) when `npm run bench -- --profile`
// asks for server profiles: SIGHUP starts the V8 CPU profiler (a second SIGHUP stops it and writes
// the profile, the server running on), SIGUSR2 writes the profile into PODSCOPE_BENCH_PROFILE_DIR
// and ends the process normally — so a profile covers the measured window, not the warm-up.
//
// Worker threads (the relist workers) have heaps and profilers of their own and see no signals:
// the server's bench/lib/server.ts names this file in PODSCOPE_BENCH_PROFILE_HOOK, the workers'
// boot file imports it, and the main thread tells them over a BroadcastChannel when to start and
// stop. Each writes server-<pid>[-n]-t<threadId>.cpuprofile; the main thread writes its own file
// last, once every worker that started has written (or 10 s passed), so a reader that sees the
// main file finds the workers' beside it.
import { Session } from 'node:inspector';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BroadcastChannel, isMainThread, threadId } from 'node:worker_threads';

const session = new Session();
session.connect();
const channel = new BroadcastChannel('podscope-bench-profile');
channel.unref();
let running = false;

const write = (profile, name) => {
  const dir = process.env.PODSCOPE_BENCH_PROFILE_DIR || '.';
  const path = join(dir, `${name}.cpuprofile`);
  // Renamed into place: a reader waiting for the file sees it whole.
  writeFileSync(`${path}.tmp`, JSON.stringify(profile));
  renameSync(`${path}.tmp`, path);
};

/** Starts the profiler; `started` runs once it samples. */
const start = (started) => {
  running = true;
  session.post('Profiler.enable', () =>
    session.post('Profiler.setSamplingInterval', { interval: 200 }, () =>
      session.post('Profiler.start', () => started?.()),
    ),
  );
};

/** Stops the profiler; `done` gets the profile (undefined if stopping failed). */
const stop = (done) => {
  running = false;
  session.post('Profiler.stop', (err, result) => done(err ? undefined : result.profile));
};

if (isMainThread) {
  let written = 0;
  /** Workers that started the profile now running. */
  let started = new Set();
  channel.onmessage = ({ data }) => {
    if (data?.op === 'started') started.add(data.threadId);
    if (data?.op === 'written') started.delete(data.threadId);
  };
  /** Stops every thread's profile; the main thread's file is written last. */
  const stopAll = (then) => {
    const name = `server-${process.pid}${written++ === 0 ? '' : `-${written}`}`;
    channel.postMessage({ op: 'stop', name });
    stop((profile) => {
      const deadline = Date.now() + 10_000;
      const wait = () => {
        if (started.size > 0 && Date.now() < deadline) return void setTimeout(wait, 50);
        started = new Set();
        if (profile) write(profile, name);
        then?.();
      };
      wait();
    });
  };
  process.on('SIGHUP', () => {
    if (running) return stopAll();
    started = new Set();
    channel.postMessage({ op: 'start' });
    start();
  });
  process.on('SIGUSR2', () => {
    if (!running) process.exit(0);
    stopAll(() => process.exit(0));
  });
} else {
  channel.onmessage = ({ data }) => {
    if (data?.op === 'start' && !running) {
      start(() => channel.postMessage({ op: 'started', threadId }));
    } else if (data?.op === 'stop' && running) {
      stop((profile) => {
        if (profile) write(profile, `${data.name}-t${threadId}`);
        channel.postMessage({ op: 'written', threadId });
      });
    }
  };
}
