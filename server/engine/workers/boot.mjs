// A relist worker's entry: the engine is TypeScript, loaded through tsx as the CLI loads it
// (tsx is a runtime dependency), then relist-worker.ts takes over. Plain JavaScript so that
// worker_threads can start it without a loader; pool.ts passes the paths in workerData.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register({ tsconfig: workerData.tsconfig });
await import(workerData.entry);
