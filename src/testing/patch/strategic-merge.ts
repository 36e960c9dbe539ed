/**
 * Kubernetes strategic merge patch (`application/strategic-merge-patch+json`) for the built-in kinds, driven by the
 * merge-key table of strategic-keys.ts.
 */
import { cloneJson, deleteOwn, getOwn, hasOwn, isJsonObject, jsonEqual, jsonTypeOf, setOwn, type JsonObject } from './json-value.js';
import { PatchError } from './patch-error.js';
import type { ListStrategy, StrategicSchema } from './strategic-keys.js';

/** The merge metadata of the patched object's kind, from {@link strategicSchemaFor}. */
export type StrategicKind = StrategicSchema;

type StrategyAt = (path: readonly string[]) => ListStrategy | undefined;

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList/';
const SET_ELEMENT_ORDER = '$setElementOrder/';

/** Returned by a merge when the patch says the value is to be removed (`$patch: delete`). */
const REMOVE = Symbol('remove');
type Merged = unknown;

/**
 * Applies a strategic merge patch to `target` (a built-in object) and returns the result; neither argument is
 * modified. The patch must be a JSON object.
 *
 * - Maps merge key by key; `null` removes a key; scalars and mismatched types replace.
 * - Lists listed in the kind's table merge by their merge key (items with the same key are merged as maps, new
 *   items are appended) or, without a key, as a set of primitives (union, original order first). Every other list
 *   is atomic and replaced whole.
 * - Directives: `$patch: replace` (in a map: replace the map; as a list element `{"$patch":"replace"}`: replace
 *   the list), `$patch: delete` (in a keyed list item: delete the item with that key; in a map: remove the map;
 *   as a list element: remove the list), `$patch: merge` (the default); `$retainKeys: [...]` (drop the other keys
 *   of the original map first); `$deleteFromPrimitiveList/<field>: [...]` (remove those values from a primitive
 *   list); `$setElementOrder/<field>: [...]` (reorder the merged list; items the order does not name keep their
 *   slots). Directive keys are never stored.
 *
 * Throws {@link PatchError} for a patch that is not an object, an unknown `$patch` value, a keyed-list item
 * without its merge key, or a malformed directive.
 */
export function applyStrategicMergePatch(target: unknown, patch: unknown, kind: StrategicKind): unknown {
  if (!isJsonObject(patch)) throw new PatchError(`a strategic merge patch must be a JSON object, got ${jsonTypeOf(patch)}`);
  const original: JsonObject = isJsonObject(target) ? cloneJson(target) : {};
  const merged = mergeMap(original, patch, [], (path) => kind.listStrategy(path));
  if (merged === REMOVE) throw new PatchError('"$patch": "delete" cannot remove the whole object');
  return merged;
}

function where(path: readonly string[]): string {
  return path.length === 0 ? 'the object' : `.${path.join('.')}`;
}

function isDirectiveKey(key: string): boolean {
  return key === DIRECTIVE || key === RETAIN_KEYS || key.startsWith(DELETE_FROM_PRIMITIVE_LIST) || key.startsWith(SET_ELEMENT_ORDER);
}

/** Merges `patch` into `original`, which this module owns (a fresh copy) and mutates. */
function mergeMap(original: JsonObject, patch: JsonObject, path: readonly string[], strategyAt: StrategyAt): JsonObject | typeof REMOVE {
  const directive = getOwn(patch, DIRECTIVE);
  if (directive === 'delete') return REMOVE;
  if (directive !== undefined && directive !== 'replace' && directive !== 'merge') {
    throw new PatchError(`unknown "$patch" directive ${JSON.stringify(directive)} in ${where(path)}`);
  }
  const result: JsonObject = directive === 'replace' ? {} : original;

  const retain = getOwn(patch, RETAIN_KEYS);
  if (retain !== undefined) {
    const keep = stringList(retain, `${RETAIN_KEYS} in ${where(path)}`);
    for (const key of Object.keys(result)) if (!keep.includes(key)) deleteOwn(result, key);
  }

  for (const key of Object.keys(patch)) {
    if (!key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) continue;
    const field = key.slice(DELETE_FROM_PRIMITIVE_LIST.length);
    const values = patch[key];
    if (!Array.isArray(values)) throw new PatchError(`${key} in ${where(path)} must be a list`);
    const current = getOwn(result, field);
    if (Array.isArray(current)) setOwn(result, field, current.filter((item: unknown) => !values.some((value: unknown) => jsonEqual(item, value))));
  }

  for (const key of Object.keys(patch)) {
    if (isDirectiveKey(key)) continue;
    const value = patch[key];
    const merged = value === null ? REMOVE : mergeValue(getOwn(result, key), value, [...path, key], strategyAt);
    if (merged === REMOVE) deleteOwn(result, key);
    else setOwn(result, key, merged);
  }

  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const field = key.slice(SET_ELEMENT_ORDER.length);
    const order = patch[key];
    if (!Array.isArray(order)) throw new PatchError(`${key} in ${where(path)} must be a list`);
    const current = getOwn(result, field);
    if (Array.isArray(current)) setOwn(result, field, reorder(current, order, strategyAt([...path, field])));
  }
  return result;
}

