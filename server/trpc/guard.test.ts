import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_BYTES } from '@/lib/timeline/file/limits';
import {
  TRPC_MAX_BODY_BYTES,
  bodyLimit,
  finishResponse,
  procedurePaths,
  refuseRequest,
  withBodyLimit,
} from './guard';

const url = (path: string) => new URL(`http://127.0.0.1:3000/api/trpc/${path}`);
const post = (type: string | undefined, headers: Record<string, string> = {}) =>
  new Request('http://127.0.0.1:3000/api/trpc/timelines.save', {
    method: 'POST',
    body: '{}',
    headers: { ...(type ? { 'content-type': type } : {}), ...headers },
  });

describe('the tRPC guard', () => {
  it('reads the procedures of a call or a batch', () => {
    expect(procedurePaths(url('nodes.list'))).toEqual(['nodes.list']);
    expect(procedurePaths(url('a.b%2Cc.d'))).toEqual(['a.b', 'c.d']);
    expect(procedurePaths(url('a.b,c.d'))).toEqual(['a.b', 'c.d']);
  });

  it('lets JSON through and refuses every other body with 415', async () => {
    expect(refuseRequest(post('application/json; charset=utf-8'), ['x'], 16)).toBeUndefined();
    for (const type of [
      'multipart/form-data; boundary=x',
      'application/x-www-form-urlencoded',
      'text/plain',
      undefined,
    ]) {
      const r = refuseRequest(post(type), ['x'], 16);
      expect(r?.status, type).toBe(415);
      expect(r?.headers.get('cache-control')).toBe('no-store');
      expect(((await r?.json()) as { error: { data: { code: string } } }).error.data.code).toBe(
        'UNSUPPORTED_MEDIA_TYPE',
      );
    }
    const get = new Request('http://127.0.0.1:3000/api/trpc/nodes.list');
    expect(refuseRequest(get, ['nodes.list'], 16)).toBeUndefined();
  });

  it('caps batches and declared body sizes', async () => {
    const r = refuseRequest(post('application/json'), Array(17).fill('x'), 16);
    expect(r?.status).toBe(400);
    expect(((await r?.json()) as { error: { message: string } }).error.message).toMatch(
      /at most 16 calls/,
    );
    expect(bodyLimit(['timelines.import'])).toBe(MAX_REQUEST_BYTES);
    expect(bodyLimit(['timelines.save'])).toBe(TRPC_MAX_BODY_BYTES);
    const big = post('application/json', { 'content-length': String(TRPC_MAX_BODY_BYTES + 1) });
    expect(refuseRequest(big, ['timelines.save'], 16)?.status).toBe(413);
  });

  it('counts a body sent without a length as it arrives', async () => {
    const req = new Request('http://127.0.0.1/', { method: 'POST', body: 'x'.repeat(100) });
    await expect(withBodyLimit(req, 50).text()).rejects.toThrow();
    const ok = new Request('http://127.0.0.1/', { method: 'POST', body: 'x'.repeat(50) });
    expect(await withBodyLimit(ok, 50).text()).toHaveLength(50);
  });

  it('answers no-store, and says when the answer has been sent', async () => {
    let done = 0;
    const res = finishResponse(
      new Response('ok', { headers: { 'cache-control': 'max-age=60' } }),
      () => done++,
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(done).toBe(0);
    expect(await res.text()).toBe('ok');
    expect(done).toBe(1);
  });
});
