/**
 * The agent holds no API-server credentials and has no code to use any: bundled as the image
 * bundles it (deploy/image/agent.ts), it contains no Kubernetes client, no kubeconfig loader and
 * no API watch: what it knows of the API server comes from the specs bucket (specs.ts).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the agent bundle', () => {
  it('holds no Kubernetes client, kubeconfig loader, API watch or Lease code', async () => {
    const { build } = await import('esbuild');
    const result = await build({
      entryPoints: [join(ROOT, 'deploy', 'image', 'agent.ts')],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      tsconfig: join(ROOT, 'tsconfig.json'),
      external: ['better-sqlite3', 'pg-native'],
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((i) => i.includes('server/agent/specs.ts'))).toBe(true);
    const forbidden = inputs.filter((i) =>
      /node_modules\/@kubernetes\/client-node\/|server\/kube\/(view|config|reflector|resources|lease)\.ts/.test(
        i,
      ),
    );
    expect(forbidden).toEqual([]);
  }, 60_000);
});
