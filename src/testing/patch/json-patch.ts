/**
 * JSON Patch (RFC 6902), the `application/json-patch+json` PATCH of the test API server, as kube-apiserver 1.37.2
 * applies it: with gopkg.in/evanphx/json-patch.v4 v4.13.0, whose behaviour and error texts are kept here word for
 * word, where it departs from the RFC too. `replace` of a missing member adds it; an array index may be negative
 * (from the end); an operation without `value` writes null; `test` of a missing member passes against null or no
 * value; `move` into its own child fails (the source is gone when the destination is looked for); a path that does
 * not start with `/` loses its first token. The document is held as the library holds it (json-patch-nodes.ts).
 */
import { add, equal, findObject, get, LazyNode, marshal, materialize, panic, parseAry, parseDoc, remove, rootOf, set, type Slot } from './json-patch-nodes.js';
import { decodeJsonPatch, type JsonPatch, type JsonPatchOperation, type PointerMember } from './json-patch-decode.js';
import { PatchError } from './patch-error.js';

export { PatchError } from './patch-error.js';
export { decodeJsonPatch, type JsonPatch, type JsonPatchOperation } from './json-patch-decode.js';

/**
 * The most bytes a patch's `copy` operations may write in all (kube-apiserver sets the library's
 * `AccumulatedCopySizeLimit` to its `JSONPatchMaxCopyBytes`, 3 MiB).
 */
export const JSON_PATCH_MAX_COPY_BYTES = 3 * 1024 * 1024;

/** The document while operations apply: the root may be replaced (`replace` of `""`). */
interface Document {
  root: LazyNode;
  /** What the `copy` operations have written so far, in bytes. */
  copied: number;
}

/**
 * Decodes and applies a JSON patch (an array of operations) to `target` and returns the result; neither argument
 * is modified. Throws {@link PatchError} (its `decoding` tells the two apart) for a patch that does not decode or
 * does not apply, with the library's words: `Unexpected kind: frob`, `testing value /metadata/name failed: test
 * failed`, `add operation does not apply: doc is missing path: "/data/x": missing value`, ...
 */
export function applyJsonPatch(target: unknown, operations: unknown): unknown {
  return applyDecodedJsonPatch(target, decodeJsonPatch(operations));
}

/** Applies a decoded patch to `target` (not modified); throws {@link PatchError} with the library's error text. */
export function applyDecodedJsonPatch(target: unknown, patch: JsonPatch): unknown {
  return materialize(patchedRoot(target, patch));
}

/** The library's document after `patch` applied to `target`: for the text it writes of it (patched-text.ts). */
export function patchedRoot(target: unknown, patch: JsonPatch): Slot {
  const root = rootOf(target);
  if (!(root instanceof LazyNode)) throw new PatchError(root.error);
  const document: Document = { root, copied: 0 };
  for (const operation of patch) {
    const error = applyOperation(document, operation);
    if (error !== undefined) throw new PatchError(error);
  }
  return document.root;
}

/** The operation's value: none without `value`, a node with a nil raw for `"value": null`. */
function valueOf(operation: JsonPatchOperation): Slot {
  if (operation.value === undefined) return undefined;
  return new LazyNode(operation.value === null ? undefined : { text: operation.value });
}

function pointer(member: PointerMember): string | undefined {
  return 'pointer' in member ? member.pointer : undefined;
}

/** Applies one operation; answers the library's error, if any. */
function applyOperation(document: Document, operation: JsonPatchOperation): string | undefined {
  switch (operation.op) {
    case 'add':
      return addOperation(document.root, operation);
    case 'remove':
      return removeOperation(document.root, operation);
    case 'replace':
      return replaceOperation(document, operation);
    case 'move':
      return moveOperation(document.root, operation);
    case 'test':
      return testOperation(document.root, operation);
    case 'copy':
      return copyOperation(document, operation);
    default:
      return `Unexpected kind: ${operation.op}`;
  }
}

function addOperation(root: LazyNode, operation: JsonPatchOperation): string | undefined {
  const path = pointer(operation.path);
  if (path === undefined) return 'add operation failed to decode path: missing value';
  const target = findObject(root, path);
  if (target === undefined) return `add operation does not apply: doc is missing path: "${path}": missing value`;
  const error = add(target.container, target.key, valueOf(operation));
  return error === undefined ? undefined : `error in add for path: '${path}': ${error}`;
}

