/**
 * A JSON patch decoded as kube-apiserver's patch library decodes it (evanphx/json-patch v4 `DecodePatch`): an array
 * (or `null`, no operations) of objects (or `null`), each member kept as raw JSON and read only when the operation
 * applies. So an operation's `op`, `path` and `from` are read here into what the library later finds in them, and
 * its `value` is kept as the text it was sent as, which `test` compares scalars by.
 */
import { jsonType } from '../go/go-json.js';
import { rawElements, rawMembers, skipSpace } from './json-raw.js';
import { getOwn, hasOwn, isJsonObject } from './json-value.js';
import { PatchError } from './patch-error.js';

/** A `path` or `from` as the library reads it: the pointer, or its error when missing or not a string. */
export type PointerMember = { readonly pointer: string } | { readonly error: string };

/** One decoded operation: plain data, so that a decoded patch can be cloned. */
export interface JsonPatchOperation {
  /** The library's `Kind()`: the `op` string, `unknown` when it is missing, null or not a string. */
  readonly op: string;
  readonly path: PointerMember;
  readonly from: PointerMember;
  /** The text of `value` as sent; `null` for `"value": null` (Go's nil raw message); undefined without one. */
  readonly value: string | null | undefined;
}

export type JsonPatch = readonly JsonPatchOperation[];

function pointerMember(operation: Record<string, unknown>, member: 'path' | 'from'): PointerMember {
  const value = getOwn(operation, member);
  if (typeof value === 'string') return { pointer: value };
  if (value === undefined || value === null) {
    return { error: member === 'path' ? 'operation missing path field: missing value' : 'operation, missing from field: missing value' };
  }
  return { error: `json: cannot unmarshal ${jsonType(value)} into Go value of type string` };
}

/** The text of each operation's `value` (the last one when repeated, as a Go map keeps it), from the patch's text. */
function valueTexts(text: string): Array<string | undefined> {
  const top = text.slice(skipSpace(text, 0));
  return rawElements(top).map((element) => (element.startsWith('{') ? rawMembers(element).findLast(([key]) => key === 'value')?.[1] : undefined));
}

/**
 * Decodes `value`, a JSON patch as parsed from `text`. With the text, each `value` keeps the text it was sent as;
 * without, it is `JSON.stringify`'s (the same unless the sender wrote `1.0`, escapes, or another number form).
 * Throws a {@link PatchError} with `decoding` and Go's words: `json: cannot unmarshal object into Go value of type
 * jsonpatch.Patch` for a patch that is not an array, `... jsonpatch.Operation` for an operation that is not an object.
 */
export function decodeJsonPatch(value: unknown, text?: string): JsonPatch {
  if (value === null) return [];
  if (!Array.isArray(value)) throw new PatchError(`json: cannot unmarshal ${jsonType(value)} into Go value of type jsonpatch.Patch`, { decoding: true });
  const refused = value.find((operation: unknown) => operation !== null && !isJsonObject(operation));
  if (refused !== undefined) throw new PatchError(`json: cannot unmarshal ${jsonType(refused)} into Go value of type jsonpatch.Operation`, { decoding: true });
  const texts = text === undefined ? undefined : valueTexts(text);
  return (value as Array<Record<string, unknown> | null>).map((operation, index): JsonPatchOperation => {
    // A null operation is Go's nil map: every member missing.
    const members = operation ?? {};
    const op = getOwn(members, 'op');
    const sent = getOwn(members, 'value');
    return {
      op: typeof op === 'string' ? op : 'unknown',
      path: pointerMember(members, 'path'),
      from: pointerMember(members, 'from'),
      value: !hasOwn(members, 'value') ? undefined : sent === null ? null : (texts?.[index] ?? JSON.stringify(sent)),
    };
  });
}
