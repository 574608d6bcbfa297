import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, maxContainerRestartPeriodFor, parseNodeSpec } from './config';
import { tempDirForSuite } from '@/test/tmp';

const dir = tempDirForSuite('podscope-config-');
const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const TOKEN = 'a-long-enough-s3cret-token';

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

  it('crashLoopBackOff.maxContainerRestartPeriod: 300 s by default, MS and NODE=MS from the environment, per node from the file', () => {
    const d = loadConfig({});
    expect(d.crashLoopBackOff).toEqual({ maxContainerRestartPeriodMs: 300_000, byNode: {} });
    expect(maxContainerRestartPeriodFor(d.crashLoopBackOff, 'node-a')).toBe(300_000);
    const c = loadConfig({
      PODSCOPE_MAX_CONTAINER_RESTART_PERIOD_MS: '60000, node-b=5000',
    });
    expect(maxContainerRestartPeriodFor(c.crashLoopBackOff, 'node-a')).toBe(60_000);
    expect(maxContainerRestartPeriodFor(c.crashLoopBackOff, 'node-b')).toBe(5000);
    const f = loadConfig({
      PODSCOPE_CONFIG: file(
        'backoff.json',
        JSON.stringify({ crashLoopBackOff: { byNode: { 'node-c': 2000 } } }),
      ),
      PODSCOPE_MAX_CONTAINER_RESTART_PERIOD_MS: 'node-d=1000',
    });
    expect(f.crashLoopBackOff).toEqual({
      maxContainerRestartPeriodMs: 300_000,
      byNode: { 'node-c': 2000, 'node-d': 1000 },
    });
  });

  it('refuses a restart period outside 1 s–300 s or not in MS / NODE=MS form, saying where', () => {
    for (const [value, msg] of [
      ['999', /crashLoopBackOff\.maxContainerRestartPeriodMs: must be at least 1000 ms/],
      ['node-a=300001', /crashLoopBackOff\.byNode\.node-a: must be at most 300000 ms/],
      ['5m', /"5m" is not MS or NODE=MS/],
      ['=1000', /"=1000" is not MS or NODE=MS/],
      ['1000,2000', /every node is given twice/],
      ['a=1000,a=2000', /a is given twice/],
    ] as const) {
      expect(() => loadConfig({ PODSCOPE_MAX_CONTAINER_RESTART_PERIOD_MS: value })).toThrow(msg);
      expect(() => loadConfig({ PODSCOPE_MAX_CONTAINER_RESTART_PERIOD_MS: value })).toThrow(
        ConfigError,
      );
    }
  });

  it('PODSCOPE_KUBELET_VERSION: VERSION and NODE=VERSION, checked at load', () => {
    expect(loadConfig({}).kubeletVersion).toBeUndefined();
    expect(loadConfig({ PODSCOPE_KUBELET_VERSION: '1.30,a=v1.28.9' }).kubeletVersion).toBe(
      '1.30,a=v1.28.9',
    );
    expect(() => loadConfig({ PODSCOPE_KUBELET_VERSION: 'a=latest' })).toThrow(
      /kubeletVersion: PODSCOPE_KUBELET_VERSION: "a=latest" is not VERSION or NODE=VERSION/,
    );
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

describe('one token, wherever it is given (issue 17 item 1)', () => {
  it('takes the token from PODSCOPE_CONFIG, as "token" or "tokenFile"', () => {
    const c = loadConfig({
      PODSCOPE_CONFIG: file('a.json', JSON.stringify({ host: '0.0.0.0', token: TOKEN })),
    });
    expect(c.host).toBe('0.0.0.0');
    expect(c.token).toBe(TOKEN);
    const tf = file('token', `${TOKEN}\n`);
    const d = loadConfig({
      PODSCOPE_CONFIG: file('b.json', JSON.stringify({ host: '0.0.0.0', tokenFile: tf })),
    });
    expect(d.token).toBe(TOKEN);
  });

  it('the environment wins over the file; PODSCOPE_TOKEN_FILE over the file’s token', () => {
    const cfg = file('c.json', JSON.stringify({ token: 'file-token-0123456789' }));
    expect(loadConfig({ PODSCOPE_CONFIG: cfg, PODSCOPE_TOKEN: TOKEN }).token).toBe(TOKEN);
    expect(loadConfig({ PODSCOPE_CONFIG: cfg, PODSCOPE_TOKEN_FILE: file('t2', TOKEN) }).token).toBe(
      TOKEN,
    );
  });

  it('an unreadable or empty token file is a configuration error, never an open door', () => {
    expect(() => loadConfig({ PODSCOPE_TOKEN_FILE: join(dir, 'missing') })).toThrow(
      /token file .* cannot be read \(ENOENT\)/,
    );
    expect(() => loadConfig({ PODSCOPE_TOKEN_FILE: file('empty', '\n') })).toThrow(/is empty/);
    expect(() =>
      loadConfig({
        PODSCOPE_CONFIG: file('d.json', JSON.stringify({ tokenFile: join(dir, 'nope') })),
      }),
    ).toThrow(ConfigError);
  });
});

describe('bind address (issue 17 item 2)', () => {
  it('refuses an empty PODSCOPE_HOST instead of reading it as unset', () => {
    for (const host of ['', '  '])
      expect(() => loadConfig({ PODSCOPE_HOST: host })).toThrow(/PODSCOPE_HOST: set but empty/);
    expect(() => loadConfig({ PODSCOPE_PORT: '' })).toThrow(/PODSCOPE_PORT: set but empty/);
  });

  it('refuses a host that is not a name or an address', () => {
    for (const host of ['a b', 'http://x', '127.0.0.1:3000', '-x'])
      expect(() => loadConfig({ PODSCOPE_HOST: host, PODSCOPE_TOKEN: TOKEN }), host).toThrow(
        /host: must be a host name or an IP address/,
      );
    for (const host of ['localhost', '::1', '[::1]', 'podscope.example.com', '10.1.2.3'])
      expect(loadConfig({ PODSCOPE_HOST: host, PODSCOPE_TOKEN: TOKEN }).host).toBe(host);
  });
});

describe("sign-in with the cluster's identities (PODSCOPE_AUTH=kubernetes)", () => {
  const kube = { PODSCOPE_AUTH: 'kubernetes', PODSCOPE_KUBECONFIG: '/etc/kubeconfig' };

  it('is off by default; on, it needs an API server and no shared token, and may bind off loopback', () => {
    expect(loadConfig({}).auth).toBe('token');
    expect(loadConfig({ ...kube, PODSCOPE_HOST: '0.0.0.0' })).toMatchObject({
      auth: 'kubernetes',
      host: '0.0.0.0',
      trustedProxies: [],
    });
    expect(
      loadConfig({ PODSCOPE_AUTH: 'kubernetes', KUBERNETES_SERVICE_HOST: '10.0.0.1' }).auth,
    ).toBe('kubernetes');
    expect(() => loadConfig({ PODSCOPE_AUTH: 'kubernetes' })).toThrow(/PODSCOPE_KUBECONFIG/);
    expect(() => loadConfig({ ...kube, PODSCOPE_TOKEN: TOKEN })).toThrow(/one way of signing in/);
    expect(() => loadConfig({ PODSCOPE_AUTH: 'oidc' })).toThrow(/auth/);
    expect(() => loadConfig({ PODSCOPE_AUTH: '' })).toThrow(/PODSCOPE_AUTH: set but empty/);
  });

  it('reads the session key (32+ characters, or from a file) and the trusted proxies', () => {
    const secret = 's'.repeat(40);
    expect(loadConfig({ ...kube, PODSCOPE_SESSION_SECRET: secret }).sessionSecret).toBe(secret);
    expect(
      loadConfig({ ...kube, PODSCOPE_SESSION_SECRET_FILE: file('secret', `${secret}\n`) })
        .sessionSecret,
    ).toBe(secret);
    expect(() => loadConfig({ ...kube, PODSCOPE_SESSION_SECRET: 'short' })).toThrow(/32/);
    expect(() =>
      loadConfig({ ...kube, PODSCOPE_SESSION_SECRET_FILE: join(dir, 'missing') }),
    ).toThrow(/session secret file .* cannot be read/);
    expect(
      loadConfig({ ...kube, PODSCOPE_AUTH_TRUSTED_PROXIES: '10.0.0.0/8, fd00::1' }).trustedProxies,
    ).toEqual(['10.0.0.0/8', 'fd00::1']);
    expect(() => loadConfig({ ...kube, PODSCOPE_AUTH_TRUSTED_PROXIES: 'proxy.local' })).toThrow(
      /proxy.local/,
    );
  });
});

describe('limits and quotas', () => {
  it('have documented defaults and read their variables', () => {
    const d = loadConfig({});
    expect(d.limits).toEqual({
      trpcMaxBatch: 16,
      rangeMaxBytes: 4 * 1024 * 1024,
      importConcurrency: 2,
    });
    expect(d.saved).toEqual({
      maxCount: 200,
      maxBytes: 512 * 1024 * 1024,
      maxAgeMs: 90 * 86_400_000,
    });
    expect(d.allowedHosts).toEqual([]);
    const c = loadConfig({
      PODSCOPE_TRPC_MAX_BATCH: '10',
      PODSCOPE_RANGE_MAX_BYTES: '65536',
      PODSCOPE_IMPORT_CONCURRENCY: '1',
      PODSCOPE_SAVED_MAX_COUNT: '5',
      PODSCOPE_SAVED_MAX_BYTES: '1000000',
      PODSCOPE_SAVED_MAX_AGE_MS: '0',
      PODSCOPE_ALLOWED_HOSTS: 'podscope.example.com, console.lan',
    });
    expect(c.limits).toEqual({ trpcMaxBatch: 10, rangeMaxBytes: 65536, importConcurrency: 1 });
    expect(c.saved).toEqual({ maxCount: 5, maxBytes: 1_000_000, maxAgeMs: 0 });
    expect(c.allowedHosts).toEqual(['podscope.example.com', 'console.lan']);
    // Not below what the console itself batches.
    expect(() => loadConfig({ PODSCOPE_TRPC_MAX_BATCH: '2' })).toThrow(/trpcMaxBatch/);
  });
});

describe('parseNodeSpec', () => {
  it('names a node after its socket', () => {
    expect(parseNodeSpec('unix:///tmp/sim/node-b.sock').name).toBe('node-b');
    expect(parseNodeSpec('unix:///run/containerd/containerd.sock', 0).name).toBe('node-1');
  });
});
