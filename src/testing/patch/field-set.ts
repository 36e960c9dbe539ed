/**
 * Sets of field paths, as server-side apply tracks ownership, with their Kubernetes FieldsV1 encoding.
 *
 * A path is a list of path elements, each already in FieldsV1 form: `f:<field>` (a map field),
 * `k:{"name":"x"}` (an associative-list item, its key fields as JSON with sorted keys), `v:"x"` (a set item, the
 * value as JSON) or `i:<n>` (a list index). A set is a tree whose nodes say whether their own path is a member;
 * nodes with no member at or under them are never kept, so "a node exists" means "something at or under this path
 * is in the set".
 */
import { isJsonObject } from './json-value.js';
import { sortSmall } from './small-sort.js';

/** One node of a field set. */
export interface FieldSet {
  member: boolean;
  readonly children: Map<string, FieldSet>;
}

export type FieldPath = readonly string[];

export function emptySet(): FieldSet {
  return { member: false, children: new Map() };
}

/** The children of every {@link leafSet}: always empty; changing it throws instead of changing every leaf. */
class NoChildren extends Map<string, FieldSet> {
  override set(): this {
    throw new Error('katalog/testing: a leaf of a field set was changed in place');
  }
}
const NO_CHILDREN: ReadonlyMap<string, FieldSet> = new NoChildren();

/**
 * A member without children, for a set that is built once and never changed in place (sets are replaced, never
 * changed, once built): the leaves of an object's set share one empty map instead of one each.
 */
export function leafSet(): FieldSet {
  return { member: true, children: NO_CHILDREN as Map<string, FieldSet> };
}

export function isEmptySet(set: FieldSet): boolean {
  return !set.member && set.children.size === 0;
}

/** Adds `path` to `set` (mutates `set`). */
export function insertPath(set: FieldSet, path: FieldPath): void {
  let node = set;
  for (const element of path) {
    let next = node.children.get(element);
    if (next === undefined) {
      next = emptySet();
      node.children.set(element, next);
    }
    node = next;
  }
  node.member = true;
}

/** The node at `path`, if something at or under `path` is in the set. */
export function nodeAt(set: FieldSet, path: FieldPath): FieldSet | undefined {
  let node: FieldSet | undefined = set;
  for (const element of path) {
    node = node.children.get(element);
    if (node === undefined) return undefined;
  }
  return node;
}

/** True when `path` itself is a member. */
export function hasPath(set: FieldSet, path: FieldPath): boolean {
  return nodeAt(set, path)?.member === true;
}

/** Every member path, parents before children. */
export function memberPaths(set: FieldSet, prefix: FieldPath = []): string[][] {
  const out: string[][] = set.member ? [[...prefix]] : [];
  for (const [element, child] of set.children) out.push(...memberPaths(child, [...prefix, element]));
  return out;
}

/** A new set holding the members of `a` that are not members of `b`. */
export function difference(a: FieldSet, b: FieldSet | undefined): FieldSet {
  const out: FieldSet = { member: a.member && b?.member !== true, children: new Map() };
  for (const [element, child] of a.children) {
    const rest = difference(child, b?.children.get(element));
    if (!isEmptySet(rest)) out.children.set(element, rest);
  }
  return out;
}

/** True when some path is a member of both sets (so that `difference(a, b)` would differ from `a`). */
export function sharesMember(a: FieldSet, b: FieldSet): boolean {
  if (a.member && b.member) return true;
  const [small, large] = a.children.size <= b.children.size ? [a, b] : [b, a];
  for (const [element, child] of small.children) {
    const other = large.children.get(element);
    if (other !== undefined && sharesMember(child, other)) return true;
  }
  return false;
}

/** A new set without the member `path` (paths under it stay). */
export function withoutPath(set: FieldSet, path: FieldPath): FieldSet {
  const single = emptySet();
  insertPath(single, path);
  return difference(set, single);
}

/** A new set holding the members of `a` and of `b`. */
export function union(a: FieldSet, b: FieldSet): FieldSet {
  const out: FieldSet = { member: a.member || b.member, children: new Map() };
  for (const [element, child] of a.children) {
    const other = b.children.get(element);
    out.children.set(element, other === undefined ? copySet(child) : union(child, other));
  }
  for (const [element, child] of b.children) if (!a.children.has(element)) out.children.set(element, copySet(child));
  return out;
}

