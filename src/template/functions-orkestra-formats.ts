/**
 * Orkestra's notes for formats (`pkg/note`: cron, semver, quantity, time, net, validation, kubevalidation):
 * parsing, comparing and checking texts. Pure and bounded; the notes that read the clock are in
 * functions-orkestra-clock.ts. Invalid input gives Orkestra's fallback (`false`, `0`, `"* * * * *"`...) where
 * Orkestra has one, and an error where Orkestra errors.
 */
import { BlockList, isIP } from 'node:net';
import { FunctionFailure } from './failure.js';
import { fixed, type TemplateFunction } from './function-type.js';
import { isMap, kindOf } from './values.js';
import { CRON_DESCRIPTORS } from '../util/cron.js';
import { formatDuration, parseDuration } from '../util/duration.js';

const str = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value as number));

// ── cron ─────────────────────────────────────────────────────────────────────
const CRON_KEYS = ['minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek'] as const;

/** The five fields of a cron text (macros expanded), or undefined when it has not five. */
function cronFields(text: string): string[] | undefined {
  const trimmed = text.trim();
  const expanded = CRON_DESCRIPTORS[trimmed] ?? trimmed;
  const fields = expanded.split(/\s+/).filter((f) => f !== '');
  return fields.length === 5 ? fields : undefined;
}

export function cronNormalize(value: unknown): string {
  return cronFields(str(value))?.join(' ') ?? '* * * * *';
}

function cronFieldAt(name: string, value: unknown, index: number): string {
  const text = str(value);
  if (text.trim() === '') return '*';
  const fields = cronFields(text);
  if (fields === undefined) throw new FunctionFailure(`${name}: the cron expression (${text.length} characters) does not have five fields`);
  return fields[index] ?? '*';
}

function cronFromMap(map: Readonly<Record<string, unknown>>): string {
  return CRON_KEYS.map((key) => str(map[key]).trim() || '*').join(' ');
}

const CRON_RANGES: ReadonlyArray<readonly [number, number]> = [[0, 59], [0, 23], [1, 31], [1, 12], [0, 7]];
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

