/**
 * Kubernetes resource quantities (`500m`, `1Gi`, `1e3`) as apimachinery's `resource.Quantity` reads and writes them:
 * parsed exactly (a decimal value and a format from the suffix), written in its canonical form (`0.5` → `500m`,
 * `1024Mi` → `1Gi`, `1.5Gi` → `1536Mi`), except that a text already in canonical form is written back as given, as
 * Go keeps it (`01`, `+2` and `1E6` stay). The API server stores quantities of built-in kinds in that form, so a
 * manifest's `cpu: 0.5` comes back `500m`: the runtime compares quantities by value, the test API server writes them
 * as kube-apiserver does. Checked against Go's own output (test/util/quantity.test.ts).
 */

/** How a quantity is written: decimal SI suffixes (`m`, `k`, `M`…), binary ones (`Ki`, `Mi`…) or an exponent (`e3`). */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** A parsed quantity: `unscaled × 10^exponent`, its format, and the text Go keeps when it was canonical already. */
export interface Quantity {
  readonly unscaled: bigint;
  readonly exponent: number;
  readonly format: QuantityFormat;
  readonly text?: string;
}

/** Go's message for a text that is not a quantity. */
export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const DECIMAL_SUFFIXES: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const NANO = -9;
/** The decimal digits an int64 always holds: apimachinery's fast path takes numbers of at most this many. */
const INT64_DIGITS = 18;
const INT64_MAX = 2n ** 63n - 1n;

interface Parts {
  readonly negative: boolean;
  /** Whether any digit precedes the suffix (Go's exact path refuses a number without one). */
  readonly digits: boolean;
  /** The digits before the point, without leading zeros ('0' when none). */
  readonly whole: string;
  /** The digits after the point. */
  readonly fraction: string;
  readonly suffix: string;
}

/** Splits a quantity's text as Go's parseQuantityString does; undefined when it does not have that form. */
function split(text: string): Parts | undefined {
  const match = /^([+-]?)0*([0-9]*)(?:\.([0-9]*))?([eEinumkKMGTP]*[-+]?[0-9]*)$/.exec(text);
  if (match === null) return undefined;
  const [, sign = '', whole = '', fraction = '', suffix = ''] = match;
  // Go reads the suffix as letters, then one sign, then digits.
  if (!/^[eEinumkKMGTP]*(?:[-+]?[0-9]+|[-+]?)$/.test(suffix)) return undefined;
  return { negative: sign === '-', digits: /[0-9]/.test(text.slice(0, text.length - suffix.length)), whole: whole === '' ? '0' : whole, fraction, suffix };
}

/** The base, exponent and format of a suffix, as apimachinery's suffixer interprets it. */
function interpret(suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } | undefined {
  const decimal = DECIMAL_SUFFIXES[suffix];
  if (decimal !== undefined) return { base: 10, exponent: decimal, format: 'DecimalSI' };
  const binary = BINARY_SUFFIXES[suffix];
  if (binary !== undefined) return { base: 2, exponent: binary, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[-+]?[0-9]+$/.test(suffix.slice(1))) {
    return { base: 10, exponent: Number(suffix.slice(1)), format: 'DecimalExponent' };
  }
  return undefined;
}

/** `value` rounded away from zero to a multiple of 10^`exponent` (the value and the result as unscaled × 10^e). */
function roundAway(unscaled: bigint, from: number, to: number): bigint {
  if (from >= to) return unscaled * 10n ** BigInt(from - to);
  const divisor = 10n ** BigInt(to - from);
  const quotient = unscaled / divisor;
  if (quotient * divisor === unscaled) return quotient;
  return unscaled < 0n ? quotient - 1n : quotient + 1n;
}

/** Parses a quantity as apimachinery's ParseQuantity does; undefined for a text it refuses. */
export function parseQuantity(text: string): Quantity | undefined {
  if (text === '') return undefined;
  if (text === '0') return { unscaled: 0n, exponent: 0, format: 'DecimalSI', text };
  const parts = split(text);
  if (parts === undefined) return undefined;
  const kind = interpret(parts.suffix);
  if (kind === undefined) return undefined;
  const digits = parts.whole + parts.fraction;
  // The int64 fast path, which keeps a text already in canonical form.
  const precision =
    kind.base === 10
      ? INT64_DIGITS - digits.length
      : kind.exponent >= 0 && parts.fraction === ''
        ? 15 - parts.whole.length - Math.trunc(Math.fround((kind.exponent * 3) / 10)) - 1
        : -1;
  const scale = (kind.base === 10 ? kind.exponent : 0) - parts.fraction.length;
  if (precision >= 0 && scale >= NANO) {
    const value = BigInt(digits);
    const product = kind.base === 2 ? value << BigInt(kind.exponent) : value;
    if (product <= INT64_MAX) {
      const unscaled = parts.negative ? -product : product;
      const canonical = kind.base === 2 ? kind.exponent % 10 === 0 && (value & 7n) !== 0n : scale % 3 === 0 && !digits.endsWith('000') && digits[0] !== '0';
      return canonical ? { unscaled, exponent: scale, format: kind.format, text } : { unscaled, exponent: scale, format: kind.format };
    }
  }
  // The exact path: a decimal, times the binary suffix, rounded up to nano; a binary one at most int64's largest.
  if (!parts.digits) return undefined;
  let unscaled = BigInt(digits);
  let exponent = -parts.fraction.length;
  if (kind.base === 10) exponent += kind.exponent;
  else unscaled <<= BigInt(kind.exponent);
  if (unscaled !== 0n && exponent < NANO) {
    unscaled = roundAway(unscaled, exponent, NANO);
    exponent = NANO;
  }
  const over = exponent >= 0 ? unscaled * 10n ** BigInt(exponent) > INT64_MAX : unscaled > INT64_MAX * 10n ** BigInt(-exponent);
  if (kind.format === 'BinarySI' && over) {
    unscaled = INT64_MAX;
    exponent = 0;
  }
  // A binary quantity below one is written in decimal.
  const below = unscaled !== 0n && exponent < 0 && unscaled < 10n ** BigInt(-exponent);
  const format = kind.format === 'BinarySI' && below ? 'DecimalSI' : kind.format;
  return { unscaled: parts.negative ? -unscaled : unscaled, exponent, format };
}

