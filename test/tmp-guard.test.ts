import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedTmpdir } from './shared-tmp';
import { leftoverMessage, leftovers } from './tmp-guard';
import { tempDirForSuite } from './tmp';

describe('the temporary-directory guard', () => {
  const dir = tempDirForSuite('podscope-guard-test-');

  it('gives the run a temporary directory of its own', () => {
    expect(tmpdir()).toBe(process.env.PODSCOPE_RUN_TMPDIR);
    expect(sharedTmpdir()).not.toBe(tmpdir());
    expect(tmpdir().startsWith(sharedTmpdir())).toBe(true);
  });

  it('counts podscope-* entries only, and names them', () => {
    mkdirSync(join(dir, 'podscope-sim-abc'));
    writeFileSync(join(dir, 'podscope-kubeconfig-x'), '');
    mkdirSync(join(dir, 'other-cache'));
    expect(leftovers(dir)).toEqual(['podscope-kubeconfig-x', 'podscope-sim-abc']);
    expect(leftovers(join(dir, 'missing'))).toEqual([]);
    expect(leftoverMessage('/tmp/run', ['podscope-sim-abc'])).toBe(
      [
        'tests left 1 podscope-* entry in the temporary directory (/tmp/run):',
        '  podscope-sim-abc',
        'Each test removes what it creates (afterEach/afterAll, or tempDirForSuite in test/tmp.ts).',
      ].join('\n'),
    );
  });
});
