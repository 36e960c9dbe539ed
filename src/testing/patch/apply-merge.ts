/**
 * The object half of server-side apply: merging an applied configuration into the live object.
 */
import { stableJson } from './field-set.js';
import { cloneJson, deleteOwn, getOwn, isJsonObject, setOwn, type JsonObject } from './json-value.js';
import { keyFieldsOf, type FieldScope } from './field-walk.js';
import type { ListKeyLookup } from './managed-fields.js';

/** Metadata the server owns: an applied configuration never changes it. */
const SYSTEM_METADATA = new Set([
  'managedFields',
  'resourceVersion',
  'uid',
  'creationTimestamp',
  'generation',
  'selfLink',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
]);

/** What a merge needs besides the two values. */
interface MergeContext {
  readonly listKeys: ListKeyLookup;
  /** A `null` is kept as a value (a custom resource's, which its schema then judges) instead of removing the field. */
  readonly keepNulls: boolean;
}

/**
 * Merges `applied` into `live`, which the caller owns and which is mutated and returned: maps merge key by key,
 * `null` removes a field (a built-in kind's decoding drops it; with `keepNulls`, for a custom resource, it is the
 * field's value, as structured-merge-diff merges it), associative lists merge item by item on their keys (new items
 * appended), sets take the union (new values appended), atomic lists, atomic maps and scalars are replaced. Server-owned metadata
 * (`uid`, `resourceVersion`, `managedFields`...) is never taken from `applied`. With `scope`, only those top-level
 * fields are merged.
 */
export function mergeApplied(live: JsonObject, applied: JsonObject, listKeys: ListKeyLookup, scope?: FieldScope, keepNulls = false): JsonObject {
  const ctx: MergeContext = { listKeys, keepNulls };
  for (const key of Object.keys(applied)) {
    if (scope !== undefined && !scope.includes(key)) continue;
    if (key === 'metadata' && isJsonObject(applied[key])) {
      const metadata = getOwn(live, key);
      const target: JsonObject = isJsonObject(metadata) ? metadata : {};
      const source = applied[key];
      const filtered: JsonObject = {};
      for (const field of Object.keys(source)) if (!SYSTEM_METADATA.has(field)) setOwn(filtered, field, source[field]);
      setOwn(live, key, mergeMap(target, filtered, [key], ctx));
      continue;
    }
    mergeField(live, key, applied[key], [key], ctx);
  }
  return live;
}

// `fields` is the stack of field names down to the value merged (list items add none), for the list-key lookup:
// one array per merge, pushed and popped, not a copy per field.

function mergeField(target: JsonObject, key: string, value: unknown, fields: string[], ctx: MergeContext): void {
  if (value === null && !ctx.keepNulls) deleteOwn(target, key);
  else setOwn(target, key, mergeValue(getOwn(target, key), value, fields, ctx));
}

function mergeMap(target: JsonObject, applied: JsonObject, fields: string[], ctx: MergeContext): JsonObject {
  for (const key of Object.keys(applied)) {
    fields.push(key);
    mergeField(target, key, applied[key], fields, ctx);
    fields.pop();
  }
  return target;
}

function mergeValue(live: unknown, applied: unknown, fields: string[], ctx: MergeContext): unknown {
  if (isJsonObject(applied)) return ctx.listKeys.atomicMap?.(fields) === true ? cloneJson(applied) : mergeMap(isJsonObject(live) ? live : {}, applied, fields, ctx);
  if (!Array.isArray(applied)) return applied;
  const keys = ctx.listKeys(fields.slice());
  if (keys === undefined) return cloneJson(applied);
  const result = Array.isArray(live) ? [...(live as unknown[])] : [];
  // Items are found through an index of their identities (key fields, or the value of a set item).
  const positions = new Map<string, number>();
  for (let position = 0; position < result.length; position++) {
    const id = identityOf(result[position], keys, fields, ctx.listKeys.keyDefault);
    if (id !== undefined && !positions.has(id)) positions.set(id, position);
  }
  for (const item of applied as unknown[]) {
    const id = identityOf(item, keys, fields, ctx.listKeys.keyDefault);
    const position = id === undefined ? undefined : positions.get(id);
    const existing = position === undefined ? undefined : result[position];
    if (position !== undefined && keys.length === 0) continue;
    if (position !== undefined && isJsonObject(existing) && isJsonObject(item)) {
      result[position] = mergeMap(existing, item, fields, ctx);
    } else {
      if (id !== undefined) positions.set(id, result.length);
      result.push(mergeValue(undefined, item, fields, ctx));
    }
  }
  return result;
}

/**
 * The identity of a list item: its key fields (`keys`, a missing one with its default), or its value for a set (no
 * keys); undefined when unkeyed.
 */
function identityOf(item: unknown, keys: readonly string[], fields: readonly string[], keyDefault: ListKeyLookup['keyDefault']): string | undefined {
  if (keys.length === 0) return stableJson(item);
  if (!isJsonObject(item)) return undefined;
  const key = keyFieldsOf(item, keys, fields, keyDefault);
  return key === undefined ? undefined : stableJson(key);
}