function cronValue(text: string, index: number): number | undefined {
  const lower = text.toLowerCase();
  if (index === 3 && MONTHS.includes(lower)) return MONTHS.indexOf(lower) + 1;
  if (index === 4 && DAYS.includes(lower)) return DAYS.indexOf(lower);
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

/** One field of a standard cron expression: lists of `*`, values, ranges, each with an optional `/step`. */
function cronFieldValid(field: string, index: number): boolean {
  const [low, high] = CRON_RANGES[index] ?? [0, 0];
  return field.split(',').every((part) => {
    const [range = '', step, extra] = part.split('/');
    if (extra !== undefined || (step !== undefined && !/^[1-9]\d*$/.test(step))) return false;
    if (range === '*' || range === '?') return true;
    const [from = '', to, more] = range.split('-');
    if (more !== undefined) return false;
    const a = cronValue(from, index);
    const b = to === undefined ? a : cronValue(to, index);
    return a !== undefined && b !== undefined && a >= low && b <= high && a <= b;
  });
}

// ── semver ───────────────────────────────────────────────────────────────────
interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly pre: readonly string[];
}
const SEMVER = /^v?(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?(?:\.(0|[1-9]\d*))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** A version as Masterminds' NewVersion reads it: a leading `v`, and missing minor/patch count as 0. */
function parseVersion(value: unknown): Version | undefined {
  const match = SEMVER.exec(str(value).trim());
  if (match === null) return undefined;
  return { major: Number(match[1]), minor: Number(match[2] ?? 0), patch: Number(match[3] ?? 0), pre: match[4] === undefined ? [] : match[4].split('.') };
}

function comparePre(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 0 : a.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const [x, y] = [a[i], b[i]];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    const [nx, ny] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    if (nx && ny) return Math.sign(Number(x) - Number(y));
    if (nx !== ny) return nx ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

function compareVersions(a: Version, b: Version): number {
  return Math.sign(a.major - b.major) || Math.sign(a.minor - b.minor) || Math.sign(a.patch - b.patch) || comparePre(a.pre, b.pre);
}

/** One constraint term (`>=1.2`, `^2.0`, `~1.2.3`, `1.x`, `!=1.0.0`) against a version. */
function satisfiesTerm(version: Version, term: string): boolean {
  const match = /^(>=|<=|!=|=|>|<|\^|~>?)?\s*v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(-[0-9A-Za-z.-]+)?$/.exec(term);
  if (match === null) throw new FunctionFailure('semverConstraint: the constraint is not valid');
  const op = match[1] ?? '=';
  const parts = [match[2], match[3], match[4]].map((p) => (p === undefined || /^[xX*]$/.test(p) ? undefined : Number(p)));
  const [major = 0, minor, patch] = parts;
  if (parts[0] === undefined) return op === '=' || op === '>=' || op === '<=';
  const base: Version = { major, minor: minor ?? 0, patch: patch ?? 0, pre: match[5] === undefined ? [] : match[5].slice(1).split('.') };
  const cmp = compareVersions(version, base);
  const wildcard = minor === undefined || patch === undefined;
  const upper = (v: Version): boolean => compareVersions(version, v) < 0;
  switch (op) {
    case '=':
      if (!wildcard) return cmp === 0;
      return version.major === major && (minor === undefined || version.minor === minor);
    case '!=':
      return wildcard ? !(version.major === major && (minor === undefined || version.minor === minor)) : cmp !== 0;
    case '>':
      if (!wildcard) return cmp > 0;
      return minor === undefined ? version.major > major : version.major > major || (version.major === major && version.minor > minor);
    case '<':
      return cmp < 0;
    case '>=':
      return cmp >= 0;
    case '<=':
      return wildcard ? (minor === undefined ? version.major <= major : version.major < major || (version.major === major && version.minor <= minor)) : cmp <= 0;
    case '~':
    case '~>':
      return cmp >= 0 && (minor === undefined ? upper({ major: major + 1, minor: 0, patch: 0, pre: [] }) : upper({ major, minor: minor + 1, patch: 0, pre: [] }));
    case '^':
      if (major > 0 || minor === undefined) return cmp >= 0 && upper({ major: major + 1, minor: 0, patch: 0, pre: [] });
      if (minor > 0 || patch === undefined) return cmp >= 0 && upper({ major: 0, minor: minor + 1, patch: 0, pre: [] });
      return cmp >= 0 && upper({ major: 0, minor: 0, patch: patch + 1, pre: [] });
    default:
      return false;
  }
}

function satisfies(version: Version, constraint: string): boolean {
  return constraint.split('||').some((alternative) => {
    const terms = alternative
      .trim()
      .replace(/(>=|<=|!=|=|>|<|\^|~>?)\s+/g, '$1')
      .split(/[\s,]+/)
      .filter((t) => t !== '');
    if (terms.length === 0) throw new FunctionFailure('semverConstraint: the constraint is empty');
    return terms.every((term) => satisfiesTerm(version, term));
  });
}

// ── quantity ─────────────────────────────────────────────────────────────────
const BINARY: Readonly<Record<string, number>> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Readonly<Record<string, number>> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** A Kubernetes quantity (`100m`, `1Gi`, `2`, `1e3`) as a number; an error for text that is not one. */
export function parseQuantity(value: unknown, name = 'parseQuantity'): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  const match = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?)$/.exec(str(value).trim());
  if (match === null) throw new FunctionFailure(`${name}: not a Kubernetes quantity (${kindOf(value)})`);
  const number = Number(match[1]);
  if (match[2] !== undefined) return Number(`${match[1]}${match[2]}`);
  const suffix = match[3] ?? '';
  return number * (BINARY[suffix] ?? DECIMAL[suffix] ?? 1);
}

/** A number as a canonical quantity: fractions in milli-units, whole multiples of 1024 with a binary suffix. */
export function formatQuantity(value: number): string {
  if (!Number.isFinite(value)) throw new FunctionFailure('formatQuantity: the value is not a finite number');
  const milli = Math.round(value * 1000);
  if (milli % 1000 !== 0) return `${milli}m`;
  const whole = milli / 1000;
  if (whole !== 0 && Math.abs(whole) >= 1024) {
    for (const [suffix, size] of Object.entries(BINARY).reverse()) if (whole % size === 0) return `${whole / size}${suffix}`;
  }
  return String(whole);
}