export function copySet(set: FieldSet): FieldSet {
  return { member: set.member, children: new Map([...set.children].map(([element, child]) => [element, copySet(child)])) };
}

export function setsEqual(a: FieldSet, b: FieldSet): boolean {
  if (a.member !== b.member || a.children.size !== b.children.size) return false;
  for (const [element, child] of a.children) {
    const other = b.children.get(element);
    if (other === undefined || !setsEqual(child, other)) return false;
  }
  return true;
}

/** JSON with object keys sorted, as the key and value path elements are spelled. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item: unknown) => stableJson(item)).join(',')}]`;
  if (isJsonObject(value)) {
    const keys = sortSmall(Object.keys(value), compareText);
    return `{${keys.map((key) => `${JSON.stringify(key)}:${stableJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The rank of a path element's kind: fields, then keys, then values, then indices (anything else first). */
function kindRank(element: string): number {
  switch (element.charCodeAt(0)) {
    case 102: // f
      return 0;
    case 107: // k
      return 1;
    case 118: // v
      return 2;
    case 105: // i
      return 3;
    default:
      return -1;
  }
}

/** Orders path elements as Kubernetes does: fields, then keys, then values, then indices. */
function compareElements(a: string, b: string): number {
  const kind = kindRank(a) - kindRank(b);
  if (kind !== 0) return kind;
  if (a.startsWith('i:') && b.startsWith('i:')) return Number(a.slice(2)) - Number(b.slice(2));
  return compareText(a, b);
}

/** The FieldsV1 JSON of a set: `{"f:spec":{"f:replicas":{}}}`, with `".": {}` where a path with children is itself a member. */
export function toFieldsV1(set: FieldSet): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (set.member && set.children.size > 0) out['.'] = {};
  const { children } = set;
  if (children.size === 0) return out;
  if (children.size === 1) {
    for (const [element, child] of children) putField(out, element, toFieldsV1(child));
    return out;
  }
  const elements = sortSmall([...children.keys()], compareElements);
  for (const element of elements) {
    const child = children.get(element);
    if (child !== undefined) putField(out, element, toFieldsV1(child));
  }
  return out;
}

/** A plain assignment, except for the one key that would set the prototype instead (a hand-edited entry). */
function putField(out: Record<string, unknown>, element: string, value: unknown): void {
  if (element === '__proto__') Object.defineProperty(out, element, { value, writable: true, enumerable: true, configurable: true });
  else out[element] = value;
}

/** Parses FieldsV1 JSON; anything that is not an object is skipped rather than trusted. */
export function fromFieldsV1(fields: unknown): FieldSet {
  const set = emptySet();
  const fill = (node: FieldSet, json: unknown): void => {
    if (!isJsonObject(json)) return;
    for (const key of Object.keys(json)) {
      if (key === '.') continue;
      const value = json[key];
      if (!isJsonObject(value)) continue;
      const child = emptySet();
      const keys = Object.keys(value);
      child.member = keys.length === 0 || keys.includes('.');
      fill(child, value);
      if (!isEmptySet(child)) node.children.set(key, child);
    }
  };
  fill(set, fields);
  return set;
}

/** A path as Kubernetes prints it in conflicts: `.spec.containers[name="web"].image`, `.metadata.finalizers[="x"]`. */
export function formatFieldPath(path: FieldPath): string {
  return path
    .map((element) => {
      const body = element.slice(2);
      if (element.startsWith('f:')) return `.${body}`;
      if (element.startsWith('v:')) return `[=${body}]`;
      if (element.startsWith('i:')) return `[${body}]`;
      const parsed = parseJson(body);
      if (!isJsonObject(parsed)) return `[${body}]`;
      return `[${Object.keys(parsed).map((key) => `${key}=${stableJson(parsed[key])}`).join(',')}]`;
    })
    .join('');
}

/** Parses the JSON of a key or value path element; `undefined` when it is not JSON (a hand-edited entry). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
