import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseNodeSpec } from './config';

describe('loadConfig', () => {
  it('defaults to loopback and the embedded simulator', () => {
    const c = loadConfig({});
    expect(c.host).toBe('127.0.0.1');
    expect(c.port).toBe(3000);
    expect(c.nodes).toEqual([]);
    expect(c.sim.nodes).toBe(3);
    expect(c.periods.relistMs).toBe(1000);
    expect(c.periods.nodeMonitorGraceMs).toBe(50_000);
  });

  it('reads endpoints and periods from the environment', () => {
    const c = loadConfig({
      PODSCOPE_CRI: 'a=unix:///run/a.sock,tcp://127.0.0.1:9000#lab',
      PODSCOPE_RELIST_MS: '250',
    });
    expect(c.nodes).toEqual([
      { name: 'a', endpoint: 'unix:///run/a.sock', lab: false },
      { name: 'node-2', endpoint: 'tcp://127.0.0.1:9000', lab: true },
    ]);
    expect(c.periods.relistMs).toBe(250);
  });

  it('refuses a non-loopback bind without a token', () => {
    expect(() => loadConfig({ PODSCOPE_HOST: '0.0.0.0' })).toThrow(ConfigError);
    expect(loadConfig({ PODSCOPE_HOST: '0.0.0.0', PODSCOPE_TOKEN: 'x'.repeat(32) }).host).toBe(
      '0.0.0.0',
    );
  });

  it('lists every problem in one message', () => {
    expect(() => loadConfig({ PODSCOPE_PORT: 'seventy', PODSCOPE_RELIST_MS: '-1' })).toThrow(
      /port[\s\S]*relistMs/,
    );
  });

  it('refuses duplicate node names and bad endpoints', () => {
    expect(() => loadConfig({ PODSCOPE_CRI: 'a=/x.sock,a=/y.sock' })).toThrow(
      /duplicate node name/,
    );
    expect(() => loadConfig({ PODSCOPE_CRI: 'a=http://x' })).toThrow(/unix/);
  });
});

describe('parseNodeSpec', () => {
  it('names a node after its socket', () => {
    expect(parseNodeSpec('unix:///tmp/sim/node-b.sock').name).toBe('node-b');
    expect(parseNodeSpec('unix:///run/containerd/containerd.sock', 0).name).toBe('node-1');
  });
});