function stringList(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || !value.every((item: unknown) => typeof item === 'string')) throw new PatchError(`${what} must be a list of strings`);
  return value as string[];
}

/** Merges a patch value into an owned original value. */
function mergeValue(original: unknown, patch: unknown, path: readonly string[], strategyAt: StrategyAt): Merged {
  if (isJsonObject(patch)) return mergeMap(isJsonObject(original) ? original : {}, patch, path, strategyAt);
  if (Array.isArray(patch)) return mergeList(Array.isArray(original) ? original : [], patch, path, strategyAt);
  return patch;
}

/** A patch map with no original: directives are applied to nothing, so none of them is stored. */
function fresh(patch: unknown, path: readonly string[], strategyAt: StrategyAt): Merged {
  return mergeValue(undefined, patch, path, strategyAt);
}

function isListDirective(item: unknown): item is JsonObject {
  return isJsonObject(item) && hasOwn(item, DIRECTIVE) && Object.keys(item).length === 1;
}

function mergeList(original: unknown[], patch: readonly unknown[], path: readonly string[], strategyAt: StrategyAt): Merged {
  let replace = false;
  for (const item of patch.filter(isListDirective)) {
    const directive = item[DIRECTIVE];
    if (directive === 'delete') return REMOVE;
    if (directive === 'replace') replace = true;
    else if (directive !== 'merge') throw new PatchError(`unknown "$patch" directive ${JSON.stringify(directive)} in list ${where(path)}`);
  }
  const items = patch.filter((item) => !isListDirective(item));
  const strategy = strategyAt(path);
  if (strategy === undefined || replace) {
    const replaced = items.map((item) => fresh(item, path, strategyAt));
    return replaced.filter((item) => item !== REMOVE);
  }
  const result = [...original];
  const key = strategy.mergeKey;
  if (key === undefined) {
    for (const item of items) if (!result.some((existing) => jsonEqual(existing, item))) result.push(cloneJson(item));
    return result;
  }
  for (const item of items) {
    if (!isJsonObject(item) || !hasOwn(item, key)) {
      throw new PatchError(`list ${where(path)} is merged by "${key}", but the patch item ${JSON.stringify(item)} has no "${key}"`);
    }
    const index = result.findIndex((existing) => isJsonObject(existing) && hasOwn(existing, key) && jsonEqual(existing[key], item[key]));
    const existing = result[index];
    const merged = isJsonObject(existing) ? mergeMap(existing, item, path, strategyAt) : fresh(item, path, strategyAt);
    if (merged === REMOVE) {
      if (index >= 0) result.splice(index, 1);
    } else if (index >= 0) {
      result[index] = merged;
    } else {
      result.push(merged);
    }
  }
  return result;
}

/**
 * Reorders `list` by `order` ($setElementOrder): the items the order names take the slots such items occupy, in
 * the order given; items it does not name stay where they are.
 */
function reorder(list: readonly unknown[], order: readonly unknown[], strategy: ListStrategy | undefined): unknown[] {
  const key = strategy?.mergeKey;
  const identity = (item: unknown): unknown => (key === undefined ? item : isJsonObject(item) ? getOwn(item, key) : undefined);
  const rank = (item: unknown): number => {
    const id = identity(item);
    return id === undefined ? -1 : order.findIndex((entry) => jsonEqual(identity(entry), id));
  };
  const ranked = list.map((item) => ({ item, rank: rank(item) }));
  const named = ranked.filter((entry) => entry.rank >= 0).sort((a, b) => a.rank - b.rank);
  let next = 0;
  return ranked.map((entry) => {
    if (entry.rank < 0) return entry.item;
    const taken = named[next];
    next += 1;
    return taken === undefined ? entry.item : taken.item;
  });
}
