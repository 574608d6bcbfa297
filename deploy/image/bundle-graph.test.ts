import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { loadableInputs, startupInputs, startupOutputs } from './bundle-graph';

type Output = Metafile['outputs'][string];
const out = (o: Partial<Output>): Output => ({
  bytes: 1,
  inputs: {},
  imports: [],
  exports: [],
  ...o,
});
const input = { bytesInOutput: 1 };

/** agent.mjs → chunk-a (static) → chunk-b (static); chunk-a → chunk-lazy (import()). */
const META: Metafile = {
  inputs: {},
  outputs: {
    'out/agent.mjs': out({
      entryPoint: 'deploy/image/agent.ts',
      inputs: { 'deploy/image/agent.ts': input },
      imports: [
        { path: 'out/chunk-a.mjs', kind: 'import-statement' },
        { path: 'node:fs', kind: 'import-statement', external: true },
      ],
    }),
    'out/chunk-a.mjs': out({
      inputs: { 'server/agent/agent.ts': input, 'node_modules/x/index.js': input },
      imports: [
        { path: 'out/chunk-b.mjs', kind: 'import-statement' },
        { path: 'out/chunk-lazy.mjs', kind: 'dynamic-import' },
        { path: 'out/agent.mjs', kind: 'import-statement' },
      ],
    }),
    'out/chunk-b.mjs': out({ inputs: { 'server/cluster/bus/publisher.ts': input } }),
    'out/chunk-lazy.mjs': out({
      inputs: { 'node_modules/pino/pino.js': input },
      imports: [{ path: 'out/chunk-b.mjs', kind: 'import-statement' }],
    }),
    'out/podscope.mjs': out({
      entryPoint: 'deploy/image/cli.ts',
      imports: [{ path: 'out/chunk-lazy.mjs', kind: 'import-statement' }],
    }),
  },
};

describe('startupOutputs / startupInputs', () => {
  it('follow static imports transitively, once each, and stop at import() and externals', () => {
    expect(startupOutputs(META, 'deploy/image/agent.ts')).toEqual([
      'out/agent.mjs',
      'out/chunk-a.mjs',
      'out/chunk-b.mjs',
    ]);
    expect(startupInputs(META, 'deploy/image/agent.ts')).toEqual([
      'deploy/image/agent.ts',
      'node_modules/x/index.js',
      'server/agent/agent.ts',
      'server/cluster/bus/publisher.ts',
    ]);
  });

  it('what an entry can ever load includes the chunks behind import()', () => {
    expect(loadableInputs(META, 'deploy/image/agent.ts')).toEqual([
      'deploy/image/agent.ts',
      'node_modules/pino/pino.js',
      'node_modules/x/index.js',
      'server/agent/agent.ts',
      'server/cluster/bus/publisher.ts',
    ]);
  });

  it('another entry loads what it imports statically (the lazy chunk included)', () => {
    expect(startupInputs(META, 'deploy/image/cli.ts')).toEqual([
      'node_modules/pino/pino.js',
      'server/cluster/bus/publisher.ts',
    ]);
  });

  it('refuses an entry point the metafile does not have', () => {
    expect(() => startupOutputs(META, 'deploy/image/none.ts')).toThrow(/no output/);
  });
});
