/**
 * Durations and sizes as busybox reads them, plus the friendlier forms the catalogue uses.
 *
 * - sleep: seconds with optional fraction and suffix s/m/h/d (busybox FEATURE_FANCY_SLEEP),
 *   several arguments add up, `inf`/`infinity` sleeps forever.
 * - dd bs=: integer with suffix c=1, w=2, b=512, kB=1000, k/K=1024, MB=1e6, M=2^20, GB=1e9,
 *   G=2^30 (busybox xatoul_sfx with dd's suffix table).
 * - catalogue parameters also accept "500ms" and Kubernetes quantities (Mi, Gi, Ki).
 */

/** Milliseconds, Infinity for "forever", undefined when unreadable. */
export function parseSleepSeconds(arg: string): number | undefined {
  const m = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/.exec(arg);
  if (!m) {
    return /^(inf|infinity)$/i.test(arg) ? Infinity : undefined;
  }
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] ?? ''] ?? 1;
  return Number(m[1]) * unit * 1000;
}

/** A catalogue duration: "500ms", "10s", "2m", "1h", or bare seconds. */
export function parseDurationMs(arg: string): number | undefined {
  const ms = /^(\d+(?:\.\d+)?)ms$/.exec(arg);
  if (ms) return Number(ms[1]);
  return parseSleepSeconds(arg);
}

const DD_SUFFIXES: Readonly<Record<string, number>> = {
  '': 1,
  c: 1,
  w: 2,
  b: 512,
  kB: 1000,
  k: 1024,
  K: 1024,
  MB: 1_000_000,
  M: 1024 ** 2,
  GB: 1_000_000_000,
  G: 1024 ** 3,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
};

/** Bytes, undefined when unreadable. */
export function parseSize(arg: string): number | undefined {
  const m = /^(\d+)([A-Za-z]*)$/.exec(arg);
  if (!m) return undefined;
  const mult = DD_SUFFIXES[m[2] ?? ''];
  return mult === undefined ? undefined : Number(m[1]) * mult;
}
