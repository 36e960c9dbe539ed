/**
 * JSON values as the patch engines see them, and the few operations they share. Every function here treats keys
 * as data: `__proto__`, `constructor` and friends are read only when they are own properties and written with
 * `Object.defineProperty`, so a patch can never reach `Object.prototype`.
 */

/** A JSON object: a plain object whose values are JSON values. */
export type JsonObject = Record<string, unknown>;

/** True for a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as an object, or `{}` when it is not one (reading a field of stored JSON without trusting its shape). */
export function asObject(value: unknown): JsonObject {
  return isJsonObject(value) ? value : {};
}

/** True when `key` is an own property of `object`. */
export function hasOwn(object: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** The own property `key` of `object`, or `undefined`; never an inherited value such as `Object.prototype`. */
export function getOwn(object: JsonObject, key: string): unknown {
  return hasOwn(object, key) ? object[key] : undefined;
}

/** Sets the own property `key` (a plain data property, even for `__proto__`). Mutates `object`. */
export function setOwn(object: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    object[key] = value;
  }
}

/** Removes the own property `key`. Mutates `object`. */
export function deleteOwn(object: JsonObject, key: string): void {
  if (hasOwn(object, key)) Reflect.deleteProperty(object, key);
}

/** A deep copy of a JSON value made of fresh plain objects and arrays; `__proto__` keys stay data. */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => cloneJson(item)) as T;
  if (isJsonObject(value)) {
    const copy: JsonObject = {};
    for (const key of Object.keys(value)) setOwn(copy, key, cloneJson(value[key]));
    return copy as T;
  }
  return value;
}

/** Structural equality of two JSON values (object key order does not matter, array order does). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item: unknown, index) => jsonEqual(item, b[index]));
  }
  if (isJsonObject(a)) {
    if (!isJsonObject(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => hasOwn(b, key) && jsonEqual(a[key], b[key]));
  }
  return false;
}

/** A short description of a value's JSON type, for error messages. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
