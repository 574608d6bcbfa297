import { describe, expect, it } from 'vitest';
import { bindProblem, listenProblem, nextHostnameArg } from './bind';

const next = ['/usr/bin/node', '/app/node_modules/next/dist/bin/next'];

describe('bind check', () => {
  it('reads -H / --hostname from the Next CLI only', () => {
    expect(nextHostnameArg([...next, 'start', '-H', '127.0.0.1', '-p', '3000'])).toBe('127.0.0.1');
    expect(nextHostnameArg([...next, 'start', '--hostname=::1'])).toBe('::1');
    expect(nextHostnameArg([...next, 'start', '-H', ''])).toBe('');
    expect(nextHostnameArg([...next, 'start'])).toBeNull();
    expect(nextHostnameArg(['/usr/bin/node', 'vitest'])).toBeUndefined();
  });

  it('refuses an empty, missing or different address', () => {
    const c = { host: '127.0.0.1' };
    expect(bindProblem([...next, 'start', '-H', '127.0.0.1'], c)).toBeUndefined();
    expect(bindProblem([...next, 'start', '-H', ''], c)).toMatch(/every interface/);
    expect(bindProblem([...next, 'start', '-p', '3000'], c)).toMatch(/every interface/);
    expect(bindProblem([...next, 'start', '-H', '0.0.0.0'], c)).toMatch(/0\.0\.0\.0/);
    expect(bindProblem(['/usr/bin/node', 'worker.js'], c)).toBeUndefined();
  });
});

describe('listen check (server/http/main.ts)', () => {
  it('lets only the approved address through', () => {
    const c = { host: '127.0.0.1' };
    expect(listenProblem('127.0.0.1', c)).toBeUndefined();
    expect(listenProblem('', c)).toMatch(/every interface/);
    expect(listenProblem('0.0.0.0', c)).toMatch(
      /listen on 0\.0\.0\.0, but the configuration approved 127\.0\.0\.1/,
    );
  });
});