function removeOperation(root: LazyNode, operation: JsonPatchOperation): string | undefined {
  const path = pointer(operation.path);
  if (path === undefined) return 'remove operation failed to decode path: missing value';
  const target = findObject(root, path);
  if (target === undefined) return `remove operation does not apply: doc is missing path: "${path}": missing value`;
  const error = remove(target.container, target.key);
  return error === undefined ? undefined : `error in remove for path: '${path}': ${error}`;
}

function replaceOperation(document: Document, operation: JsonPatchOperation): string | undefined {
  if ('error' in operation.path) return `replace operation failed to decode path: ${operation.path.error}`;
  const path = operation.path.pointer;
  if (path === '') {
    // The whole document, by an object or an array; Go formats the nil error it wraps as `%!w(<nil>)`.
    const value = valueOf(operation);
    if (value === undefined) return panic('runtime error: invalid memory address or nil pointer dereference');
    if (value.which === 'raw' && !parseDoc(value) && !parseAry(value)) return 'replace operation value must be object or array: %!w(<nil>)';
    document.root = value;
    return undefined;
  }
  const target = findObject(document.root, path);
  if (target === undefined) return `replace operation does not apply: doc is missing path: ${path}: missing value`;
  // Only an array checks what it replaces: an object's missing member is added.
  if ('error' in get(target.container, target.key)) return `replace operation does not apply: doc is missing key: ${path}: missing value`;
  const error = set(target.container, target.key, valueOf(operation));
  return error === undefined ? undefined : `error in remove for path: '${path}': ${error}`;
}

function moveOperation(root: LazyNode, operation: JsonPatchOperation): string | undefined {
  if ('error' in operation.from) return `move operation failed to decode from: ${operation.from.error}`;
  const from = operation.from.pointer;
  const source = findObject(root, from);
  if (source === undefined) return `move operation does not apply: doc is missing from path: ${from}: missing value`;
  // The library names the source's last token here, not its path.
  const got = get(source.container, source.key);
  if ('error' in got) return `error in move for path: '${source.key}': ${got.error}`;
  const removed = remove(source.container, source.key);
  if (removed !== undefined) return `error in move for path: '${source.key}': ${removed}`;
  if ('error' in operation.path) return `move operation failed to decode path: ${operation.path.error}`;
  const path = operation.path.pointer;
  const target = findObject(root, path);
  if (target === undefined) return `move operation does not apply: doc is missing destination path: ${path}: missing value`;
  const error = add(target.container, target.key, got.slot);
  return error === undefined ? undefined : `error in move for path: '${path}': ${error}`;
}

function testOperation(root: LazyNode, operation: JsonPatchOperation): string | undefined {
  if ('error' in operation.path) return `test operation failed to decode path: ${operation.path.error}`;
  const path = operation.path.pointer;
  const failed = `testing value ${path} failed: test failed`;
  const value = valueOf(operation);
  if (path === '') return equal(root, value) ? undefined : failed;
  const target = findObject(root, path);
  if (target === undefined) return `test operation does not apply: is missing path: ${path}: missing value`;
  const got = get(target.container, target.key);
  if ('error' in got) return `error in test for path: '${path}': ${got.error}`;
  // A missing member and a null one are both nil: equal to a null value, or to none.
  if (got.slot === undefined) return value === undefined || value.raw === undefined ? undefined : failed;
  if (value === undefined) return failed;
  return equal(got.slot, value) ? undefined : failed;
}

function copyOperation(document: Document, operation: JsonPatchOperation): string | undefined {
  if ('error' in operation.from) return `copy operation failed to decode from: ${operation.from.error}`;
  const from = operation.from.pointer;
  const source = findObject(document.root, from);
  if (source === undefined) return `copy operation does not apply: doc is missing from path: ${from}: missing value`;
  // A missing member is nil, and copied as null.
  const got = get(source.container, source.key);
  if ('error' in got) return `error in copy for from: '${from}': ${got.error}`;
  const path = pointer(operation.path);
  if (path === undefined) return 'copy operation failed to decode path: missing value';
  const target = findObject(document.root, path);
  if (target === undefined) return `copy operation does not apply: doc is missing destination path: ${path}: missing value`;
  // The copy is the source as the library writes it, and counts its bytes.
  const text = got.slot === undefined ? undefined : marshal(got.slot);
  document.copied += text === undefined ? 0 : Buffer.byteLength(text);
  if (document.copied > JSON_PATCH_MAX_COPY_BYTES) {
    return `Unable to complete the copy, the accumulated size increase of copy is ${document.copied}, exceeding the limit ${JSON_PATCH_MAX_COPY_BYTES}`;
  }
  const error = add(target.container, target.key, text === undefined ? undefined : new LazyNode({ text }));
  return error === undefined ? undefined : `error while adding value during copy: ${error}`;
}
