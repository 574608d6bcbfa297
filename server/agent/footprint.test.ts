/**
 * The agent's memory budget (agent_rss_mb ≤ 80 MiB, bench/suites/agent.ts) counts every module
 * it loads: bundled as the image bundles it (deploy/image/build.ts bundleCli), the agent's entry
 * holds the bus's connection and publisher (server/cluster/bus/connection.ts, publisher.ts) and
 * nothing of the replica's side of it — its reader and KV reads (bus/reader.ts, kv.ts, tail.ts,
 * writer-consumer.ts) and what they parse with (server/cluster/parse.ts, zod) — nor pino (the
 * agent logs to stderr itself) — and no import() reaches the replica's side later either.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleCli } from '@/deploy/image/build';
import { loadableInputs, startupInputs } from '@/deploy/image/bundle-graph';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the agent bundle at start', () => {
  it("loads the agent, the CRI client and the bus's publisher, and no reader, zod or pino", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'podscope-agent-footprint-'));
    try {
      const meta = await bundleCli(ROOT, dir);
      const inputs = startupInputs(meta, 'deploy/image/agent.ts');
      for (const needed of [
        'server/agent/agent.ts',
        'server/cri/client.ts',
        'server/cluster/bus/connection.ts',
        'server/cluster/bus/publisher.ts',
      ])
        expect(inputs.some((i) => i.endsWith(needed))).toBe(true);
      expect(inputs.some((i) => /node_modules\/@nats-io\/transport-node\//.test(i))).toBe(true);
      const unwanted = inputs.filter((i) =>
        /node_modules\/(zod|pino|pino-pretty)\/|server\/(cluster\/(parse|bus\/(reader|kv|tail|writer-consumer))|log)\.ts$/.test(
          i,
        ),
      );
      expect(unwanted).toEqual([]);
      // Nor can it load the replica's side later: no import() leads there either.
      const replicaSide = loadableInputs(meta, 'deploy/image/agent.ts').filter((i) =>
        /node_modules\/zod\/|server\/cluster\/(parse|bus\/(reader|kv|tail|writer-consumer))\.ts$/.test(
          i,
        ),
      );
      expect(replicaSide).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
