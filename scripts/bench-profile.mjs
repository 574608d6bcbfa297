// Loaded into a console server under benchmark (node --import) when `npm run bench -- --profile`
// asks for server profiles: SIGHUP starts the V8 CPU profiler, SIGUSR2 writes the profile into
// PODSCOPE_BENCH_PROFILE_DIR and ends the process normally — so a profile covers the measured
// window, not the warm-up.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const session = new Session();
session.connect();
let running = false;

process.on('SIGHUP', () => {
  if (running) return;
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
    if (!err) {
      const dir = process.env.PODSCOPE_BENCH_PROFILE_DIR || '.';
      writeFileSync(join(dir, `server-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    }
    process.exit(0);
  });
});
