/**
 * How a whole ClusterState is stored (checkpoints and saved timelines' initial states): the
 * timeline JSON codec, gzipped once it is big enough for compression to pay. A state is mostly
 * repeated keys and condition texts, so gzip shrinks it several-fold; level 1 because checkpoints
 * are written on the append path and the ratio barely improves at higher levels for this data.
 */
import { constants, createGzip, gunzipSync, gzipSync } from 'node:zlib';
import { encode, type ClusterState } from '@/lib/timeline';
import { fastDecode } from './decode';

export type SnapshotCodec = 'json' | 'json+gzip';

export interface EncodedSnapshot {
  codec: SnapshotCodec;
  body: Buffer;
  /** Size of the JSON before compression: what a seek from this snapshot has to parse. */
  rawBytes: number;
}

/** Below this many bytes a snapshot is stored as plain JSON (gzip's header would be overhead). */
const GZIP_FROM_BYTES = 2048;

export function encodeSnapshot(state: ClusterState): EncodedSnapshot {
  const json = Buffer.from(encode(state), 'utf8');
  if (json.length < GZIP_FROM_BYTES) return { codec: 'json', body: json, rawBytes: json.length };
  return {
    codec: 'json+gzip',
    body: gzipSync(json, { level: constants.Z_BEST_SPEED }),
    rawBytes: json.length,
  };
}

export function decodeSnapshot(codec: string, body: Buffer | Uint8Array): ClusterState {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  switch (codec) {
    case 'json':
      return fastDecode<ClusterState>(bytes.toString('utf8'));
    case 'json+gzip':
      return fastDecode<ClusterState>(gunzipSync(bytes).toString('utf8'));
    default:
      throw new Error(`unknown snapshot codec "${codec}"`);
  }
}

/** Nodes encoded between two pauses by encodeSnapshotInSlices. */
const NODES_PER_SLICE = 25;

/**
 * The state in the `json+gzip` codec, encoded a few nodes at a time with a pause between, and
 * compressed by zlib off the event loop: a 5,000-node state is ~110 MB of JSON, which encoded in
 * one piece held a console's event loop for ~3 s (the cluster's checkpoint keeper).
 */
export async function encodeSnapshotInSlices(state: ClusterState): Promise<EncodedSnapshot> {
  const gzip = createGzip({ level: constants.Z_BEST_SPEED });
  const chunks: Buffer[] = [];
  let rawBytes = 0;
  gzip.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    gzip.on('end', resolve);
    gzip.on('error', reject);
  });
  const write = async (text: string) => {
    rawBytes += Buffer.byteLength(text, 'utf8');
    if (!gzip.write(text)) await new Promise<void>((r) => gzip.once('drain', r));
  };
  await write(`{"seq":${state.seq},"t":${state.t},"nodes":{`);
  let i = 0;
  for (const [name, view] of Object.entries(state.nodes)) {
    await write(`${i > 0 ? ',' : ''}${JSON.stringify(name)}:${encode(view)}`);
    if (++i % NODES_PER_SLICE === 0) await new Promise<void>((r) => setImmediate(r));
  }
  rawBytes += 2;
  gzip.end('}}');
  await done;
  return { codec: 'json+gzip', body: Buffer.concat(chunks), rawBytes };
}
