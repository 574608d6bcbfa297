import { describe, expect, it } from 'vitest';
import { hostAllowed, hostnameOf, originAllowed } from './hosts';

const local = () => new Set(['10.0.0.5', 'fe80::1', 'box']);
const loopback = { bindHost: '127.0.0.1', allowedHosts: [] };
const wide = { bindHost: '0.0.0.0', allowedHosts: ['podscope.example.com'] };

describe('hostnameOf', () => {
  it('strips the port and brackets, lower-cases, refuses junk', () => {
    expect(hostnameOf('LocalHost:3000')).toBe('localhost');
    expect(hostnameOf('[::1]:3000')).toBe('::1');
    expect(hostnameOf('example.com.')).toBe('example.com');
    expect(hostnameOf('a b')).toBeUndefined();
    expect(hostnameOf('x:port')).toBeUndefined();
    expect(hostnameOf('')).toBeUndefined();
  });
});

describe('hostAllowed', () => {
  it('on loopback: loopback names only (a rebound name is refused)', () => {
    for (const h of [
      '127.0.0.1:3000',
      'localhost:3000',
      '[::1]:3000',
      'app.localhost',
      '127.5.0.1',
    ])
      expect(hostAllowed(h, loopback, local), h).toBe(true);
    for (const h of ['attacker.example:3000', '10.0.0.5:3000', 'box', undefined, null, ''])
      expect(hostAllowed(h, loopback, local), String(h)).toBe(false);
  });

  it('bound wide: also this machine’s addresses and name, and the allow-list', () => {
    for (const h of ['10.0.0.5:3000', '[fe80::1]:3000', 'box:3000', 'PODSCOPE.example.com'])
      expect(hostAllowed(h, wide, local), h).toBe(true);
    expect(hostAllowed('attacker.example', wide, local)).toBe(false);
    expect(hostAllowed('0.0.0.0:3000', wide, local)).toBe(false);
  });

  it('bound to a name: that name', () => {
    const named = { bindHost: 'console.lan', allowedHosts: [] };
    expect(hostAllowed('console.lan:3000', named, local)).toBe(true);
    expect(hostAllowed('other.lan:3000', named, local)).toBe(false);
  });
});

describe('originAllowed', () => {
  it('no Origin (not a browser) or the very same host and port', () => {
    expect(originAllowed(undefined, '127.0.0.1:3000', loopback, local)).toBe(true);
    expect(originAllowed('http://127.0.0.1:3000', '127.0.0.1:3000', loopback, local)).toBe(true);
    expect(originAllowed('http://localhost', 'localhost:80', loopback, local)).toBe(true);
  });

  it('refuses other sites, other ports, "null" and non-web schemes', () => {
    for (const o of [
      'http://attacker.example:3000',
      'http://127.0.0.1:8080',
      'http://localhost:3000',
      'null',
      'file://',
      'chrome-extension://abc',
    ])
      expect(originAllowed(o, '127.0.0.1:3000', loopback, local), o).toBe(false);
  });

  it('a proxied public name is accepted whatever Host the proxy forwards', () => {
    expect(originAllowed('https://podscope.example.com', '127.0.0.1:3000', wide, local)).toBe(true);
  });
});
