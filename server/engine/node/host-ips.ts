/**
 * Where a node's host IPs (pod status hostIP/hostIPs, and a host-network pod's IPs) come from,
 * most trusted first, as the kubelet would have them:
 * 1. the API server's Node object (its addresses through GetNodeHostIPs) when Podscope is joined;
 * 2. configured for the node (PODSCOPE_NODE_IP, like a kubelet's --node-ip);
 * 3. detected: this machine's first non-loopback IPv4 and IPv6 addresses — right for runtimes on
 *    local unix sockets (the embedded simulated nodes, a local containerd), a guess otherwise.
 * The source goes into the pod's why.
 */
import { networkInterfaces } from 'node:os';
import type { HostIPsSource } from '@/lib/kubelet';
import { canonicalIP, ipFamily } from '@/lib/kubelet/ip';
import type { HintProvider } from '../hints';

export interface HostIPs {
  ips: string[];
  source: HostIPsSource;
}

/** The host's own addresses: first non-internal IPv4, then first global IPv6. */
export function detectHostIPs(
  interfaces: ReturnType<typeof networkInterfaces> = networkInterfaces(),
): string[] {
  const all = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((a) => !a.internal);
  const v4 = all.find((a) => a.family === 'IPv4');
  const v6 = all.find((a) => a.family === 'IPv6' && !a.address.toLowerCase().startsWith('fe80'));
  return [v4?.address, v6?.address]
    .map((a) => (a ? canonicalIP(a) : undefined))
    .filter((a): a is string => a !== undefined);
}

/**
 * PODSCOPE_NODE_IP: comma-separated `IP` (every node) or `NODE=IP` (one node); give a node two
 * entries for dual-stack. Throws on an entry that is not an IP.
 */
export function parseNodeIPs(value: string): { all: string[]; byNode: Record<string, string[]> } {
  const all: string[] = [];
  const byNode: Record<string, string[]> = {};
  for (const raw of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = raw.indexOf('=');
    const node = eq >= 0 ? raw.slice(0, eq).trim() : '';
    const ip = canonicalIP(eq >= 0 ? raw.slice(eq + 1).trim() : raw);
    if (!ip) throw new Error(`PODSCOPE_NODE_IP: "${raw}" is not an IP address (IP or NODE=IP)`);
    const list = node ? (byNode[node] ??= []) : all;
    if (list.length >= 2 || list.some((x) => ipFamily(x) === ipFamily(ip))) {
      throw new Error(
        `PODSCOPE_NODE_IP: ${node || 'every node'} has more than one IP of one family ("${raw}")`,
      );
    }
    list.push(ip);
  }
  return { all, byNode };
}

/** The host IPs for `node`: API server, else configured, else detected; undefined when none. */
export function resolveHostIPs(
  node: string,
  providers: readonly HintProvider[],
  configured: readonly string[] | undefined,
  detected: readonly string[] | undefined,
): HostIPs | undefined {
  for (const p of providers) {
    const ips = p.hostIPsFor?.(node);
    if (ips && ips.length > 0) return { ips: [...ips], source: 'apiserver' };
  }
  if (configured && configured.length > 0) return { ips: [...configured], source: 'configured' };
  if (detected && detected.length > 0) return { ips: [...detected], source: 'detected' };
  return undefined;
}
