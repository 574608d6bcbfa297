/**
 * Ported from kubernetes/kubernetes pkg/kubelet/kubelet_pods_test.go @
 * 001a80e975bb880d0fe60b304d30950fe661f278: TestSortPodIPs (with "Badly-formatted IPs from
 * CRI"), TestGenerateAPIPodStatusPodIPs, TestGenerateAPIPodStatusHostNetworkPodIPs and
 * TestNodeAddressUpdatesGenerateAPIPodStatusHostNetworkPodIPs. The CRI's pod IPs are the ready
 * sandbox's IPs; the Node's addresses go through nodeHostIPs (pkg/util/node GetNodeHostIPs), the
 * kubelet's --node-ip is `nodeIPs`.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { canonicalIP, ipFamily, nodeHostIPs, sortPodIPs, type NodeAddress } from './ip';
import { generateAPIPodStatus } from './status';
import { readySandbox, runtimeOf } from './testing/fixtures';

const podWithUIDNameNs = (hostNetwork = false): V1Pod => ({
  metadata: { uid: '12345', name: 'test-pod', namespace: 'test-namespace' },
  spec: { containers: [], ...(hostNetwork ? { hostNetwork: true } : {}) },
});
const criStatus = (ips: readonly string[] = []) =>
  runtimeOf(
    [],
    [readySandbox({ network: { ip: ips[0] ?? '', additionalIps: [...ips.slice(1)] } })],
  );
const internal = (address: string): NodeAddress => ({ type: 'InternalIP', address });
const external = (address: string): NodeAddress => ({ type: 'ExternalIP', address });
const ips = (s: { podIPs?: { ip: string }[] }) => (s.podIPs ?? []).map((p) => p.ip);

/**
 * TestSortPodIPs' and TestGenerateAPIPodStatusPodIPs' cases (upstream writes the same table
 * twice): name, node IP, the CRI's pod IPs, the pod IPs expected.
 */
const POD_IP_CASES: [string, string, string[], string[]][] = [
  ['Simple', '', ['10.0.0.1'], ['10.0.0.1']],
  ['Dual-stack', '', ['10.0.0.1', 'fd01::1234'], ['10.0.0.1', 'fd01::1234']],
  [
    'Dual-stack with explicit node IP',
    '192.168.1.1',
    ['10.0.0.1', 'fd01::1234'],
    ['10.0.0.1', 'fd01::1234'],
  ],
  [
    'Dual-stack with CRI returning wrong family first',
    '',
    ['fd01::1234', '10.0.0.1'],
    ['10.0.0.1', 'fd01::1234'],
  ],
  [
    'Dual-stack with explicit node IP with CRI returning wrong family first',
    '192.168.1.1',
    ['fd01::1234', '10.0.0.1'],
    ['10.0.0.1', 'fd01::1234'],
  ],
  [
    'Dual-stack with IPv6 node IP',
    'fd00::5678',
    ['10.0.0.1', 'fd01::1234'],
    ['fd01::1234', '10.0.0.1'],
  ],
  [
    'Dual-stack with IPv6 node IP, other CRI order',
    'fd00::5678',
    ['fd01::1234', '10.0.0.1'],
    ['fd01::1234', '10.0.0.1'],
  ],
  ['No Pod IP matching Node IP', 'fd00::5678', ['10.0.0.1'], ['10.0.0.1']],
  ['No Pod IP matching (unspecified) Node IP', '', ['fd01::1234'], ['fd01::1234']],
  ['Multiple IPv4 IPs', '', ['10.0.0.1', '10.0.0.2', '10.0.0.3'], ['10.0.0.1']],
  [
    'Multiple Dual-Stack IPs',
    '',
    ['10.0.0.1', '10.0.0.2', 'fd01::1234', '10.0.0.3', 'fd01::5678'],
    ['10.0.0.1', 'fd01::1234'],
  ],
];

describe('TestSortPodIPs', () => {
  it.each([
    ...POD_IP_CASES,
    [
      'Badly-formatted IPs from CRI',
      '',
      ['010.000.000.001', 'fd01:0:0:0:0:0:0:1234'],
      ['10.0.0.1', 'fd01::1234'],
    ],
  ])('%s', (_, nodeIP, podIPs, expected) => {
    expect(sortPodIPs(podIPs, nodeIP ? [nodeIP] : [])).toEqual(expected);
  });
  it('reads remembered addresses the same way, also once the memory has been emptied', () => {
    const texts = ['010.000.000.001', 'fd01:0:0:0:0:0:0:1234', 'not-an-ip', '::ffff:10.0.0.9'];
    const first = sortPodIPs(texts, ['fd00::1']);
    expect(first).toEqual(['fd01::1234', '10.0.0.1']);
    const again = sortPodIPs(texts, ['fd00::1']);
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
    // More distinct addresses than are remembered: the memory is emptied along the way.
    for (let i = 0; i < 3000; i++) {
      const ip = `10.${(i >> 8) & 255}.${i & 255}.7`;
      expect(sortPodIPs(['bogus', ip])).toEqual([ip]);
    }
    expect(sortPodIPs(texts, ['fd00::1'])).toEqual(first);
    expect(sortPodIPs(['not-an-ip', ''])).toEqual([]);
  });
});

