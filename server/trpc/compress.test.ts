import { describe, expect, it } from 'vitest';
import { compressibleEventStream } from './compress';

const stream = (headers: Record<string, string>) =>
  new Response('data: {}\n\n', { status: 200, statusText: 'OK', headers });

describe('compressibleEventStream', () => {
  it('drops no-transform from an event stream, keeping the other directives and headers', async () => {
    const res = compressibleEventStream(
      stream({
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      }),
    );
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('data: {}\n\n');
  });

  it('removes Cache-Control when no-transform was all it said', () => {
    const res = compressibleEventStream(
      stream({ 'content-type': 'text/event-stream', 'cache-control': 'No-Transform' }),
    );
    expect(res.headers.has('cache-control')).toBe(false);
  });

  it('leaves other responses alone (the same object)', () => {
    const json = new Response('{}', {
      headers: { 'content-type': 'application/json', 'cache-control': 'no-transform' },
    });
    expect(compressibleEventStream(json)).toBe(json);
    const plain = stream({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    expect(compressibleEventStream(plain)).toBe(plain);
  });
});
