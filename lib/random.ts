/**
 * The one seeded random generator of the project: the simulator's ids, latency draws and stats
 * wander, the demo workload, synthetic timelines and the benchmarks' churn all draw from it.
 * sfc32 seeded through a string hash: small, fast, and the same sequence on every platform for
 * the same seed. Pure and isomorphic.
 */

/** xmur3-style string hash → 32-bit seeds. */
function hashSeed(text: string): () => number {
  let h = 1779033703 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  return () => {
    h = Math.imul(h ^ (h >>> 16), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    h ^= h >>> 16;
    return h >>> 0;
  };
}

export interface Random {
  /** Uniform in [0, 1). Functions, not methods: each may be passed on alone. */
  next: () => number;
  /** Uniform integer in [min, max]. */
  int: (min: number, max: number) => number;
  /** Standard normal (Box–Muller). */
  normal: () => number;
  /** `bytes` random bytes as lowercase hex. */
  hex: (bytes: number) => string;
  /** An independent stream derived from this one's seed and a label. */
  fork: (label: string) => Random;
}

export function createRandom(seed: string | number): Random {
  const seedText = String(seed);
  const s = hashSeed(seedText);
  let a = s();
  let b = s();
  let c = s();
  let d = s();
  const next = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    normal: () => {
      const u = 1 - next();
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    hex: (bytes) => {
      let out = '';
      for (let i = 0; i < bytes; i++)
        out += Math.floor(next() * 256)
          .toString(16)
          .padStart(2, '0');
      return out;
    },
    fork: (label) => createRandom(`${seedText}/${label}`),
  };
}

/** A stable pseudo-random number in [0, 1) for (key, bucket) — stats wander without state. */
export function noise(key: string, bucket: number): number {
  return hashSeed(`${key}#${bucket}`)() / 4294967296;
}
