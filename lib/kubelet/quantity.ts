/**
 * Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource, quantity.go): a signed
 * decimal number followed by a binary SI suffix (Ki Mi Gi Ti Pi Ei), a decimal SI suffix
 * (n u m k M G T P E) or a decimal exponent (e3, E-2). The one parser Podscope has for them:
 * anything outside the grammar is undefined, so a bad value is reported, not guessed.
 */

const FACTORS: Readonly<Record<string, number>> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

const QUANTITY =
  /^\s*([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(?:([eE][+-]?[0-9]+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]))?\s*$/;

/** The quantity's value in base units (bytes for memory, cores for CPU); undefined when invalid. */
export function parseQuantity(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = QUANTITY.exec(value);
  if (!match) return undefined;
  const number = match[1] ?? '';
  if (match[2]) return Number(`${number}${match[2]}`);
  const factor = FACTORS[match[3] ?? ''];
  return factor === undefined ? undefined : Number(number) * factor;
}

/**
 * A container resource in base units: the API server refuses negative requests and limits
 * (ValidateNonnegativeQuantity), so a negative one is as invalid as an unreadable one.
 */
export function resourceQuantity(value: unknown): number | undefined {
  const v = parseQuantity(value);
  return v === undefined || v < 0 ? undefined : v;
}

/** Memory in whole bytes, rounded up as the API does for fractional byte quantities. */
export function memoryBytes(value: unknown): number | undefined {
  const v = resourceQuantity(value);
  return v === undefined ? undefined : Math.ceil(v);
}

/** CPU in millicores, rounded up (resource.Quantity.MilliValue). */
export function milliCpu(value: unknown): number | undefined {
  const v = resourceQuantity(value);
  return v === undefined ? undefined : Math.ceil(v * 1000 - 1e-9);
}
