/**
 * Immutability of the loaded definition: plain deep copies (no prototypes from the input survive) and a deep
 * freeze, including a Map whose mutators throw.
 */

/** A Map that cannot be changed after construction: `set`, `delete` and `clear` throw a TypeError. */
export class FrozenMap<K, V> extends Map<K, V> {
  readonly #sealed: boolean;

  constructor(entries: Iterable<readonly [K, V]>) {
    super();
    for (const [key, value] of entries) super.set(key, value);
    this.#sealed = true;
    Object.freeze(this);
  }

  override set(key: K, value: V): this {
    if (this.#sealed) throw new TypeError('cannot change a frozen map');
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    void key;
    throw new TypeError('cannot change a frozen map');
  }

  override clear(): void {
    throw new TypeError('cannot change a frozen map');
  }
}

/** A deep copy made of plain objects and arrays (input objects may have a null prototype). */
export function toPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlain);
  if (typeof value !== 'object' || value === null) return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(result, key, { value: toPlain(item), enumerable: true, writable: true, configurable: true });
  }
  return result;
}

/** Freezes `value` and everything reachable from it (objects, arrays, and the values of Maps). Returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Map) {
    for (const item of value.values()) deepFreeze(item);
  } else {
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return Object.freeze(value);
}