// ── durations ────────────────────────────────────────────────────────────────
const EXTENDED: Readonly<Record<string, number>> = { d: 86_400_000, w: 7 * 86_400_000, mo: 30 * 86_400_000, y: 365 * 86_400_000 };

/** Go's duration units plus Orkestra's `d`, `w`, `mo` (30 days), `y` (365 days), in milliseconds. */
export function parseExtendedDuration(value: unknown): number | undefined {
  let rest = str(value).trim();
  if (rest === '') return undefined;
  let total = 0;
  for (;;) {
    const match = /^(\d+(?:\.\d+)?)(mo|y|w|d)/.exec(rest);
    if (match === null) break;
    total += Number(match[1]) * (EXTENDED[match[2] ?? ''] ?? 0);
    rest = rest.slice(match[0].length);
  }
  if (rest === '') return total;
  const go = parseDuration(rest);
  return go === undefined ? undefined : total + go;
}

// ── validation ───────────────────────────────────────────────────────────────
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
function isSubdomain(text: string): boolean {
  return text.length > 0 && text.length <= 253 && text.split('.').every((label) => label.length <= 63 && DNS1123_LABEL.test(label));
}
function isLabelName(text: string): boolean {
  return text.length > 0 && text.length <= 63 && /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(text);
}
function isQualifiedKey(value: unknown): boolean {
  const text = str(value);
  const slash = text.indexOf('/');
  if (slash < 0) return isLabelName(text);
  return isSubdomain(text.slice(0, slash)) && isLabelName(text.slice(slash + 1));
}

const PRIVATE = new BlockList();
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');

function ipFamily(text: string): 'ipv4' | 'ipv6' | undefined {
  const family = isIP(text);
  return family === 4 ? 'ipv4' : family === 6 ? 'ipv6' : undefined;
}

function cidrContains(cidr: string, ip: string): boolean {
  const [network = '', bits = ''] = cidr.trim().split('/');
  const family = ipFamily(network);
  const ipKind = ipFamily(ip.trim());
  const prefix = /^\d+$/.test(bits) ? Number(bits) : NaN;
  if (family === undefined || ipKind !== family || !(prefix >= 0 && prefix <= (family === 'ipv4' ? 32 : 128))) return false;
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return list.check(ip.trim(), family);
}

const validURL = (text: string): boolean => {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false; // not a URL: the answer is false, as in Orkestra
  }
};

