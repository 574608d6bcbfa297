// A relist worker's entry: the engine is TypeScript, loaded through tsx as the CLI loads it
// (tsx is a runtime dependency), then relist-worker.ts takes over. Plain JavaScript so that
// worker_threads can start it without a loader; pool.ts passes the paths in workerData.
import { pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

// `npm run bench -- --profile` profiles worker threads too (scripts/bench-profile.mjs): the
// main thread loads it through --import, which worker threads do not inherit.
const profileHook = process.env.PODSCOPE_BENCH_PROFILE_HOOK;
if (profileHook) await import(pathToFileURL(profileHook).href);

register({ tsconfig: workerData.tsconfig });
await import(workerData.entry);
