/**
 * Names on the bus: the stream, its subjects, the KV bucket and its keys, for one cluster.
 *
 *   stream   PODSCOPE_EV_<cluster>            subjects podscope.v1.<cluster>.ev.<node>
 *   KV       PODSCOPE_LIVE_<cluster>          keys     hb.<node> (heartbeat), state.<node>
 *   KV       PODSCOPE_SPECS_<cluster>         keys     <node>.pod.<uid> (a pod's API spec),
 *                                                      <node>.node (the Node's host IPs)
 *
 * The specs bucket is written by the console replica that holds the API-view Lease
 * (spec-publisher.ts) and read by agents; its keys begin with the node so that an agent watches
 * its own node's entries with one filter (`<node>.>`, which nats-server 2.9 can do) and NATS
 * permissions can be narrowed to it.
 *
 * Node names are DNS-1123 subdomains and may contain dots, which NATS reads as token separators;
 * KV keys allow only [-/=.\w]. So a node name becomes one token by `encodeToken`: [A-Za-z0-9_-]
 * stay, every other UTF-8 byte is `=HH` (upper-case hex). Injective and reversible, so a subject
 * names exactly one node and decodeToken gives it back.
 */

const RAW = /^[A-Za-z0-9_-]$/;

export function encodeToken(name: string): string {
  if (name.length === 0) throw new Error('an empty name cannot be a subject token');
  let out = '';
  for (const ch of name) {
    if (RAW.test(ch)) {
      out += ch;
      continue;
    }
    for (const b of Buffer.from(ch, 'utf8'))
      out += `=${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The inverse of encodeToken; undefined for a token encodeToken cannot have produced. */
export function decodeToken(token: string): string | undefined {
  if (!/^(?:[A-Za-z0-9_-]|=[0-9A-F]{2})+$/.test(token)) return undefined;
  const bytes: number[] = [];
  for (let i = 0; i < token.length;) {
    if (token[i] === '=') {
      bytes.push(parseInt(token.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      bytes.push(token.charCodeAt(i));
      i += 1;
    }
  }
  const name = Buffer.from(bytes).toString('utf8');
  // Reject overlong or invalid UTF-8 (it would not round-trip) and escaped raw characters.
  return encodeToken(name) === token ? name : undefined;
}

/** Cluster names are DNS labels: they are used raw in stream, bucket and subject names. */
export const CLUSTER_NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
export const DEFAULT_CLUSTER = 'default';

export function checkClusterName(cluster: string): string {
  if (!CLUSTER_NAME.test(cluster))
    throw new Error(
      `cluster name "${cluster}" is not a DNS label (lower-case letters, digits and '-', at most 63)`,
    );
  return cluster;
}

/** Kubernetes node names: DNS-1123 subdomains, at most 253 characters. */
export const NODE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function checkNodeName(node: string): string {
  if (node.length > 253 || !NODE_NAME.test(node))
    throw new Error(
      `node name "${node}" is not a DNS-1123 subdomain (lower-case letters, digits, '-' and '.')`,
    );
  return node;
}

export interface ClusterNames {
  cluster: string;
  stream: string;
  /** Every event subject of the cluster (the stream's subject and the writer's filter). */
  eventsFilter: string;
  eventSubject(node: string): string;
  /** The node of an event subject, or undefined for a subject not of this cluster's form. */
  nodeOfSubject(subject: string): string | undefined;
  bucket: string;
  heartbeatKey(node: string): string;
  stateKey(node: string): string;
  /** The node of a KV key and which kind of key it is. */
  parseKey(key: string): { kind: 'hb' | 'state'; node: string } | undefined;
  /** The writers' shared durable consumer. */
  writerDurable: string;
  /** The API server's pod specs per node, for the agents (spec-publisher.ts, agent/specs.ts). */
  specsBucket: string;
  podSpecKey(node: string, uid: string): string;
  nodeSpecKey(node: string): string;
  /** Every specs key of one node (the agent's watch filter). */
  specsFilter(node: string): string;
  /** The node of a specs key and what it holds; undefined for a key not of that form. */
  parseSpecKey(
    key: string,
  ): { kind: 'pod'; node: string; uid: string } | { kind: 'node'; node: string } | undefined;
}

export function clusterNames(cluster: string): ClusterNames {
  checkClusterName(cluster);
  const prefix = `podscope.v1.${cluster}.ev.`;
  return {
    cluster,
    stream: `PODSCOPE_EV_${cluster}`,
    eventsFilter: `${prefix}>`,
    eventSubject: (node) => prefix + encodeToken(node),
    nodeOfSubject(subject) {
      if (!subject.startsWith(prefix)) return undefined;
      const token = subject.slice(prefix.length);
      return token.includes('.') ? undefined : decodeToken(token);
    },
    bucket: `PODSCOPE_LIVE_${cluster}`,
    heartbeatKey: (node) => `hb.${encodeToken(node)}`,
    stateKey: (node) => `state.${encodeToken(node)}`,
    parseKey(key) {
      const m = /^(hb|state)\.([^.]+)$/.exec(key);
      if (!m) return undefined;
      const node = decodeToken(m[2] as string);
      return node === undefined ? undefined : { kind: m[1] as 'hb' | 'state', node };
    },
    writerDurable: 'podscope-writer',
    specsBucket: `PODSCOPE_SPECS_${cluster}`,
    podSpecKey: (node, uid) => `${encodeToken(node)}.pod.${encodeToken(uid)}`,
    nodeSpecKey: (node) => `${encodeToken(node)}.node`,
    specsFilter: (node) => `${encodeToken(node)}.>`,
    parseSpecKey(key) {
      const m = /^([^.]+)\.(?:node|pod\.([^.]+))$/.exec(key);
      const node = m ? decodeToken(m[1] as string) : undefined;
      if (!m || node === undefined) return undefined;
      if (m[2] === undefined) return { kind: 'node', node };
      const uid = decodeToken(m[2]);
      return uid === undefined ? undefined : { kind: 'pod', node, uid };
    },
  };
}
