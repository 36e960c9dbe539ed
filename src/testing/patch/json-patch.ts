/**
 * JSON Patch (RFC 6902), the `application/json-patch+json` PATCH of the test API server.
 */
import { arrayIndex, formatPointer, parsePointer } from './json-pointer.js';
import { cloneJson, deleteOwn, getOwn, hasOwn, isJsonObject, jsonEqual, jsonTypeOf, setOwn } from './json-value.js';
import { PatchError } from './patch-error.js';

export { PatchError } from './patch-error.js';

type Operation =
  | { readonly op: 'add' | 'replace' | 'test'; readonly path: string[]; readonly value: unknown }
  | { readonly op: 'remove'; readonly path: string[] }
  | { readonly op: 'move' | 'copy'; readonly path: string[]; readonly from: string[] };

/**
 * Applies a JSON patch (an array of operations) to `target` and returns the result; neither argument is modified.
 *
 * Supports `add`, `remove`, `replace`, `move`, `copy` and `test` with RFC 6901 pointers (`~0`, `~1`, and `-` to
 * append to an array in `add`, `move` and `copy`). The patch is atomic: if the list is malformed, a path does not
 * exist, an index is out of range or a `test` fails, it throws {@link PatchError} and nothing is returned.
 * Unknown members of an operation are ignored, as RFC 6902 requires.
 */
export function applyJsonPatch(target: unknown, operations: unknown): unknown {
  const parsed = parseOperations(operations);
  let document = cloneJson(target);
  parsed.forEach((operation, index) => {
    try {
      document = applyOperation(document, operation);
    } catch (error) {
      if (error instanceof PatchError) {
        throw new PatchError(`operation ${index} (${operation.op} ${formatPointer(operation.path)}): ${error.reason}`, { cause: error });
      }
      throw error;
    }
  });
  return document;
}

function parseOperations(operations: unknown): Operation[] {
  if (!Array.isArray(operations)) throw new PatchError(`a JSON patch must be an array of operations, got ${jsonTypeOf(operations)}`);
  return operations.map((raw: unknown, index): Operation => {
    if (!isJsonObject(raw)) throw new PatchError(`operation ${index} must be an object, got ${jsonTypeOf(raw)}`);
    const op = getOwn(raw, 'op');
    const path = pointerMember(raw, 'path', index);
    switch (op) {
      case 'add':
      case 'replace':
      case 'test':
        if (!hasOwn(raw, 'value')) throw new PatchError(`operation ${index} (${op}) has no "value"`);
        return { op, path, value: raw['value'] };
      case 'remove':
        return { op, path };
      case 'move':
      case 'copy':
        return { op, path, from: pointerMember(raw, 'from', index) };
      default:
        throw new PatchError(`operation ${index} has an unknown "op" ${JSON.stringify(op) ?? 'undefined'}`);
    }
  });
}

function pointerMember(raw: Record<string, unknown>, member: 'path' | 'from', index: number): string[] {
  const value = getOwn(raw, member);
  if (typeof value !== 'string') throw new PatchError(`operation ${index} has no string "${member}"`);
  return parsePointer(value);
}

/** Applies one operation to `document`, which this module owns and may mutate; returns the new root. */
function applyOperation(document: unknown, operation: Operation): unknown {
  switch (operation.op) {
    case 'add':
      return add(document, operation.path, cloneJson(operation.value));
    case 'remove':
      if (operation.path.length === 0) throw new PatchError('cannot remove the whole document');
      return remove(document, operation.path).document;
    case 'replace':
      if (operation.path.length === 0) return cloneJson(operation.value);
      return add(remove(document, operation.path).document, operation.path, cloneJson(operation.value));
    case 'move': {
      const from = operation.from;
      if (from.length < operation.path.length && from.every((token, i) => token === operation.path[i])) {
        throw new PatchError(`cannot move ${formatPointer(from)} into one of its own children`);
      }
      const removed = remove(document, from);
      return add(removed.document, operation.path, removed.value);
    }
    case 'copy':
      return add(document, operation.path, cloneJson(resolve(document, operation.from)));
    case 'test': {
      const actual = resolve(document, operation.path);
      if (!jsonEqual(actual, operation.value)) {
        throw new PatchError(`test failed: value is ${JSON.stringify(actual)}, expected ${JSON.stringify(operation.value)}`);
      }
      return document;
    }
  }
}

/** The value at `path`; throws when it does not exist. */
function resolve(document: unknown, path: readonly string[]): unknown {
  let current = document;
  path.forEach((token, depth) => {
    current = child(current, token, path.slice(0, depth + 1));
  });
  return current;
}

function child(container: unknown, token: string, at: readonly string[]): unknown {
  if (Array.isArray(container)) {
    const index = arrayIndex(token);
    if (index === undefined || index >= container.length) throw new PatchError(`path ${formatPointer(at)} does not exist`);
    return container[index];
  }
  if (isJsonObject(container) && hasOwn(container, token)) return container[token];
  throw new PatchError(`path ${formatPointer(at)} does not exist`);
}

function add(document: unknown, path: readonly string[], value: unknown): unknown {
  const token = path.at(-1);
  if (token === undefined) return value;
  const parent = resolve(document, path.slice(0, -1));
  if (Array.isArray(parent)) {
    const index = token === '-' ? parent.length : arrayIndex(token);
    if (index === undefined || index > parent.length) throw new PatchError(`array index ${formatPointer(path)} is out of range`);
    parent.splice(index, 0, value);
  } else if (isJsonObject(parent)) {
    setOwn(parent, token, value);
  } else {
    throw new PatchError(`cannot add to ${formatPointer(path.slice(0, -1))}: it is ${jsonTypeOf(parent)}, not an object or array`);
  }
  return document;
}

function remove(document: unknown, path: readonly string[]): { document: unknown; value: unknown } {
  const token = path.at(-1);
  if (token === undefined) return { document: null, value: document };
  const parent = resolve(document, path.slice(0, -1));
  const value = child(parent, token, path);
  if (Array.isArray(parent)) {
    parent.splice(arrayIndex(token) ?? parent.length, 1);
  } else if (isJsonObject(parent)) {
    deleteOwn(parent, token);
  }
  return { document, value };
}
