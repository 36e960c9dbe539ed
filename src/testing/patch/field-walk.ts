/**
 * Walks JSON objects in terms of field paths: the field set an object sets, the value at a path, removing a path.
 */
import { emptySet, isEmptySet, leafSet, parseJson, stableJson, type FieldPath, type FieldSet } from './field-set.js';
import { deleteOwn, getOwn, hasOwn, isJsonObject, jsonEqual, setOwn, type JsonObject } from './json-value.js';
import type { ListKeyLookup } from './managed-fields.js';
import { PatchError } from './patch-error.js';

const UNTRACKED_ROOT = new Set(['apiVersion', 'kind']);
const UNTRACKED_METADATA = new Set([
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'managedFields',
  'generation',
  'selfLink',
  'clusterName',
]);

/** The top-level fields a subresource write tracks and merges (`undefined`: every field). */
export type FieldScope = readonly string[];

/** True for the identity and system fields Kubernetes leaves out of managedFields (`apiVersion`, `metadata.uid`...). */
export function isUntracked(parent: FieldPath, field: string): boolean {
  if (parent.length === 0) return UNTRACKED_ROOT.has(field);
  return parent.length === 1 && parent[0] === 'f:metadata' && UNTRACKED_METADATA.has(field);
}

/**
 * How to treat a list the lookup calls associative when its items cannot be keyed (an item without its key, a
 * duplicate key): `strict` throws (an applied configuration must be well formed), `lenient` tracks the list as one
 * atomic field (ownership of a stored object degrades, never fails the write).
 */
export type KeyingMode = 'strict' | 'lenient';

/**
 * The field set of `object`: every leaf (scalar, `null`, empty map, atomic list or map), every associative-list item
 * (`k:`, plus its fields) and every set item (`v:`). Other maps are not members themselves (as in Kubernetes). Untracked metadata is skipped. `scope` keeps only those top-level fields (`status`, and `metadata` for a built-in kind, for the status
 * subresource).
 */
export function collectFields(object: JsonObject, listKeys: ListKeyLookup, mode: KeyingMode, scope?: FieldScope): FieldSet {
  const set = emptySet();
  // The set is built while the object is walked: each value adds to the node of its own path (no path is copied
  // or looked up from the root per leaf). `fields` is the stack of field names above, for the list-key lookup.
  // Module-level functions with a context, not closures made per call.
  visitValue({ listKeys, mode, scope, fields: [] }, object, set, 0, false);
  return set;
}

interface Collecting {
  readonly listKeys: ListKeyLookup;
  readonly mode: KeyingMode;
  readonly scope: FieldScope | undefined;
  readonly fields: string[];
}

function childNode(node: FieldSet, element: string): FieldSet {
  let next = node.children.get(element);
  if (next === undefined) {
    next = emptySet();
    node.children.set(element, next);
  }
  return next;
}

/** Adds field `key` of a map (its value `value`) under `node`; drops the node again when nothing under it is a member. */
function visitField(ctx: Collecting, node: FieldSet, key: string, value: unknown, depth: number, inMetadata: boolean): void {
  const element = `f:${key}`;
  const before = node.children.get(element);
  if (before === undefined && (typeof value !== 'object' || value === null)) {
    // A scalar (or null): a leaf, with no map of children of its own.
    node.children.set(element, leafSet());
    return;
  }
  ctx.fields.push(key);
  const next = before ?? childNode(node, element);
  visitValue(ctx, value, next, depth, inMetadata);
  if (before === undefined && isEmptySet(next)) node.children.delete(element);
  ctx.fields.pop();
}

