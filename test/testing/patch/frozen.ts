// Deep-freezes test inputs: a patch engine that writes to its inputs then throws (ES modules are strict mode).

/** Freezes `value` and everything reachable from it, and returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}

/** A deep copy through JSON, to compare an input with what it was before a call. */
export function snapshot<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
