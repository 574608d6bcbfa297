/**
 * vitest globalSetup: every test cleans up what it made in the temporary directory.
 *
 * The run gets a temporary directory of its own: TMPDIR points at a new folder in the machine's
 * temporary directory, which the test workers and every process they start inherit, so
 * os.tmpdir() there is this run's alone — another run on the machine at the same time neither
 * adds to it nor sees it. When the run ends, every `podscope-*` entry still in it is something a
 * test made and did not remove: the run fails (exit code 1) with their names. The folder is removed either
 * way. What must outlive a run (caches, swept instance bases) goes to `sharedTmpdir()`
 * (test/shared-tmp.ts), outside the check.
 *
 * Each project of a run (unit, integration) declares this setup; the first one to start owns the
 * folder and the check, the others see PODSCOPE_RUN_TMPDIR and do nothing.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHARED_TMPDIR_ENV } from './shared-tmp';

const RUN_TMPDIR_ENV = 'PODSCOPE_RUN_TMPDIR';
/** What tests name their temporary folders and files; the check counts these. */
export const PREFIX = 'podscope-';

/** The `podscope-*` entries of a folder, sorted. */
export function leftovers(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => n.startsWith(PREFIX)).sort();
}

/** The message a run with leftovers fails with. */
export function leftoverMessage(dir: string, names: readonly string[]): string {
  return [
    `tests left ${names.length} ${PREFIX}* entr${names.length === 1 ? 'y' : 'ies'} in the temporary directory (${dir}):`,
    ...names.map((n) => `  ${n}`),
    'Each test removes what it creates (afterEach/afterAll, or tempDirForSuite in test/tmp.ts).',
  ].join('\n');
}

const saved = (name: string) => ({ name, value: process.env[name] });

export default function setup(): (() => void) | undefined {
  if (process.env[RUN_TMPDIR_ENV]) return undefined;
  const machine = tmpdir();
  const dir = mkdtempSync(join(machine, 'vitest-run-'));
  const before = [saved('TMPDIR'), saved(RUN_TMPDIR_ENV), saved(SHARED_TMPDIR_ENV)];
  process.env[SHARED_TMPDIR_ENV] ||= machine;
  process.env[RUN_TMPDIR_ENV] = dir;
  process.env.TMPDIR = dir;
  return () => {
    for (const { name, value } of before) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    const left = leftovers(dir);
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    if (left.length === 0) return;
    // vitest reports an error thrown here but still exits 0; the run fails through exitCode.
    console.error(`\n${leftoverMessage(dir, left)}\n`);
    process.exitCode = 1;
  };
}
