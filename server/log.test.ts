/** The server's logger: JSON or readable lines, levels, request ids. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, logFn, requestLogger, withRequestLog } from './log';

function sink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines, json: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('createLogger', () => {
  it('writes one JSON object a line, at the level asked for', () => {
    const out = sink();
    const log = logFn(createLogger({ pretty: false, level: 'info', destination: out.stream }));
    log('relist failed', 'warn');
    log('watching 3 nodes');
    log('not shown', 'debug');
    expect(out.json().map((l) => [l.level, l.msg, l.name])).toEqual([
      [40, 'relist failed', 'podscope'],
      [30, 'watching 3 nodes', 'podscope'],
    ]);
  });

  it('writes readable lines (not JSON) when pretty', () => {
    const out = sink();
    createLogger({ pretty: true, destination: out.stream }).error('store: disk full');
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0]).toMatch(/ERROR.*store: disk full/);
    expect(() => {
      JSON.parse(out.lines[0] ?? '');
    }).toThrow();
  });

  it('falls back to info on a level that does not exist, and says so', () => {
    const out = sink();
    const logger = createLogger({ pretty: false, level: 'loud', destination: out.stream });
    logger.debug('hidden');
    expect(out.json().map((l) => l.msg)).toEqual([
      'PODSCOPE_LOG_LEVEL=loud is not a level; using info',
    ]);
  });
});

describe('request ids', () => {
  it("keeps a proxy's well-formed x-request-id and refuses a hostile one", () => {
    const out = sink();
    const parent = createLogger({ pretty: false, destination: out.stream });
    const given = requestLogger(
      new Request('http://x/', { headers: { 'x-request-id': 'abc-123' } }),
      parent,
    );
    expect(given.requestId).toBe('abc-123');
    given.log.info('hello');
    expect(out.json()[0]?.reqId).toBe('abc-123');
    const hostile = requestLogger(
      new Request('http://x/', { headers: { 'x-request-id': 'a"}\u0007'.repeat(50) } }),
      parent,
    );
    expect(hostile.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an unexpected error with 500 and the id, never the error text', async () => {
    const out = sink();
    const parent = createLogger({ pretty: false, destination: out.stream });
    const req = new Request('http://x/', { headers: { 'x-request-id': 'r1' } });
    const ok = await withRequestLog(
      req,
      'export',
      () => Promise.resolve(new Response('fine')),
      parent,
    );
    expect(ok.headers.get('x-request-id')).toBe('r1');
    expect(await ok.text()).toBe('fine');
    const failed = await withRequestLog(
      req,
      'export',
      () => Promise.reject(new Error('secret path /var/lib/x')),
      parent,
    );
    expect(failed.status).toBe(500);
    expect(failed.headers.get('x-request-id')).toBe('r1');
    const body = await failed.text();
    expect(body).toContain('request r1');
    expect(body).not.toContain('secret');
    // The log has it all, under the request's id.
    expect(out.json()).toMatchObject([
      { level: 50, reqId: 'r1', msg: 'export failed', err: { message: 'secret path /var/lib/x' } },
    ]);
  });
});