function visitValue(ctx: Collecting, value: unknown, node: FieldSet, depth: number, inMetadata: boolean): void {
  if (isJsonObject(value)) {
    // An atomic map is one member, as a scalar is.
    if (depth > 0 && ctx.listKeys.atomicMap?.(ctx.fields) === true) {
      node.member = true;
      return;
    }
    // An empty map is a member as a leaf is (kube's field sets keep the empty/null distinction); `metadata` itself
    // never is.
    const keys = Object.keys(value);
    if (depth > 0 && !inMetadata && keys.length === 0) {
      node.member = true;
      return;
    }
    // Otherwise a map adds nothing itself: a node is kept only when something at or under it is a member.
    for (const key of keys) {
      if (depth === 0 ? UNTRACKED_ROOT.has(key) || (ctx.scope !== undefined && !ctx.scope.includes(key)) : inMetadata && UNTRACKED_METADATA.has(key)) continue;
      visitField(ctx, node, key, value[key], depth + 1, depth === 0 && key === 'metadata');
    }
    return;
  }
  if (!Array.isArray(value)) {
    node.member = true;
    return;
  }
  const elements = listElements(value, ctx.listKeys(ctx.fields.slice()), ctx.fields, ctx.mode, ctx.listKeys.keyDefault);
  if (elements === undefined) {
    node.member = true;
    return;
  }
  for (let index = 0; index < value.length; index++) {
    const item: unknown = value[index];
    const element = elements[index] ?? '';
    const itemNode = childNode(node, element);
    itemNode.member = true;
    // An atomic item (an owner reference) is one member: its fields are not tracked one by one.
    if (element.startsWith('k:') && isJsonObject(item) && ctx.listKeys.atomicMap?.(ctx.fields) !== true) {
      for (const key of Object.keys(item)) visitField(ctx, itemNode, key, item[key], depth + 2, false);
    }
  }
}

/**
 * The path element of every item of a list with `keys` (`[]`: a set), or `undefined` when the list is atomic:
 * `keys` is undefined, or (lenient) the items cannot be keyed.
 */
function listElements(list: readonly unknown[], keys: string[] | undefined, fields: readonly string[], mode: KeyingMode, keyDefault: ListKeyLookup['keyDefault']): string[] | undefined {
  if (keys === undefined) return undefined;
  const elements: string[] = [];
  for (const [index, item] of list.entries()) {
    let element: string;
    if (keys.length === 0) {
      element = `v:${stableJson(item)}`;
    } else {
      const key = isJsonObject(item) ? keyFieldsOf(item, keys, fields, keyDefault) : undefined;
      if (key === undefined) {
        if (mode === 'lenient') return undefined;
        throw new PatchError(`.${fields.join('.')}: element ${index}: associative list with keys has an element that omits all key fields ${JSON.stringify(keys)} (and doesn't have default values for any key fields)`);
      }
      element = `k:${stableJson(key)}`;
    }
    if (elements.includes(element)) {
      if (mode === 'lenient') return undefined;
      throw new PatchError(`.${fields.join('.')}: duplicate entries for ${element}`);
    }
    elements.push(element);
  }
  return elements;
}

/**
 * The key fields of a keyed list's item as structured-merge-diff builds them: a missing one is taken from its
 * schema default, or left out of the key when it has none (`k:{"port":80}` names another item than
 * `k:{"port":80,"protocol":"UDP"}`); `undefined` when the item has none of them.
 */
export function keyFieldsOf(item: JsonObject, keys: readonly string[], fields: readonly string[], keyDefault: ListKeyLookup['keyDefault']): JsonObject | undefined {
  const key: JsonObject = {};
  let found = false;
  for (const name of keys) {
    const value = hasOwn(item, name) ? item[name] : keyDefault?.(fields, name);
    if (value === undefined) continue;
    setOwn(key, name, value);
    found = true;
  }
  return found ? key : undefined;
}

/** True when `item` is the list item a `k:` or `v:` path element names. */
export function matchesElement(item: unknown, element: string): boolean {
  const named = parseJson(element.slice(2));
  if (element.startsWith('v:')) return jsonEqual(item, named);
  if (!element.startsWith('k:') || !isJsonObject(item) || !isJsonObject(named)) return false;
  return Object.keys(named).every((key) => hasOwn(item, key) && jsonEqual(item[key], named[key]));
}

