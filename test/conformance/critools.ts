/**
 * crictl and critest (cri-tools v1.26.1, built from source, xz-compressed; README beside them)
 * for the conformance tests: found in `PODSCOPE_CRITOOLS_DIR`, else in `../shared/tools/critools`
 * next to the checkout (also from a git worktree one level deeper), and decompressed into a
 * temporary folder with the system `xz`.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const CRITOOLS_ENV = 'PODSCOPE_CRITOOLS_DIR';
const ROOT = resolve(__dirname, '..', '..');

/** Where the compressed tools are; throws naming every place looked at. */
export function critoolsDir(): string {
  const candidates = [
    process.env[CRITOOLS_ENV],
    join(ROOT, '..', 'shared', 'tools', 'critools'),
    join(ROOT, '..', '..', 'shared', 'tools', 'critools'),
  ].filter((d): d is string => typeof d === 'string' && d !== '');
  const found = candidates.find((d) => existsSync(join(d, 'critest.xz')));
  if (!found) {
    throw new Error(
      `cri-tools not found: looked for critest.xz in ${candidates.join(', ')}; ` +
        `set ${CRITOOLS_ENV} to the folder holding critest.xz and crictl.xz`,
    );
  }
  return found;
}

export interface Critools {
  crictl: string;
  critest: string;
  dir: string;
  remove(): void;
}

/** Decompresses both binaries into a new temporary folder. */
export function unpackCritools(): Critools {
  const from = critoolsDir();
  const dir = mkdtempSync(join(tmpdir(), 'podscope-critools-'));
  const out: Record<'crictl' | 'critest', string> = { crictl: '', critest: '' };
  for (const name of ['crictl', 'critest'] as const) {
    const bytes = execFileSync('xz', ['-dc', join(from, `${name}.xz`)], {
      maxBuffer: 256 * 1024 * 1024,
    });
    const path = join(dir, name);
    writeFileSync(path, bytes);
    chmodSync(path, 0o755);
    out[name] = path;
  }
  return { ...out, dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
