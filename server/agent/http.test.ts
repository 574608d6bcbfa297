/** The agent's listener: a port already taken says which option moves it; port 0 picks a free one. */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startAgentHttp, type AgentHttp } from './http';

const handlers = {
  metrics: () => Promise.resolve('# nothing\n'),
  health: () => ({ ok: true, detail: {} }),
};

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

function hold(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  open.push({ close: () => new Promise<void>((r) => server.close(() => r())) });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      resolve({ server, port: typeof a === 'object' && a ? a.port : 0 });
    }),
  );
}

describe('startAgentHttp', () => {
  it('a port another process holds: EADDRINUSE, naming --listen and its variable', async () => {
    const { port } = await hold();
    await expect(startAgentHttp({ host: '127.0.0.1', port }, handlers)).rejects.toThrow(
      new RegExp(
        `127\\.0\\.0\\.1:${port} .*already in use \\(EADDRINUSE\\).*--listen HOST:PORT or PODSCOPE_AGENT_LISTEN`,
      ),
    );
  });

  it('port 0 binds a free port and reports the bound address', async () => {
    const http: AgentHttp = await startAgentHttp({ host: '127.0.0.1', port: 0 }, handlers);
    open.push(http);
    const m = /^127\.0\.0\.1:(\d+)$/.exec(http.address);
    expect(Number(m?.[1])).toBeGreaterThan(0);
    const res = await fetch(`http://${http.address}/healthz`);
    expect(res.status).toBe(200);
  });

  it('two agents on port 0 get two ports', async () => {
    const a = await startAgentHttp({ host: '127.0.0.1', port: 0 }, handlers);
    const b = await startAgentHttp({ host: '127.0.0.1', port: 0 }, handlers);
    open.push(a, b);
    expect(a.address).not.toBe(b.address);
  });
});
