/**
 * Kubernetes strategic merge patch (`application/strategic-merge-patch+json`) for the built-in kinds, driven by the
 * merge keys of strategic-keys.ts, as apimachinery's strategicpatch applies it on kube-apiserver.
 */
import { cloneJson, deleteOwn, getOwn, hasOwn, isJsonObject, jsonEqual, jsonTypeOf, setOwn, type JsonObject } from './json-value.js';
import { PatchError } from './patch-error.js';
import type { ListStrategy, StrategicSchema } from './strategic-keys.js';
import { checkElementOrder, noMergeKey, orderMerged } from './strategic-order.js';
import { goMapValue } from '../go/go-values.js';

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
 * - Lists the kind's type merges (`patchStrategy: merge`) merge by their merge key (items with the same key are
 *   merged as maps, new items added) or, without a key, as a set of primitives (the union), and are left in
 *   kube-apiserver's order (strategic-order.ts). Every other list is atomic and replaced whole.
 * - Directives: `$patch: replace` (in a map: replace the map; in a keyed list, as an item: replace the list with the
 *   patch's other items), `$patch: delete` (in a keyed list item: delete the items with that key; in a map: remove
 *   the map), `$patch: merge` (the default in a map; a 500 in a keyed list, as in kube-apiserver); `$retainKeys:
 *   [...]` (drop the other keys of the original map first); `$deleteFromPrimitiveList/<field>: [...]` (remove those
 *   values from a primitive list); `$setElementOrder/<field>: [...]` (merge that list, then order it by this one).
 *   Directive keys are never stored.
 *
 * Throws {@link PatchError} for a patch that is not an object, an unknown `$patch` value, a keyed-list item
 * without its merge key, a `$setElementOrder` the patch list does not follow, or a malformed directive.
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

  const ordered = applyElementOrders(result, patch, path, strategyAt);
  for (const key of Object.keys(patch)) {
    if (isDirectiveKey(key) || ordered.has(key)) continue;
    const value = patch[key];
    const merged = value === null ? REMOVE : mergeValue(getOwn(result, key), value, [...path, key], strategyAt);
    if (merged === REMOVE) deleteOwn(result, key);
    else setOwn(result, key, merged);
  }

  return result;
}

/**
 * The lists a `$setElementOrder/<field>` names, merged with the patch's list for that field and put in the order
 * it gives (strategicpatch's mergePatchIntoOriginal); answers the fields done, which the merge then leaves alone.
 */
function applyElementOrders(result: JsonObject, patch: JsonObject, path: readonly string[], strategyAt: StrategyAt): Set<string> {
  const done = new Set<string>();
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = patch[key];
    if (!Array.isArray(order)) throw new PatchError(`${key} in ${where(path)} must be a list`);
    const field = key.slice(SET_ELEMENT_ORDER.length);
    const fieldPath = [...path, field];
    const mergeKey = strategyAt(fieldPath)?.mergeKey;
    const current = getOwn(result, field);
    const patched = getOwn(patch, field);
    const patchList = Array.isArray(patched) ? patched : [];
    checkElementOrder(patchList, order, mergeKey);
    let merged: Merged;
    if (Array.isArray(current) && Array.isArray(patched)) merged = mergeList(current, patched, fieldPath, strategyAt);
    else if (Array.isArray(current)) merged = current;
    else if (Array.isArray(patched)) merged = fresh(patched, fieldPath, strategyAt);
    else continue;
    done.add(field);
    if (merged === REMOVE) deleteOwn(result, field);
    else setOwn(result, field, orderMerged(merged as unknown[], order, Array.isArray(current) ? current : [], mergeKey));
  }
  return done;
}

function stringList(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || !value.every((item: unknown) => typeof item === 'string')) throw new PatchError(`${what} must be a list of strings`);
  return value as string[];
}

/** Merges a patch value into an owned original value. */
function mergeValue(original: unknown, patch: unknown, path: readonly string[], strategyAt: StrategyAt): Merged {
  if (isJsonObject(patch)) return mergeMap(isJsonObject(original) ? original : {}, patch, path, strategyAt);
  if (Array.isArray(patch)) {
    if (Array.isArray(original)) return mergeList(original, patch, path, strategyAt);
    // A list the original does not have is the patch's, without the items that are directives (removeDirectives).
    return patch.filter((item) => !(isJsonObject(item) && hasOwn(item, DIRECTIVE))).map((item: unknown) => fresh(item, path, strategyAt));
  }
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
  const strategy = strategyAt(path);
  if (strategy?.mergeKey !== undefined) return mergeKeyedList(original, patch, path, strategy.mergeKey, strategyAt);
  let replace = false;
  for (const item of patch.filter(isListDirective)) {
    const directive = item[DIRECTIVE];
    if (directive === 'delete') return REMOVE;
    if (directive === 'replace') replace = true;
    else if (directive !== 'merge') throw new PatchError(`unknown "$patch" directive ${JSON.stringify(directive)} in list ${where(path)}`);
  }
  const items = patch.filter((item) => !isListDirective(item));
  if (strategy === undefined || replace) {
    const replaced = items.map((item) => fresh(item, path, strategyAt));
    return replaced.filter((item) => item !== REMOVE);
  }
  // A set of primitives: the union, in kube-apiserver's order.
  const merged = [...original];
  for (const item of items) if (!merged.some((existing) => jsonEqual(existing, item))) merged.push(cloneJson(item));
  return orderMerged(merged, items, original, undefined);
}

/**
 * A list merged by `key` as strategicpatch's mergeSlice does: items with `$patch` first (`delete` removes the items
 * with its key, `replace` replaces the list with the patch's other items), then each item merged into the one with
 * its key or added, and the result put in kube-apiserver's order.
 */
function mergeKeyedList(original: unknown[], patch: readonly unknown[], path: readonly string[], key: string, strategyAt: StrategyAt): Merged {
  let server = [...original];
  const items: JsonObject[] = [];
  let replace = false;
  for (const item of patch) {
    if (!isJsonObject(item)) throw new PatchError(`list ${where(path)} is merged by "${key}", but the patch item ${JSON.stringify(item)} is not a map`);
    if (!hasOwn(item, DIRECTIVE)) {
      items.push(item);
      continue;
    }
    const directive = item[DIRECTIVE];
    if (directive === 'delete') {
      if (!hasOwn(item, key)) throw noMergeKey(item, key);
      server = server.filter((existing) => !(isJsonObject(existing) && hasOwn(existing, key) && jsonEqual(existing[key], item[key])));
    } else if (directive === 'replace') replace = true;
    else if (directive === 'merge') throw new PatchError('merging lists cannot yet be specified in the patch', { internal: true });
    else throw new PatchError(`unknown patch type: ${String(directive)} in map: ${goMapValue(item)}`, { internal: true });
  }
  if (replace) return items.map((item) => fresh(item, path, strategyAt)).filter((item) => item !== REMOVE);
  const result = [...server];
  for (const item of items) {
    if (!hasOwn(item, key)) throw noMergeKey(item, key);
    const index = result.findIndex((existing) => isJsonObject(existing) && hasOwn(existing, key) && jsonEqual(existing[key], item[key]));
    const existing = result[index];
    const merged = isJsonObject(existing) ? mergeMap(existing, item, path, strategyAt) : fresh(item, path, strategyAt);
    if (merged === REMOVE) continue;
    if (index >= 0) result[index] = merged;
    else result.push(merged);
  }
  return orderMerged(result, items, server, key);
}

