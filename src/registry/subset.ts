/**
 * Drift detection: does a live object still hold everything a rendered manifest sets? Pure, and only about the
 * fields the manifest sets, so that what the API server or other controllers add (defaults, status, annotations of
 * other tools) is never drift.
 *
 * Rules:
 * - maps: every key of the desired map must match in the live map; extra live keys are ignored;
 * - lists: compared by position and length, each element by these same rules (so server defaults inside a
 *   container are ignored, but a container, port or env var added or removed is a difference). Exception:
 *   `metadata.ownerReferences` and `metadata.finalizers`, where every desired element must be present somewhere
 *   (others may add their own);
 * - scalars: strictly equal (`80` is not `"80"`), but for quantities (a resource list's entries: requests, limits,
 *   capacity, a quota's hard limits...; an emptyDir's size limit), which are equal by value: the API server writes
 *   `cpu: 0.5` back as `500m`, and rounds resource lists up to a thousandth (`0.0001` comes back `1m`);
 * - an empty desired value (`""`, `0`, `false`, `[]`, `{}`, `null`) also matches a missing live field, because the
 *   API server drops empty fields of built-in kinds.
 */

import { compareParsed, quantityOf, roundUpQuantity } from '../util/quantity.js';

type Path = readonly string[];

/** The maps whose values are quantities (resource lists), and the single quantity fields, by name. */
const RESOURCE_LISTS = new Set(['limits', 'requests', 'hard', 'capacity', 'overhead', 'default', 'defaultRequest', 'max', 'min', 'maxLimitRequestRatio']);
const QUANTITY_FIELDS = new Set(['sizeLimit']);

/** Whether a desired scalar and the live one are the same quantity as the API server stores it. */
function sameStoredQuantity(desired: unknown, live: unknown, path: Path): boolean {
  const list = path.length >= 2 && RESOURCE_LISTS.has(path[path.length - 2] ?? '');
  if (!list && !QUANTITY_FIELDS.has(path[path.length - 1] ?? '')) return false;
  const want = quantityOf(desired);
  const have = quantityOf(live);
  if (want === undefined || have === undefined) return false;
  // A resource list's entry is rounded up to a thousandth by the API server.
  return compareParsed(want, have) === 0 || (list && compareParsed(roundUpQuantity(want, -3), have) === 0);
}

function isMap(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isZero(value: unknown): boolean {
  if (value === null || value === '' || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isMap(value)) return Object.keys(value).length === 0;
  return false;
}

/** Lists whose elements others may add to: every desired element must be found, extra live elements are fine. */
function isSetLike(path: Path): boolean {
  return path.length === 2 && path[0] === 'metadata' && (path[1] === 'ownerReferences' || path[1] === 'finalizers');
}

/** Where the live object first departs from the desired manifest, as a dotted path; undefined when it holds it all. */
export function firstDifference(desired: unknown, live: unknown, path: Path = []): string | undefined {
  if (desired === undefined) return undefined;
  if (live === undefined || live === null) {
    if (isMap(desired)) return firstDifference(desired, {}, path);
    return isZero(desired) ? undefined : text(path);
  }
  if (Array.isArray(desired)) {
    if (!Array.isArray(live)) return text(path);
    if (isSetLike(path)) {
      const missing = desired.findIndex((item) => !live.some((candidate) => firstDifference(item, candidate, [...path, '*']) === undefined));
      return missing < 0 ? undefined : text([...path, String(missing)]);
    }
    if (desired.length !== live.length) return text(path);
    for (let index = 0; index < desired.length; index++) {
      const found = firstDifference(desired[index], live[index], [...path, String(index)]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (isMap(desired)) {
    if (!isMap(live)) return text(path);
    for (const [key, value] of Object.entries(desired)) {
      const found = firstDifference(value, live[key], [...path, key]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return desired === live || sameStoredQuantity(desired, live, path) ? undefined : text(path);
}

/** True when `live` holds every field `desired` sets, by the rules above. */
export function holdsDesired(desired: unknown, live: unknown): boolean {
  return firstDifference(desired, live) === undefined;
}

function text(path: Path): string {
  return path.length === 0 ? '(root)' : path.join('.');
}
