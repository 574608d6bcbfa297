import { createServer, connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { describeFailure } from './cluster';

describe('describeFailure', () => {
  it('says where an error came from: its first frames outside node internals', () => {
    function failingClient(): Error {
      return new Error('read ECONNRESET');
    }
    const text = describeFailure(failingClient());
    expect(text).toMatch(/^read ECONNRESET \[at failingClient .*cluster\.test\.ts/);
  });

  it('adds the error code a message leaves out, and takes what is not an Error as text', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const err = await new Promise<Error>((resolve) =>
      connect(port, '127.0.0.1').once('error', resolve),
    );
    expect(describeFailure(err)).toContain('ECONNREFUSED');
    const coded = Object.assign(new Error('the socket went away'), { code: 'EPIPE' });
    expect(describeFailure(coded)).toMatch(/^the socket went away \(EPIPE\)/);
    expect(describeFailure('gone')).toBe('gone');
  });
});