/** The index in `container` (a map or list) of the child `element` names, or `undefined`. */
function childKey(container: unknown, element: string): string | number | undefined {
  if (element.startsWith('f:')) {
    const field = element.slice(2);
    return isJsonObject(container) && hasOwn(container, field) ? field : undefined;
  }
  if (!Array.isArray(container)) return undefined;
  if (element.startsWith('i:')) {
    const index = Number(element.slice(2));
    return Number.isInteger(index) && index >= 0 && index < container.length ? index : undefined;
  }
  const index = container.findIndex((item: unknown) => matchesElement(item, element));
  return index >= 0 ? index : undefined;
}

/** The value at `path`, with `found: false` when some step does not exist. */
export function valueAt(object: unknown, path: FieldPath): { found: boolean; value: unknown } {
  let current = object;
  for (const element of path) {
    const key = childKey(current, element);
    if (key === undefined) return { found: false, value: undefined };
    current = typeof key === 'number' ? (current as unknown[])[key] : getOwn(current as JsonObject, key);
  }
  return { found: true, value: current };
}

interface Found {
  readonly found: boolean;
  readonly value: unknown;
}

const MISSING: Found = { found: false, value: undefined };

/**
 * The members of `set` whose value differs between `before` and `after`: a leaf whose value changed, or any
 * member present on one side only. List items (`k:`, `v:`) are identities: present on both sides, never "changed".
 * With `addedNodes`, also the maps and lists of `set` (the field set of `after`) that `before` does not have, as
 * members (`.`): kube's comparison counts every node a write adds, so what a write adds whole it owns whole. One
 * walk over both values, guided by the set (lists are indexed once per level, not searched per path).
 */
export function changedMembers(set: FieldSet, before: unknown, after: unknown, addedNodes = false): FieldSet {
  return changedUnder(set, '', true, before, true, after, addedNodes ? 'changes and added nodes' : 'changes') ?? emptySet();
}

/**
 * The paths of `set` (the field set of `before`), fields, maps and lists, that `after` no longer has: what a write
 * removed, as kube's comparison counts it. A path `after` still has is not removed, whatever its value became: a map
 * emptied or filled keeps its `.` member with whoever owned it (the entries it loses are removed).
 */
export function removedPaths(set: FieldSet, before: unknown, after: unknown): FieldSet {
  return changedUnder(set, '', true, after, true, before, 'missing') ?? emptySet();
}

type Looking = 'changes' | 'changes and added nodes' | 'missing';

/**
 * The changed members at or under `node` (reached by path element `element`), as a new set built bottom-up: no
 * path is copied or inserted from the root, and a changed member without changed children is a leaf (the result
 * is never changed in place). `undefined` when nothing changed there.
 */
function changedUnder(node: FieldSet, element: string, foundA: boolean, a: unknown, foundB: boolean, b: unknown, looking: Looking): FieldSet | undefined {
  let member = false;
  if (looking === 'missing') {
    member = element !== '' && !foundA && foundB;
  } else if (!node.member) {
    member = looking === 'changes and added nodes' && node.children.size > 0 && element !== '' && !foundA && foundB;
  } else {
    const identity = element.startsWith('k:') || element.startsWith('v:');
    // A map or struct emptied by the write is not itself changed: its entries were removed (kube treats one as a
    // leaf only when it is empty on both sides).
    const emptied = isJsonObject(b) && Object.keys(b).length === 0 && isJsonObject(a) && Object.keys(a).length > 0;
    member = foundA !== foundB || (!identity && !emptied && !jsonEqual(a, b));
  }
  let children: Map<string, FieldSet> | undefined;
  if (node.children.size > 0) {
    const childrenA = foundA ? new ChildLookup(a) : undefined;
    const childrenB = foundB ? new ChildLookup(b) : undefined;
    for (const [childElement, child] of node.children) {
      const inA = childrenA?.find(childElement) ?? MISSING;
      const inB = childrenB?.find(childElement) ?? MISSING;
      const changed = changedUnder(child, childElement, inA.found, inA.value, inB.found, inB.value, looking);
      if (changed !== undefined) (children ??= new Map()).set(childElement, changed);
    }
  }
  if (children !== undefined) return { member, children };
  return member ? leafSet() : undefined;
}

