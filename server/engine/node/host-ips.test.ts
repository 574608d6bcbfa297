import { describe, expect, it } from 'vitest';
import type { HintProvider } from '../hints';
import { detectHostIPs, parseNodeIPs, resolveHostIPs } from './host-ips';

describe('PODSCOPE_NODE_IP', () => {
  it('IP for every node, NODE=IP for one; canonical; one per family', () => {
    expect(parseNodeIPs('10.0.0.1, node-b=192.168.001.002,node-b=FD00::2')).toEqual({
      all: ['10.0.0.1'],
      byNode: { 'node-b': ['192.168.1.2', 'fd00::2'] },
    });
    expect(parseNodeIPs('')).toEqual({ all: [], byNode: {} });
  });
  it('refuses what is not an IP, and two IPs of one family', () => {
    expect(() => parseNodeIPs('node-a=nope')).toThrow(/"node-a=nope" is not an IP address/);
    expect(() => parseNodeIPs('10.0.0.1,10.0.0.2')).toThrow(/more than one IP of one family/);
  });
});

describe('resolveHostIPs', () => {
  const api = (ips: string[] | undefined): HintProvider => ({
    name: 'apiserver',
    hintsFor: () => undefined,
    hostIPsFor: () => ips,
  });
  it('API server, then configured, then detected', () => {
    expect(resolveHostIPs('n', [api(['1.1.1.1'])], ['2.2.2.2'], ['3.3.3.3'])).toEqual({
      ips: ['1.1.1.1'],
      source: 'apiserver',
    });
    expect(resolveHostIPs('n', [api(undefined)], ['2.2.2.2'], ['3.3.3.3'])?.source).toBe(
      'configured',
    );
    expect(resolveHostIPs('n', [], [], ['3.3.3.3'])?.source).toBe('detected');
    expect(resolveHostIPs('n', [], [], [])).toBeUndefined();
  });
});

describe('detectHostIPs', () => {
  it('first non-internal IPv4, then the first global IPv6', () => {
    const iface = (address: string, family: 'IPv4' | 'IPv6', internal = false) => ({
      address,
      family,
      internal,
      netmask: '',
      mac: '',
      cidr: null,
      ...(family === 'IPv6' ? { scopeid: 0 } : {}),
    });
    expect(
      detectHostIPs({
        lo: [iface('127.0.0.1', 'IPv4', true), iface('::1', 'IPv6', true)],
        eth0: [iface('fe80::1', 'IPv6'), iface('10.0.2.15', 'IPv4'), iface('2001:db8::15', 'IPv6')],
      } as never),
    ).toEqual(['10.0.2.15', '2001:db8::15']);
    expect(detectHostIPs({ lo: [iface('127.0.0.1', 'IPv4', true)] } as never)).toEqual([]);
  });
});
