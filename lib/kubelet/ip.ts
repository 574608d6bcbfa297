/**
 * IP addresses as the kubelet reads and writes them.
 *
 * - parseIPSloppy / canonicalIP: k8s.io/utils/net ParseIPSloppy (Go's pre-1.17 parser: IPv4
 *   octets with leading zeros read as decimal) and net.IP.String() (IPv4 and IPv4-mapped IPv6 as
 *   dotted quads; IPv6 lower-case, leading zeros dropped, the longest run of two or more zero
 *   groups — the first on a tie — as `::`). The kubelet writes pod IPs in this canonical form
 *   (kubernetes/kubernetes PR #130101, KEP-4858).
 * - sortPodIPs: pkg/kubelet/kubelet_pods.go sortPodIPs (kubernetes/kubernetes
 *   001a80e975bb880d0fe60b304d30950fe661f278): the first IP of the node's family, then the first
 *   of the other family, canonicalised; unparseable IPs are skipped.
 * - nodeHostIPs: pkg/util/node GetNodeHostIPs — the first InternalIP (else ExternalIP), and the
 *   first address of the other family as the secondary.
 */

export type IPFamily = 4 | 6;

export interface ParsedIP {
  family: IPFamily;
  /** 4 bytes for IPv4 (and IPv4-mapped IPv6), 16 for IPv6. */
  bytes: number[];
}

function parseIPv4(s: string): number[] | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,}$/.test(p) || p.length > 16) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

function parseIPv6(s: string): number[] | undefined {
  if (s.length === 0) return undefined;
  let head = s;
  let tail = '';
  const dbl = s.indexOf('::');
  if (dbl >= 0) {
    if (s.indexOf('::', dbl + 1) >= 0) return undefined;
    head = s.slice(0, dbl);
    tail = s.slice(dbl + 2);
  }
  const groups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const fields = part.split(':');
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i] ?? '';
      if (i === fields.length - 1 && f.includes('.')) {
        const v4 = parseIPv4(f);
        if (!v4) return undefined;
        out.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(f)) return undefined;
      out.push(parseInt(f, 16));
    }
    return out;
  };
  const h = groups(head);
  const t = groups(tail);
  if (!h || !t) return undefined;
  if (dbl < 0 && h.length !== 8) return undefined;
  if (dbl >= 0 && h.length + t.length > 7) return undefined;
  const words = [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  return words.flatMap((w) => [w >> 8, w & 255]);
}

/** ParseIPSloppy: undefined when `s` is not an IP address. */
export function parseIPSloppy(s: string): ParsedIP | undefined {
  if (typeof s !== 'string') return undefined;
  if (s.includes(':')) {
    const bytes = parseIPv6(s);
    if (!bytes) return undefined;
    const mapped =
      bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255;
    return mapped ? { family: 4, bytes: bytes.slice(12) } : { family: 6, bytes };
  }
  const v4 = parseIPv4(s);
  return v4 ? { family: 4, bytes: v4 } : undefined;
}

/** net.IP.String() of a parsed address. */
export function formatIP(ip: ParsedIP): string {
  if (ip.family === 4) return ip.bytes.join('.');
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push(((ip.bytes[i] ?? 0) << 8) | (ip.bytes[i + 1] ?? 0));
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (ws: number[]) => ws.map((w) => w.toString(16)).join(':');
  if (bestStart < 0) return hex(words);
  return `${hex(words.slice(0, bestStart))}::${hex(words.slice(bestStart + bestLen))}`;
}

/**
 * Addresses already read, by their text: a node's host IPs go through canonicalIP and ipFamily,
 * and its pods' IPs through sortPodIPs, for every pod of every relist; an IPv6 parse is not free.
 * Bounded (emptied when full): past that many addresses a read just misses and parses.
 */
const known = new Map<string, { canonical: string | undefined; family: IPFamily | undefined }>();
const KNOWN_MAX = 1_024;

function read(s: string): { canonical: string | undefined; family: IPFamily | undefined } {
  const hit = typeof s === 'string' ? known.get(s) : undefined;
  if (hit) return hit;
  const ip = parseIPSloppy(s);
  const out = { canonical: ip ? formatIP(ip) : undefined, family: ip?.family };
  if (typeof s === 'string' && s.length <= 64) {
    if (known.size >= KNOWN_MAX) known.clear();
    known.set(s, out);
  }
  return out;
}

/** The canonical form of an IP, or undefined when it is not one. */
export function canonicalIP(s: string): string | undefined {
  return read(s).canonical;
}

export function ipFamily(s: string): IPFamily | undefined {
  return read(s).family;
}

/** sortPodIPs: the first IP of the node's family, then the first of the other; canonical. */
export function sortPodIPs(podIPs: readonly string[], nodeIPs?: readonly string[]): string[] {
  const nodeFamily = nodeIPs?.[0] !== undefined ? ipFamily(nodeIPs[0]) : undefined;
  const primary: IPFamily = nodeFamily === 6 ? 6 : 4;
  const secondary: IPFamily = primary === 4 ? 6 : 4;
  // Read through the remembered addresses: a node's pod IPs are the same on every relist.
  const parsed = podIPs.map(read);
  const out: string[] = [];
  for (const family of [primary, secondary]) {
    const found = parsed.find((p) => p.family === family && p.canonical !== undefined);
    if (found?.canonical !== undefined) out.push(found.canonical);
  }
  return out;
}

export interface NodeAddress {
  type: string;
  address: string;
}

/**
 * GetNodeHostIPs: InternalIPs first, then ExternalIPs; the first is primary, the first of the
 * other family secondary. Empty when the node has neither.
 */
export function nodeHostIPs(addresses: readonly NodeAddress[]): string[] {
  const all: ParsedIP[] = [];
  for (const type of ['InternalIP', 'ExternalIP']) {
    for (const a of addresses) {
      if (a?.type !== type) continue;
      const ip = parseIPSloppy(a.address);
      if (ip) all.push(ip);
    }
  }
  const first = all[0];
  if (!first) return [];
  const out = [formatIP(first)];
  const other = all.find((ip) => ip.family !== first.family);
  if (other) out.push(formatIP(other));
  return out;
}

/**
 * The host-network rule of generateAPIPodStatus: a host-network pod without a pod IP takes the
 * node's primary IP; when the node is dual-stack and the pod has one IP, the node's secondary IP
 * is added if it is of the other family.
 */
export function hostNetworkPodIPs(podIPs: readonly string[], hostIPs: readonly string[]): string[] {
  const out = [...podIPs];
  const [primaryHost, secondaryHost] = hostIPs;
  if (out.length === 0 && primaryHost) out.push(primaryHost);
  if (hostIPs.length === 2 && out.length === 1 && secondaryHost) {
    if (ipFamily(out[0] ?? '') !== ipFamily(secondaryHost)) out.push(secondaryHost);
  }
  return out;
}
