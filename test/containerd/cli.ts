/**
 * A private containerd by hand, for trying Podscope against a real runtime:
 *   node --import tsx test/containerd/cli.ts          # prints the endpoint, runs until ^C
 *   node --import tsx test/containerd/cli.ts --sweep  # removes what crashed runs left behind
 * On SIGINT/SIGTERM it stops the instance and everything it started.
 */
import { DEFAULT_BASE_DIR, startContainerd, sweepStaleInstances } from './harness';

if (process.argv.includes('--sweep')) {
  const reports = await sweepStaleInstances(DEFAULT_BASE_DIR);
  for (const r of reports) {
    const left = r.leftovers.length > 0 ? `; left: ${r.leftovers.join(', ')}` : '';
    process.stdout.write(
      `swept ${r.dir} (killed ${r.killed.length}, cgroups ${r.cgroupsRemoved.length}${left})\n`,
    );
  }
  if (reports.length === 0) process.stdout.write('nothing stale\n');
} else {
  const ctrd = await startContainerd();
  process.stdout.write(`${ctrd.endpoint}\n`);
  process.stderr.write(`containerd pid ${ctrd.pid}, folder ${ctrd.dir}; ^C stops it\n`);
  const keepAlive = setInterval(() => undefined, 1 << 30);
  const shutdown = () => {
    clearInterval(keepAlive);
    ctrd.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
