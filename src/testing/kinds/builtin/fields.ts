/**
 * Reading and filling in the fields of a built-in object as kube-apiserver's Go defaulters see them: a field that is
 * absent or `null` is a nil pointer, and a scalar that is also `""` or `0` is Go's zero value, which the defaulters
 * of non-pointer fields replace.
 */
export type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object at `key`, or undefined when there is none (absent, null, or not an object). */
export function objectAt(parent: Json, key: string): Json | undefined {
  const value = parent[key];
  return isObject(value) ? value : undefined;
}

/** The objects of the list at `key` (none when there is no list). */
export function objectsAt(parent: Json, key: string): Json[] {
  const value = parent[key];
  return Array.isArray(value) ? value.filter(isObject) : [];
}

/** The object at `key`, made `{}` first when there is none. */
export function ensureObject(parent: Json, key: string): Json {
  const value = parent[key];
  if (isObject(value)) return value;
  const made: Json = {};
  parent[key] = made;
  return made;
}

/** Whether `key` holds nothing: absent or null (Go's nil pointer, map or slice; an empty list counts too). */
export function unset(parent: Json, key: string): boolean {
  const value = parent[key];
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0);
}

/** Sets `key` to `value` when it holds nothing (a pointer field's default). */
export function whenUnset(parent: Json, key: string, value: unknown): void {
  if (parent[key] === undefined || parent[key] === null) parent[key] = value;
}

/** Sets `key` to `value` when it holds Go's zero value: nothing, `""` or `0` (a non-pointer field's default). */
export function whenZero(parent: Json, key: string, value: unknown): void {
  const current = parent[key];
  if (current === undefined || current === null || current === '' || current === 0) parent[key] = value;
}

/** The string at `key`, `''` when it is not one. */
export function textAt(parent: Json, key: string): string {
  const value = parent[key];
  return typeof value === 'string' ? value : '';
}