describe('TestGenerateAPIPodStatusPodIPs', () => {
  it.each(POD_IP_CASES)('%s', (_, nodeIP, criPodIPs, expected) => {
    const { status } = generateAPIPodStatus({
      pod: podWithUIDNameNs(),
      runtime: criStatus(criPodIPs),
      now: 0,
      ...(nodeIP ? { hostIPs: [nodeIP] } : {}),
    });
    expect(ips(status)).toEqual(expected);
    expect(status.podIP).toBe(status.podIPs?.[0]?.ip);
  });
});

describe('TestGenerateAPIPodStatusHostNetworkPodIPs', () => {
  it.each([
    ['Simple', [internal('10.0.0.1')], undefined, ['10.0.0.1']],
    [
      'InternalIP is preferred over ExternalIP',
      [external('192.168.0.1'), internal('10.0.0.1')],
      undefined,
      ['10.0.0.1'],
    ],
    [
      'Single-stack addresses in dual-stack cluster',
      [internal('10.0.0.1')],
      undefined,
      ['10.0.0.1'],
    ],
    [
      'Multiple single-stack addresses in dual-stack cluster',
      [internal('10.0.0.1'), internal('10.0.0.2'), external('192.168.0.1')],
      undefined,
      ['10.0.0.1'],
    ],
    [
      'Dual-stack addresses in dual-stack cluster',
      [internal('10.0.0.1'), internal('fd01::1234')],
      undefined,
      ['10.0.0.1', 'fd01::1234'],
    ],
    [
      'CRI PodIPs override NodeAddresses',
      [internal('10.0.0.1'), internal('fd01::1234')],
      ['192.168.0.1'],
      ['192.168.0.1', 'fd01::1234'],
    ],
    [
      'CRI dual-stack PodIPs override NodeAddresses',
      [internal('10.0.0.1'), internal('fd01::1234')],
      ['192.168.0.1', '2001:db8::2'],
      ['192.168.0.1', '2001:db8::2'],
    ],
    [
      'CRI dual-stack PodIPs override NodeAddresses prefer IPv4',
      [internal('10.0.0.1'), internal('fd01::1234')],
      ['2001:db8::2', '192.168.0.1'],
      ['192.168.0.1', '2001:db8::2'],
    ],
  ] as const)('%s', (_, addresses, criPodIPs, expected) => {
    const { status } = generateAPIPodStatus({
      pod: podWithUIDNameNs(true),
      runtime: criStatus(criPodIPs),
      now: 0,
      hostIPs: nodeHostIPs(addresses),
      nodeIPs: [], // the kubelet under test has no --node-ip
      hostIPsSource: 'apiserver',
    });
    expect(ips(status)).toEqual(expected);
    if (criPodIPs === undefined) expect(status.hostIP).toBe(status.podIPs?.[0]?.ip);
  });
});

describe('TestNodeAddressUpdatesGenerateAPIPodStatusHostNetworkPodIPs', () => {
  it.each([
    [
      'Immutable after update node addresses single-stack',
      ['10.0.0.1'],
      [internal('1.1.1.1')],
      ['10.0.0.1'],
    ],
    [
      'Immutable after update node addresses dual-stack - primary address',
      ['10.0.0.1', '2001:db8::2'],
      [internal('1.1.1.1'), internal('2001:db8::2')],
      ['10.0.0.1', '2001:db8::2'],
    ],
    [
      'Immutable after update node addresses dual-stack - secondary address',
      ['10.0.0.1', '2001:db8::2'],
      [internal('10.0.0.1'), internal('2001:db8:1:2:3::2')],
      ['10.0.0.1', '2001:db8::2'],
    ],
    [
      'Immutable after update node addresses dual-stack - primary and secondary address',
      ['10.0.0.1', '2001:db8::2'],
      [internal('1.1.1.1'), internal('2001:db8:1:2:3::2')],
      ['10.0.0.1', '2001:db8::2'],
    ],
    [
      'Update secondary after new secondary address dual-stack',
      ['10.0.0.1'],
      [internal('10.0.0.1'), internal('2001:db8::2')],
      ['10.0.0.1', '2001:db8::2'],
    ],
    [
      'Update secondary after new secondary address dual-stack - reverse order',
      ['2001:db8::2'],
      [internal('10.0.0.1'), internal('2001:db8::2')],
      ['2001:db8::2'],
    ],
  ] as const)('%s', (_, nodeIPs, addresses, expected) => {
    const pod = podWithUIDNameNs(true);
    pod.status = { podIP: nodeIPs[0], podIPs: nodeIPs.map((ip) => ({ ip })) };
    const { status } = generateAPIPodStatus({
      pod,
      runtime: criStatus(nodeIPs),
      now: 0,
      hostIPs: nodeHostIPs(addresses),
      nodeIPs: [...nodeIPs],
    });
    expect(ips(status)).toEqual(expected);
    expect(status.podIPs?.[0]?.ip).toBe(nodeIPs[0]);
  });
});

