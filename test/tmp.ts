/**
 * Temporary folders that a test file cleans up without writing the afterAll itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * A new folder in os.tmpdir(), removed after the tests of the file (or describe block) that
 * asked for it. Call it at module or describe level, where afterAll may be registered.
 */
export function tempDirForSuite(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
