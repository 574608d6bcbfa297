/**
 * Kubernetes resource quantities (k8s.io/apimachinery resource.Quantity), the subset a pod spec
 * uses for memory and CPU: plain numbers, exponents (1e3), decimal SI suffixes (k M G T P E),
 * binary suffixes (Ki Mi Gi Ti Pi Ei) and milli (`m`, CPU). Returns undefined for anything else,
 * so a bad value is reported, not guessed.
 */

const BINARY: Readonly<Record<string, number>> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const DECIMAL: Readonly<Record<string, number>> = {
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/** The quantity's value in base units (bytes for memory, cores for CPU). */
export function parseQuantity(value: string | number | undefined): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match =
    /^\s*\+?([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:([eE][+-]?[0-9]+)|(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E))?\s*$/.exec(
      value,
    );
  if (!match) return undefined;
  const base = Number(match[1]);
  if (match[2]) return base * 10 ** Number(match[2].slice(1));
  const suffix = match[3] ?? '';
  const factor = BINARY[suffix] ?? DECIMAL[suffix];
  return factor === undefined ? undefined : base * factor;
}

/** Memory in whole bytes, rounded up as the API does for fractional byte quantities. */
export function memoryBytes(value: string | number | undefined): number | undefined {
  const v = parseQuantity(value);
  return v === undefined ? undefined : Math.ceil(v);
}

/** CPU in millicores, rounded up (resource.Quantity.MilliValue). */
export function milliCpu(value: string | number | undefined): number | undefined {
  const v = parseQuantity(value);
  return v === undefined ? undefined : Math.ceil(v * 1000 - 1e-9);
}
