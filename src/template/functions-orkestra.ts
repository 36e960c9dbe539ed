/**
 * Orkestra's template functions ("notes"), for documents with an Orkestra apiVersion (see dialect.ts).
 * Behaviour follows Orkestra's note package; each difference from katalog's Sprig functions is listed in
 * docs/orkestra-compatibility.md. Random functions use node:crypto and the clock notes read the render's time
 * (functions-orkestra-clock.ts); the rest are pure.
 *
 * Differences from the katalog dialect that matter:
 * - `ternary COND A B` (condition first), where Sprig has `ternary A B COND`.
 * - `default`/`empty`/`coalesce` also treat the text `<no value>` as empty (what Go prints for a missing key).
 * - `toInt`-style numbers: Kubernetes integers arrive as numbers; a missing value counts as 0.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { FunctionFailure } from './failure.js';
import { fixed, variadic, type TemplateFunction } from './function-type.js';
import { ORKESTRA_FORMAT_FUNCTIONS } from './functions-orkestra-formats.js';
import { ORKESTRA_KUBE_FUNCTIONS } from './functions-orkestra-kube.js';
import { ORKESTRA_OBJECT_FUNCTIONS } from './functions-orkestra-objects.js';
import { ORKESTRA_ENRICHED_FUNCTIONS } from './functions-orkestra-enriched.js';
import { ORKESTRA_POD_FUNCTIONS } from './functions-orkestra-pods.js';
import { ORKESTRA_PROM_FUNCTIONS } from './functions-orkestra-prom.js';
import { ORKESTRA_STRING_FUNCTIONS } from './functions-orkestra-strings.js';
import { ORKESTRA_TIME_FUNCTIONS } from './functions-orkestra-time.js';
import { ORKESTRA_CLOCK_FUNCTIONS } from './functions-orkestra-clock.js';
import { ORKESTRA_MATH_FUNCTIONS } from './functions-orkestra-math.js';
import { ORKESTRA_JSON_FUNCTIONS } from './functions-orkestra-json.js';
import { ORKESTRA_REGISTERED_FUNCTIONS } from './functions-orkestra-registered.js';
import { getKey, isMap, kindOf, printValue } from './values.js';

/** Orkestra's `empty`: missing, "", "<no value>", false, 0, an empty list or map. */
export function orkestraEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value === '' || value === '<no value>';
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return value === 0;
  if (typeof value === 'bigint') return value === 0n;
  if (Array.isArray(value)) return value.length === 0;
  if (isMap(value)) return Object.keys(value).length === 0;
  return false;
}

/** Orkestra's truthiness for `ternary`: like `empty`, except that the text "<no value>" is true. */
function orkestraTruthy(value: unknown): boolean {
  if (typeof value === 'string') return value !== '';
  return !orkestraEmpty(value);
}

/** A count argument of the random functions: a whole number from 0 to 4096 (a bound of our own). */
function count(name: string, value: unknown): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 4096) {
    throw new FunctionFailure(`${name}: the length must be a whole number from 0 to 4096, got ${kindOf(value)}`);
  }
  return n;
}

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function printed(value: unknown): string {
  return typeof value === 'string' ? value : printValue(value, 1 << 20, 32);
}

/** A whole number from a number or numeric text; anything else is `undefined`. */
function wholeNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === 'bigint') return Number(value);
  return undefined;
}

