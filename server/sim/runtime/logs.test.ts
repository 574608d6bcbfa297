import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ContainerLog, MAX_LOG_LINE_BYTES, rfc3339Nano, splitAtBytes } from './logs';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'podscope-logs-'));
  dirs.push(d);
  return d;
};
const T = Date.UTC(2026, 11, 1, 12, 0, 0);
const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);

describe('rfc3339Nano', () => {
  it("prints Go's RFC3339Nano in UTC: nanoseconds, trailing zeros dropped", () => {
    expect(rfc3339Nano(T)).toBe('2026-12-01T12:00:00Z');
    expect(rfc3339Nano(T + 5)).toBe('2026-12-01T12:00:00.005Z');
    expect(rfc3339Nano(T + 1.25)).toBe('2026-12-01T12:00:00.00125Z');
  });
});

describe('ContainerLog (CRI log format)', () => {
  it('makes the folder, writes full lines as F, per stream, and the unfinished last line on close', () => {
    const path = join(tmp(), 'pod', 'c', '0.log');
    let now = T;
    const log = new ContainerLog(path, () => now);
    expect(existsSync(path)).toBe(true);
    log.write('stdout', 'hello World\nhal');
    now += 1;
    log.write('stderr', 'oops\n');
    log.write('stdout', 'f');
    log.close();
    expect(lines(path)).toEqual([
      '2026-12-01T12:00:00Z stdout F hello World',
      '2026-12-01T12:00:00.001Z stderr F oops',
      '2026-12-01T12:00:00.001Z stdout F half',
    ]);
  });

  it('a line longer than the buffer is cut into P pieces ending with an F', () => {
    const path = join(tmp(), '0.log');
    const log = new ContainerLog(path, () => T);
    log.write('stdout', `${'x'.repeat(MAX_LOG_LINE_BYTES + 10)}\n`);
    log.close();
    const got = lines(path).map((l) => l.split(' ').slice(1, 3).join(' '));
    expect(got).toEqual(['stdout P', 'stdout F']);
    expect(lines(path)[1]?.endsWith(' xxxxxxxxxx')).toBe(true);
  });

  it('splits on a UTF-8 character boundary', () => {
    const [head, rest] = splitAtBytes('aé', 2);
    expect([head, rest]).toEqual(['a', 'é']);
  });

  it('reopen: after a rename the old file stops growing and the path is a new file', () => {
    const dir = tmp();
    const path = join(dir, '0.log');
    const log = new ContainerLog(path, () => T);
    log.write('stdout', 'one\n');
    renameSync(path, `${path}.1`);
    log.reopen();
    log.write('stdout', 'two\n');
    log.close();
    expect(lines(`${path}.1`)).toEqual(['2026-12-01T12:00:00Z stdout F one']);
    expect(lines(path)).toEqual(['2026-12-01T12:00:00Z stdout F two']);
  });

  it('writes nothing after close', () => {
    const path = join(tmp(), '0.log');
    const log = new ContainerLog(path, () => T);
    log.close();
    log.write('stdout', 'late\n');
    expect(readFileSync(path, 'utf8')).toBe('');
  });
});
