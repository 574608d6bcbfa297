/**
 * The limits a timeline file must stay within. They bound what an imported file can cost (memory,
 * time, database space, screen space) before anything is stored or drawn; a file beyond any of
 * them is refused as a whole with a located error.
 *
 * The text limits for title, notes, annotations and entities match server/timeline-db's LIMITS for
 * saved timelines, so every file accepted here can be stored and every stored timeline exports
 * into a file accepted here.
 */
export interface FileLimits {
  /** Uncompressed UTF-8 bytes of the whole document (also the cap on what a gzip may expand to). */
  maxBytes: number;
  /** Compressed bytes accepted before decompression. */
  maxCompressedBytes: number;
  maxEvents: number;
  /** Nesting depth of the JSON document (objects and arrays). */
  maxDepth: number;
  /** Any array other than `events`. */
  maxArrayLength: number;
  /** Keys of any one object (e.g. pods on a node). */
  maxObjectKeys: number;
  /** Any string anywhere, in UTF-16 units; fields below have tighter limits. */
  maxStringChars: number;
  maxKeyChars: number;
  /** Names (node, pod, namespace, container, condition type): a DNS subdomain is at most 253. */
  nameChars: number;
  /** Ids (pod uid, container and sandbox ids, explanation ids). */
  idChars: number;
  /** Reasons, image references, endpoints, short free text. */
  shortTextChars: number;
  /** Messages (container state, condition, errors, API Events). */
  messageChars: number;
  titleChars: number;
  notesBytes: number;
  annotationBytes: number;
  entityChars: number;
  authorChars: number;
  annotations: number;
  /** Issues listed in one error before "and N more". */
  maxIssues: number;
}

export const DEFAULT_LIMITS: Readonly<FileLimits> = {
  maxBytes: 50 * 1024 * 1024,
  maxCompressedBytes: 50 * 1024 * 1024,
  maxEvents: 500_000,
  maxDepth: 32,
  maxArrayLength: 10_000,
  maxObjectKeys: 20_000,
  maxStringChars: 65_536,
  maxKeyChars: 512,
  nameChars: 253,
  idChars: 256,
  shortTextChars: 1_024,
  messageChars: 32_768,
  titleChars: 200,
  notesBytes: 64 * 1024,
  annotationBytes: 16 * 1024,
  entityChars: 512,
  authorChars: 200,
  annotations: 1_000,
  maxIssues: 20,
};

export function withLimits(over: Partial<FileLimits> | undefined): FileLimits {
  return { ...DEFAULT_LIMITS, ...over };
}

const MIB = 1024 * 1024;

/** "50 MiB (52428800 bytes)": how an error names a byte limit. */
export function describeBytes(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB (${bytes} bytes)` : `${bytes} bytes`;
}

/**
 * The largest request body any route accepts: a timeline file of `maxBytes` sent to the
 * `timelines.import` procedure as base64 text (4/3 of its size) inside a small JSON envelope.
 * The request proxy must let bodies this large through whole (next.config.ts).
 */
export const MAX_REQUEST_BYTES = Math.ceil((DEFAULT_LIMITS.maxBytes * 4) / 3) + 64 * 1024;
