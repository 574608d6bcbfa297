/**
 * How a whole ClusterState is stored (checkpoints and saved timelines' initial states): the
 * timeline JSON codec, gzipped once it is big enough for compression to pay. A state is mostly
 * repeated keys and condition texts, so gzip shrinks it several-fold; level 1 because checkpoints
 * are written on the append path and the ratio barely improves at higher levels for this data.
 */
import { gunzipSync, gzipSync, constants } from 'node:zlib';
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
