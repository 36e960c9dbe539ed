/**
 * A Kubernetes resource quantity (`500m`, `1Gi`, `2e3`) as a number: enough to compare a request with a limit or
 * tell a zero, not the exact decimal arithmetic of apimachinery's Quantity (which the test server does not need).
 */
const SUFFIXES: Readonly<Record<string, number>> = {
  n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

/** The value of a quantity; NaN when the text is not one. */
export function quantityValue(value: unknown): number {
  const match = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:[eE]([+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$/.exec(String(value));
  if (match === null) return Number.NaN;
  const [, number = '', exponent, suffix = ''] = match;
  return Number(number) * (exponent === undefined ? (SUFFIXES[suffix] ?? Number.NaN) : 10 ** Number(exponent));
}

