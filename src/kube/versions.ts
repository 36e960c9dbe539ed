/**
 * Kubernetes version priority (SPEC §3.3): how the API server orders the versions of a CustomResourceDefinition,
 * and from it the "internal version" katalog reads and watches custom resources at.
 *
 * The order, highest priority first:
 * 1. names of the form `v<major>` (GA), higher major first;
 * 2. `v<major>beta<minor>`, higher major first, then higher minor;
 * 3. `v<major>alpha<minor>`, likewise;
 * 4. every other name ("non-conforming"), in plain code-unit order (so `foo1` before `foo10` before `foo2`).
 *
 * Numbers are compared as unbounded decimals, so `v99999999999999999999` neither overflows nor ties.
 * This module is pure and imports nothing.
 */

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/** Class rank: lower sorts first. */
const GA = 0;
const BETA = 1;
const ALPHA = 2;
const OTHER = 3;

interface ParsedVersion {
  readonly rank: number;
  readonly major: string;
  readonly minor: string;
}

function parse(name: string): ParsedVersion {
  const match = KUBE_VERSION.exec(name);
  if (match === null) return { rank: OTHER, major: '', minor: '' };
  const [, major = '', stage, minor = ''] = match;
  const rank = stage === undefined ? GA : stage === 'beta' ? BETA : ALPHA;
  return { rank, major, minor };
}

/** Compares two non-negative decimal strings by value; leading zeros are ignored. */
function compareDecimal(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Comparator for Kubernetes version priority: negative when `a` has the HIGHER priority (sorts first),
 * positive when `b` does, 0 when they are equal. Use it with `Array.prototype.sort` to get the highest first.
 */
export function compareVersionPriority(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  if (x.rank !== y.rank) return x.rank - y.rank;
  if (x.rank === OTHER) return a < b ? -1 : a > b ? 1 : 0;
  const major = compareDecimal(y.major, x.major);
  if (major !== 0) return major;
  const minor = compareDecimal(y.minor, x.minor);
  if (minor !== 0) return minor;
  // `v1` and `v01` denote the same priority; order them by text so the sort stays deterministic.
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Returns a new array of the names, highest priority first. The input is not modified. */
export function sortVersionsByPriority(names: Iterable<string>): string[] {
  return [...names].sort(compareVersionPriority);
}

/** A version entry of a CustomResourceDefinition's `spec.versions`, reduced to what priority needs. */
export interface CrdVersionEntry {
  readonly name: string;
  readonly served: boolean;
  readonly storage?: boolean;
}

/**
 * The internal version of a CRD: its highest-priority version that is served. `undefined` when no version is
 * served (the CRD cannot be read at all). The storage version plays no part: the API server converts on read.
 */
export function resolveInternalVersion(versions: Iterable<CrdVersionEntry>): string | undefined {
  let best: string | undefined;
  for (const version of versions) {
    if (!version.served) continue;
    if (best === undefined || compareVersionPriority(version.name, best) < 0) best = version.name;
  }
  return best;
}