describe('IP parsing and formatting (ParseIPSloppy, net.IP.String)', () => {
  it.each([
    ['10.0.0.1', '10.0.0.1'],
    ['010.000.000.001', '10.0.0.1'],
    ['FD01:0:0:0:0:0:0:1234', 'fd01::1234'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['::', '::'],
    ['::1', '::1'],
    ['1::', '1::'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['::ffff:10.1.2.3', '10.1.2.3'],
    ['::10.1.2.3', '::a01:203'],
    ['fe80::1', 'fe80::1'],
  ])('%s → %s', (input, out) => expect(canonicalIP(input)).toBe(out));

  it.each([
    '',
    '1.2.3',
    '1.2.3.256',
    '1.2.3.4.5',
    'a.b.c.d',
    '1::2::3',
    ':::',
    '12345::',
    'x',
    '1.2.3.4/24',
  ])('rejects %j', (bad) => expect(canonicalIP(bad)).toBeUndefined());

  it('families', () => {
    expect(ipFamily('10.0.0.1')).toBe(4);
    expect(ipFamily('::ffff:10.0.0.1')).toBe(4);
    expect(ipFamily('fd00::1')).toBe(6);
    expect(ipFamily('nope')).toBeUndefined();
  });

  it('GetNodeHostIPs: InternalIPs before ExternalIPs, one of each family, unparseable skipped', () => {
    expect(nodeHostIPs([])).toEqual([]);
    expect(nodeHostIPs([{ type: 'Hostname', address: 'node-a' }])).toEqual([]);
    expect(nodeHostIPs([external('fd00::9'), internal('not-an-ip'), internal('10.0.0.5')])).toEqual(
      ['10.0.0.5', 'fd00::9'],
    );
  });
});

describe('host IPs and their why', () => {
  it('hostIP/hostIPs from the node, canonical; the why says where they came from', () => {
    const r = generateAPIPodStatus({
      pod: podWithUIDNameNs(),
      runtime: criStatus(['10.88.0.5']),
      now: 0,
      hostIPs: ['192.168.001.010', 'FD00:0:0::1'],
      hostIPsSource: 'configured',
    });
    expect(r.status.hostIP).toBe('192.168.1.10');
    expect(r.status.hostIPs).toEqual([{ ip: '192.168.1.10' }, { ip: 'fd00::1' }]);
    expect(r.why.hostIPs).toMatchObject({
      id: 'pod.hostIPs.configured',
      params: { hostIPs: '192.168.1.10, fd00::1' },
    });
  });

  it('no host IPs: no hostIP, no why', () => {
    const r = generateAPIPodStatus({ pod: podWithUIDNameNs(true), runtime: criStatus(), now: 0 });
    expect(r.status.hostIP).toBeUndefined();
    expect(r.status.podIPs).toBeUndefined();
    expect(r.why.hostIPs).toBeUndefined();
  });
});

describe('canonicalIP and ipFamily read an address once', () => {
  it('answer the same for an address asked again, after many others filled the memory of them', () => {
    const asked = ['::ffff:10.0.0.1', '2001:DB8::0:1', '10.0.0.256', 'not-an-ip', ''];
    const first = asked.map((a) => [canonicalIP(a), ipFamily(a)]);
    expect(first).toEqual([
      ['10.0.0.1', 4],
      ['2001:db8::1', 6],
      [undefined, undefined],
      [undefined, undefined],
      [undefined, undefined],
    ]);
    for (let i = 0; i < 3_000; i++) canonicalIP(`10.${i >> 8}.${i & 255}.7`);
    expect(asked.map((a) => [canonicalIP(a), ipFamily(a)])).toEqual(first);
    expect(asked.map((a) => [canonicalIP(a), ipFamily(a)])).toEqual(first);
  });
});
