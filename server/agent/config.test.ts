import { describe, expect, it } from 'vitest';
import { agentConfig } from './config';

describe('agent configuration', () => {
  it('reads flags, with NAME from --cri', () => {
    const c = agentConfig(
      [
        '--cri',
        'n1.example=unix:///run/containerd/containerd.sock',
        '--nats',
        'nats://127.0.0.1:4222',
        '--cluster',
        'prod',
        '--listen',
        '0.0.0.0:9000',
        '--relist',
        '500ms',
      ],
      {},
    );
    expect(c).toMatchObject({
      node: 'n1.example',
      endpoint: 'unix:///run/containerd/containerd.sock',
      nats: 'nats://127.0.0.1:4222',
      cluster: 'prod',
      listen: { host: '0.0.0.0', port: 9000 },
      loopback: false,
    });
    expect(c.timings.relistMs).toBe(500);
    expect(c.kubeletVersion).toBeUndefined();
  });

  it('the node’s kubelet version from --kubelet-version, else PODSCOPE_KUBELET_VERSION', () => {
    const base = ['--cri', 'x=unix:///a.sock', '--nats', 'nats://h:1'];
    expect(agentConfig([...base, '--kubelet-version', 'v1.29.4'], {}).kubeletVersion).toBe(
      'v1.29.4',
    );
    expect(agentConfig(base, { PODSCOPE_KUBELET_VERSION: '1.31' }).kubeletVersion).toBe('1.31');
    expect(() => agentConfig([...base, '--kubelet-version', 'latest'], {})).toThrow(
      /--kubelet-version latest: a kubelet version/,
    );
  });

  it('takes everything from the environment (an image needs no arguments), loopback by default', () => {
    const c = agentConfig([], {
      PODSCOPE_CRI: 'unix:///run/containerd/containerd.sock',
      PODSCOPE_NODE_NAME: 'ip-10-0-0-1.ec2.internal',
      PODSCOPE_NATS_URL: 'nats://nats:4222',
      PODSCOPE_AGENT_OUTBOX_BYTES: '1048576',
    });
    expect(c).toMatchObject({
      node: 'ip-10-0-0-1.ec2.internal',
      cluster: 'default',
      outboxBytes: 1_048_576,
      loopback: true,
    });
    expect(c.listen).toEqual({ host: '127.0.0.1', port: 9464 });
  });

  it.each([
    [[], /--cri/],
    [['--cri', 'x=unix:///a.sock'], /--nats/],
    [['--cri', 'x=unix:///a.sock,y=unix:///b.sock', '--nats', 'nats://h:1'], /one endpoint/],
    [['--cri', 'x=http://h', '--nats', 'nats://h:1'], /unix:\/\/\/path/],
    [['--cri', 'Bad_Name=unix:///a.sock', '--nats', 'nats://h:1'], /DNS-1123/],
    [['--cri', 'x=unix:///a.sock', '--nats', 'http://h'], /nats:\/\//],
    [['--cri', 'x=unix:///a.sock', '--nats', 'nats://h:1', '--cluster', 'A.B'], /DNS label/],
    [['--cri', 'x=unix:///a.sock', '--nats', 'nats://h:1', '--listen', 'nope'], /HOST:PORT/],
    [
      ['--cri', 'x=unix:///a.sock', '--nats', 'nats://h:1', '--outbox-bytes', '10'],
      /at least 4096/,
    ],
    [['--cri', 'x=unix:///a.sock', '--nats', 'nats://h:1', 'extra'], /unexpected argument/],
  ])('refuses %j with a usage error', (args, message) => {
    expect(() => agentConfig(args, {})).toThrow(message);
  });
});