export const ORKESTRA_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  ...ORKESTRA_STRING_FUNCTIONS,
  ...ORKESTRA_FORMAT_FUNCTIONS,
  ...ORKESTRA_TIME_FUNCTIONS,
  ...ORKESTRA_CLOCK_FUNCTIONS,
  ...ORKESTRA_OBJECT_FUNCTIONS,
  ...ORKESTRA_KUBE_FUNCTIONS,
  ...ORKESTRA_POD_FUNCTIONS,
  ...ORKESTRA_ENRICHED_FUNCTIONS,
  ...ORKESTRA_PROM_FUNCTIONS,
  ...ORKESTRA_MATH_FUNCTIONS,
  ...ORKESTRA_JSON_FUNCTIONS,
  ...ORKESTRA_REGISTERED_FUNCTIONS,
  /** `default FALLBACK VALUE`: VALUE unless Orkestra-empty (a pipe passes VALUE last, as in Sprig). */
  default: fixed(2, ([fallback, value]) => (orkestraEmpty(value) ? fallback : value)),
  coalesce: variadic(1, (args) => args.find((value) => !orkestraEmpty(value)) ?? null),
  empty: fixed(1, ([value]) => orkestraEmpty(value)),
  notEmpty: fixed(1, ([value]) => !orkestraEmpty(value)),
  /** `ternary COND A B`: A when COND is truthy, else B (Sprig's order is `ternary A B COND`). */
  ternary: fixed(3, ([condition, whenTrue, whenFalse]) => (orkestraTruthy(condition) ? whenTrue : whenFalse)),
  boolTernary: fixed(3, ([condition, whenTrue, whenFalse]) => {
    if (typeof condition !== 'boolean') throw new FunctionFailure(`boolTernary: the condition must be true or false, got ${kindOf(condition)}`);
    return condition ? whenTrue : whenFalse;
  }),
  boolDefault: fixed(2, ([value, fallback]) => (typeof value === 'boolean' ? value : fallback)),
  /** `eqTernary VALUE TARGET A B`: A when VALUE and TARGET print the same, else B. */
  eqTernary: fixed(4, ([value, target, whenTrue, whenFalse]) => (printed(value) === printed(target) ? whenTrue : whenFalse)),
  getOr: fixed(2, ([value, fallback]) => (orkestraEmpty(value) ? fallback : value)),
  getStringOr: fixed(2, ([value, fallback]) => (typeof value === 'string' && value !== '' ? value : fallback)),
  getIntOr: fixed(2, ([value, fallback]) => wholeNumber(value) ?? fallback),
  getBoolOr: fixed(2, ([value, fallback]) => (typeof value === 'boolean' ? value : fallback)),
  /** `get OBJECT KEY...`: the nested value, or missing when any step is not a map or is absent. */
  get: variadic(1, ([object, ...keys]) => {
    let current: unknown = object;
    for (const key of keys) {
      if (!isMap(current)) return undefined;
      current = getKey(current, printed(key));
      if (current === undefined || current === null) return undefined;
    }
    return current;
  }),
  randomAlphanumeric: fixed(1, ([length]) => {
    const n = count('randomAlphanumeric', length);
    let text = '';
    for (let i = 0; i < n; i++) text += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
    return text;
  }),
  randomHex: fixed(1, ([length]) => randomBytes(count('randomHex', length)).toString('hex')),
  /** URL-safe base64 of n random bytes, padded as Go's base64.URLEncoding pads. */
  randomBase64: fixed(1, ([length]) => {
    const encoded = randomBytes(count('randomBase64', length)).toString('base64');
    return encoded.replaceAll('+', '-').replaceAll('/', '_');
  }),
  uuidv4: fixed(0, () => randomUUID()),
  toBase64: fixed(1, ([value]) => Buffer.from(printed(value), 'utf8').toString('base64')),
  fromBase64: fixed(1, ([value]) => Buffer.from(printed(value), 'base64').toString('utf8')),
  clamp: fixed(3, ([value, low, high]) => {
    const [v, l, h] = [wholeOrNumber('clamp', value), wholeOrNumber('clamp', low), wholeOrNumber('clamp', high)];
    return Math.min(Math.max(v, l), h);
  }),
  slugify: fixed(1, ([value]) =>
    printed(value)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, ''),
  ),
};

function wholeOrNumber(name: string, value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  throw new FunctionFailure(`${name}: expected a number, got ${kindOf(value)}`);
}
