/**
 * The agent's memory budget (agent_rss_mb ≤ 80 MiB, bench/suites/agent.ts) counts every module
 * it loads: bundled as the image bundles it (deploy/image/build.ts bundleCli), what the agent's
 * entry loads at start holds neither zod (reading the bus, server/cluster/parse.ts, is loaded by
 * the first reader and an agent only publishes) nor pino (the agent logs to stderr itself; the
 * bus loads the server's logger only for a caller that brings no log).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleCli } from '@/deploy/image/build';
import { startupInputs } from '@/deploy/image/bundle-graph';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the agent bundle at start', () => {
  it('loads the agent, the CRI client and NATS, and neither zod nor pino', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'podscope-agent-footprint-'));
    try {
      const inputs = startupInputs(await bundleCli(ROOT, dir), 'deploy/image/agent.ts');
      for (const needed of [
        'server/agent/agent.ts',
        'server/cri/client.ts',
        'server/cluster/bus.ts',
      ])
        expect(inputs.some((i) => i.endsWith(needed))).toBe(true);
      expect(inputs.some((i) => /node_modules\/@nats-io\/transport-node\//.test(i))).toBe(true);
      const unwanted = inputs.filter((i) =>
        /node_modules\/(zod|pino|pino-pretty)\/|server\/(cluster\/parse|log)\.ts$/.test(i),
      );
      expect(unwanted).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
