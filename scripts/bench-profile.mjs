// Loaded into a console server under benchmark (node --import) when `npm run bench -- --profile`
// asks for server profiles: SIGHUP starts the V8 CPU profiler (a second SIGHUP stops it and writes
// the profile, the server running on), SIGUSR2 writes the profile into PODSCOPE_BENCH_PROFILE_DIR
// and ends the process normally — so a profile covers the measured window, not the warm-up.
import { Session } from 'node:inspector';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const session = new Session();
session.connect();
let running = false;

let written = 0;
const write = (profile) => {
  const dir = process.env.PODSCOPE_BENCH_PROFILE_DIR || '.';
  const suffix = written++ === 0 ? '' : `-${written}`;
  const path = join(dir, `server-${process.pid}${suffix}.cpuprofile`);
  // Renamed into place: a reader waiting for the file sees it whole.
  writeFileSync(`${path}.tmp`, JSON.stringify(profile));
  renameSync(`${path}.tmp`, path);
};

process.on('SIGHUP', () => {
  if (running) {
    running = false;
    session.post('Profiler.stop', (err, result) => {
      if (!err) write(result.profile);
    });
    return;
  }
  running = true;
  session.post('Profiler.enable', () =>
    session.post('Profiler.setSamplingInterval', { interval: 200 }, () =>
      session.post('Profiler.start'),
    ),
  );
});

process.on('SIGUSR2', () => {
  if (!running) process.exit(0);
  session.post('Profiler.stop', (err, result) => {
    if (!err) write(result.profile);
    process.exit(0);
  });
});
