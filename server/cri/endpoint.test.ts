import { describe, expect, it } from 'vitest';
import { EndpointError, parseEndpoint } from './endpoint';

describe('parseEndpoint', () => {
  it('accepts unix:///path and a bare path', () => {
    expect(parseEndpoint('unix:///run/containerd/containerd.sock')).toEqual({
      endpoint: 'unix:///run/containerd/containerd.sock',
      target: 'unix:///run/containerd/containerd.sock',
      kind: 'unix',
      address: '/run/containerd/containerd.sock',
    });
    expect(parseEndpoint('/tmp/x.sock').endpoint).toBe('unix:///tmp/x.sock');
  });
  it('accepts tcp://host:port, IPv6 in brackets', () => {
    expect(parseEndpoint('tcp://127.0.0.1:7777')).toMatchObject({
      target: '127.0.0.1:7777',
      kind: 'tcp',
    });
    expect(parseEndpoint('tcp://[::1]:7777/').target).toBe('[::1]:7777');
  });
  it('rejects what it cannot dial, naming the input', () => {
    for (const bad of [
      'unix://relative.sock',
      'tcp://host',
      'tcp://h:0',
      'tcp://h:70000',
      'http://x:1',
      'x.sock',
      '',
    ]) {
      expect(() => parseEndpoint(bad)).toThrow(EndpointError);
    }
    expect(() => parseEndpoint('npipe://x')).toThrow(/npipe:\/\/x/);
  });
});