/** Looks up children of one value by path element; a list is indexed on first use. */
class ChildLookup {
  private indexes: Map<string, Map<string, unknown>> | undefined;

  constructor(private readonly value: unknown) {}

  find(element: string): Found {
    const value = this.value;
    if (element.startsWith('f:')) {
      const field = element.slice(2);
      return isJsonObject(value) && hasOwn(value, field) ? { found: true, value: value[field] } : MISSING;
    }
    if (!Array.isArray(value)) return MISSING;
    if (element.startsWith('i:')) {
      const index = Number(element.slice(2));
      return Number.isInteger(index) && index >= 0 && index < value.length ? { found: true, value: value[index] } : MISSING;
    }
    // All key elements of one list name the same key fields, so one index per kind of element serves them all.
    const kind = element.slice(0, 2);
    this.indexes ??= new Map();
    let index = this.indexes.get(kind);
    if (index === undefined) {
      index = indexList(value as unknown[], element);
      this.indexes.set(kind, index);
    }
    return index.has(element) ? { found: true, value: index.get(element) } : MISSING;
  }
}

/**
 * Indexes the items of `list` by the element form `sample` uses (same key fields, or values), spelled canonically
 * as {@link collectFields} spells them; the first item wins.
 */
function indexList(list: readonly unknown[], sample: string): Map<string, unknown> {
  const index = new Map<string, unknown>();
  const parsed = sample.startsWith('k:') ? parseJson(sample.slice(2)) : undefined;
  const names = isJsonObject(parsed) ? Object.keys(parsed) : undefined;
  for (const item of list) {
    let element: string | undefined;
    if (names === undefined) element = sample.startsWith('v:') ? `v:${stableJson(item)}` : undefined;
    else if (isJsonObject(item) && names.every((name) => hasOwn(item, name))) {
      const key: JsonObject = {};
      for (const name of names) setOwn(key, name, item[name]);
      element = `k:${stableJson(key)}`;
    }
    if (element !== undefined && !index.has(element)) index.set(element, item);
  }
  return index;
}

/** True when `path` ends at a key field of an associative-list item (`k:{"name":"a"}`, `f:name`): never removed alone. */
function isKeyField(path: FieldPath): boolean {
  const item = path.at(-2);
  const field = path.at(-1);
  if (item === undefined || field === undefined || !item.startsWith('k:') || !field.startsWith('f:')) return false;
  const key = parseJson(item.slice(2));
  return isJsonObject(key) && hasOwn(key, field.slice(2));
}

/**
 * Removes the value at `path` from `object` (which the caller owns; mutated). Maps and lists the removal leaves
 * empty are removed too, up the path, unless `held` says some field set still covers them. The key field of an
 * associative-list item is never removed on its own (the item would lose its identity); remove the item.
 */
export function removePath(object: JsonObject, path: FieldPath, held: (path: FieldPath) => boolean): void {
  if (isKeyField(path)) return;
  const chain: unknown[] = [object];
  for (const element of path.slice(0, -1)) {
    const { found, value } = valueAt(chain.at(-1), [element]);
    if (!found) return;
    chain.push(value);
  }
  for (let depth = path.length - 1; depth >= 0; depth -= 1) {
    const container = chain[depth];
    const element = path[depth] ?? '';
    const key = childKey(container, element);
    if (key === undefined) return;
    if (typeof key === 'number') (container as unknown[]).splice(key, 1);
    else deleteOwn(container as JsonObject, key);
    const emptied = Array.isArray(container) ? container.length === 0 : Object.keys(container as JsonObject).length === 0;
    if (depth === 0 || !emptied || held(path.slice(0, depth))) return;
  }
}