export const ORKESTRA_FORMAT_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  cronNormalize: fixed(1, ([value]) => cronNormalize(value)),
  cronMinute: fixed(1, ([value]) => cronFieldAt('cronMinute', value, 0)),
  cronHour: fixed(1, ([value]) => cronFieldAt('cronHour', value, 1)),
  cronDom: fixed(1, ([value]) => cronFieldAt('cronDom', value, 2)),
  cronMonth: fixed(1, ([value]) => cronFieldAt('cronMonth', value, 3)),
  cronDow: fixed(1, ([value]) => cronFieldAt('cronDow', value, 4)),
  cronField: fixed(2, ([value, index]) => {
    const i = typeof index === 'number' ? index : Number(index);
    if (!Number.isInteger(i) || i < 0 || i > 4) throw new FunctionFailure('cronField: the index must be 0 to 4');
    return cronFieldAt('cronField', value, i);
  }),
  cronExpr: fixed(5, (parts) => parts.map((p) => str(p).trim() || '*').join(' ')),
  cronFromMap: fixed(1, ([value]) => {
    if (!isMap(value)) throw new FunctionFailure(`cronFromMap: expected a map, got ${kindOf(value)}`);
    return cronFromMap(value);
  }),
  cronFromAny: fixed(1, ([value]) => (isMap(value) ? cronFromMap(value) : typeof value === 'string' ? cronNormalize(value) : '* * * * *')),
  cronToMap: fixed(1, ([value]) => {
    if (isMap(value)) return value;
    const fields = cronFields(str(value));
    if (fields === undefined) throw new FunctionFailure('cronToMap: the cron expression does not have five fields');
    return Object.fromEntries(CRON_KEYS.map((key, i) => [key, fields[i]]));
  }),
  cronValid: fixed(1, ([value]) => {
    const fields = cronFields(str(value));
    return fields !== undefined && fields.every((field, i) => cronFieldValid(field, i));
  }),
  semverValid: fixed(1, ([value]) => parseVersion(value) !== undefined),
  semverCompare: fixed(2, ([a, b]) => {
    const [x, y] = [parseVersion(a), parseVersion(b)];
    return x === undefined || y === undefined ? 0 : compareVersions(x, y);
  }),
  semverMajor: fixed(1, ([value]) => parseVersion(value)?.major ?? 0),
  semverMinor: fixed(1, ([value]) => parseVersion(value)?.minor ?? 0),
  semverPatch: fixed(1, ([value]) => parseVersion(value)?.patch ?? 0),
  semverBump: fixed(2, ([value, part]) => {
    const v = parseVersion(value);
    if (v === undefined) return str(value);
    if (part === 'major') return `${v.major + 1}.0.0`;
    if (part === 'minor') return `${v.major}.${v.minor + 1}.0`;
    if (part === 'patch') return `${v.major}.${v.minor}.${v.patch + 1}`;
    return str(value);
  }),
  semverConstraint: fixed(2, ([value, constraint]) => {
    const v = parseVersion(value);
    return v === undefined ? false : satisfies(v, str(constraint));
  }),
  parseQuantity: fixed(1, ([value]) => parseQuantity(value)),
  formatQuantity: fixed(1, ([value]) => formatQuantity(parseQuantity(value, 'formatQuantity'))),
  sumQuantity: fixed(2, ([a, b]) => formatQuantity(parseQuantity(a, 'sumQuantity') + parseQuantity(b, 'sumQuantity'))),
  subtractQuantity: fixed(2, ([a, b]) => formatQuantity(parseQuantity(a, 'subtractQuantity') - parseQuantity(b, 'subtractQuantity'))),
  durationValid: fixed(1, ([value]) => parseExtendedDuration(value) !== undefined),
  durationSeconds: fixed(1, ([value]) => Math.trunc((parseExtendedDuration(value) ?? 0) / 1000)),
  durationAdd: fixed(2, ([a, b]) => {
    const [x, y] = [parseExtendedDuration(a), parseExtendedDuration(b)];
    return x === undefined || y === undefined ? '0s' : formatDuration(x + y);
  }),
  cidrContains: fixed(2, ([cidr, ip]) => cidrContains(str(cidr), str(ip))),
  ipValid: fixed(1, ([value]) => ipFamily(str(value).trim()) !== undefined),
  ipIsPrivate: fixed(1, ([value]) => {
    const family = ipFamily(str(value).trim());
    return family !== undefined && PRIVATE.check(str(value).trim(), family);
  }),
  isDNS1123Subdomain: fixed(1, ([value]) => isSubdomain(str(value))),
  isValidLabelKey: fixed(1, ([value]) => isQualifiedKey(value)),
  isValidAnnotationKey: fixed(1, ([value]) => isQualifiedKey(value)),
  isValidLabelValue: fixed(1, ([value]) => str(value) === '' || isLabelName(str(value))),
  isValidEmail: fixed(1, ([value]) => /^[^\s@<>()]+@[^\s@<>()]+\.[^\s@<>()]+$/.test(str(value))),
  isValidURL: fixed(1, ([value]) => validURL(str(value))),
  isValidPort: fixed(1, ([value]) => /^\d+$/.test(str(value).trim()) && Number(str(value)) >= 1 && Number(str(value)) <= 65535),
  isValidJSON: fixed(1, ([value]) => {
    try {
      JSON.parse(str(value));
      return true;
    } catch {
      return false; // not JSON: the answer is false
    }
  }),
  isValidGitRepository: fixed(1, ([value]) => {
    const text = str(value).trim();
    return /^(https?|git|ssh):\/\/[^\s/]+\/\S+$/.test(text) || /^[\w.-]+@[\w.-]+:[\w./-]+$/.test(text);
  }),
  isValidImageRef: fixed(1, ([value]) =>
    /^(?:[a-zA-Z0-9.-]+(?::\d+)?\/)?[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/.test(str(value)),
  ),
};