/** The quantity rounded up to a multiple of 10^`exponent` (apimachinery's RoundUp), dropping a kept text if it rounds. */
export function roundUpQuantity(quantity: Quantity, exponent: number): Quantity {
  if (quantity.exponent >= exponent) return quantity;
  return { unscaled: roundAway(quantity.unscaled, quantity.exponent, exponent), exponent, format: quantity.format };
}

/** Removes the factors `base` of `value` (not zero), answering what is left and how many there were. */
function removeFactors(value: bigint, base: bigint): [bigint, number] {
  let times = 0;
  while (value % base === 0n) {
    value /= base;
    times += 1;
  }
  return [value, times];
}

/** The value as an integer, when it is one. */
function integerOf(quantity: Quantity): bigint | undefined {
  if (quantity.exponent >= 0) return quantity.unscaled * 10n ** BigInt(quantity.exponent);
  const divisor = 10n ** BigInt(-quantity.exponent);
  return quantity.unscaled % divisor === 0n ? quantity.unscaled / divisor : undefined;
}

const DECIMAL_SUFFIX_OF = new Map(Object.entries(DECIMAL_SUFFIXES).map(([suffix, exponent]) => [exponent, suffix]));
const BINARY_SUFFIX_OF = new Map([[0, ''], ...Object.entries(BINARY_SUFFIXES).map(([suffix, exponent]) => [exponent, suffix] as const)]);

/** The text apimachinery writes for a quantity: the kept text, else its canonical form (Quantity.String()). */
export function formatQuantity(quantity: Quantity): string {
  if (quantity.text !== undefined) return quantity.text;
  if (quantity.unscaled === 0n) return '0';
  let format = quantity.format;
  const integer = integerOf(quantity);
  if (format === 'BinarySI' && (integer === undefined || (integer > -1024n && integer < 1024n))) format = 'DecimalSI';
  if (format === 'BinarySI' && integer !== undefined) {
    const [amount, times] = removeFactors(integer, 1024n);
    return `${amount}${BINARY_SUFFIX_OF.get(times * 10) ?? ''}`;
  }
  let [amount, times] = removeFactors(quantity.unscaled, 10n);
  let exponent = quantity.exponent + times;
  while (exponent % 3 !== 0) {
    amount *= 10n;
    exponent -= 1;
  }
  if (format === 'DecimalExponent') return exponent === 0 ? `${amount}` : `${amount}e${exponent}`;
  return `${amount}${DECIMAL_SUFFIX_OF.get(exponent) ?? ''}`;
}

/** The text of a JSON value where a quantity is expected (a string, or a number written as JSON writes it). */
export function quantityText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return JSON.stringify(value);
  return undefined;
}

/** The quantity a JSON value holds, or undefined when it holds none. */
export function quantityOf(value: unknown): Quantity | undefined {
  const text = quantityText(value);
  return text === undefined ? undefined : parseQuantity(text);
}

/** -1, 0 or 1 as `left` is below, equal to or above `right` by value. */
export function compareParsed(left: Quantity, right: Quantity): -1 | 0 | 1 {
  const common = Math.min(left.exponent, right.exponent);
  const x = left.unscaled * 10n ** BigInt(left.exponent - common);
  const y = right.unscaled * 10n ** BigInt(right.exponent - common);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** -1, 0 or 1 as `a` is below, equal to or above `b` by value; undefined when one is not a quantity. */
export function compareQuantities(a: unknown, b: unknown): -1 | 0 | 1 | undefined {
  const left = quantityOf(a);
  const right = quantityOf(b);
  return left === undefined || right === undefined ? undefined : compareParsed(left, right);
}

/** Whether a quantity is a whole number (what counted and extended resources, and bytes, must be). */
export function isWholeQuantity(quantity: Quantity): boolean {
  return integerOf(quantity) !== undefined;
}
