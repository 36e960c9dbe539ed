/**
 * What Go's `encoding/json` answers when kube-apiserver decodes a create or update body of a built-in kind into its
 * Go struct and a value has another JSON type than the field (generated Go types, go/builtin-fields.ts): the first such
 * value in the body's order, as `json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of
 * type int32` (the struct holding the field, the field's JSON path without list indices or map keys, the Go type).
 * `null` fits every field; unknown fields are fieldValidation's; a quantity is checked by its own parser; a `[]byte`
 * (a webhook's `caBundle`) must be base64 (`illegal base64 data at input byte 3`). A time that
 * is not Go's RFC 3339 (a MicroTime: with exactly six digits of a second) is `time.Parse`'s error, which ends decoding
 * at once, as an int-or-string's error does; a value of the wrong type is the first one only if none of those comes.
 */
import { BUILTIN_STRUCTS } from '../go/builtin-fields.js';
import { storedAt } from '../go/go-encoding.js';
import { parseGoTime } from '../go/go-time.js';
import { goBase64Error } from '../go/go-base64.js';
import { jsonType } from '../go/go-json.js';

const INT_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  int8: [-(2 ** 7), 2 ** 7 - 1],
  int16: [-(2 ** 15), 2 ** 15 - 1],
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint8: [0, 2 ** 8 - 1],
  uint16: [0, 2 ** 16 - 1],
  uint32: [0, 2 ** 32 - 1],
  uint64: [0, Number.MAX_SAFE_INTEGER],
};

/** The Go type a generated reference stands for, as reflect prints it (`[]v1.Container`, `map[string]string`, `int32`). */
function goTypeOf(ref: string): string {
  if (ref.startsWith('[]')) return `[]${goTypeOf(ref.slice(2))}`;
  if (ref.startsWith('{}')) return `map[string]${goTypeOf(ref.slice(2))}`;
  if (BUILTIN_STRUCTS[ref] !== undefined) return ref.split('.').slice(-2).join('.');
  const [code = '', goType] = ref.split(':');
  return goType ?? ({ s: 'string', b: 'bool', n: 'float64', io: 'int32' } as Record<string, string>)[code] ?? 'interface {}';
}

/** Whether `value` fits an integer Go type; answers Go's description of it when it does not. */
export function integerProblem(value: unknown, goType: string): string | undefined {
  if (typeof value !== 'number') return jsonType(value);
  const [min, max] = INT_RANGES[goType] ?? [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
  return Number.isInteger(value) && value >= min && value <= max ? undefined : `number ${String(value)}`;
}

/** The JSON type of `value` when it does not fit scalar reference `ref`, else undefined. */
function scalarProblem(value: unknown, ref: string): string | undefined {
  const [code = '', goType = ''] = ref.split(':');
  switch (code) {
    case 's':
      return typeof value === 'string' ? undefined : jsonType(value);
    case 'b':
      return typeof value === 'boolean' ? undefined : jsonType(value);
    case 'n':
      return typeof value === 'number' ? undefined : jsonType(value);
    case 'i':
      return integerProblem(value, goType);
    case 'io':
      // IntOrString: a string, or else decoded as an int32.
      return typeof value === 'string' ? undefined : integerProblem(value, 'int32');
    // `x`: a quantity, read by its own parser (not here); times are read in decodeError.
    default:
      return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON path as a chain of keys, joined only when an error names it. */
interface PathNode {
  readonly key: string;
  readonly up: PathNode | undefined;
}

function pathText(node: PathNode | undefined): string {
  const keys: string[] = [];
  for (let at = node; at !== undefined; at = at.up) keys.push(at.key);
  return keys.reverse().join('.');
}

/** Each struct's fields by JSON name, and its Go name (as errors print it), built once. */
const structFields = new Map<string, { readonly name: string; readonly types: ReadonlyMap<string, string> }>();

function fieldsOf(ref: string): { readonly name: string; readonly types: ReadonlyMap<string, string> } | undefined {
  let entry = structFields.get(ref);
  if (entry === undefined) {
    const fields = BUILTIN_STRUCTS[ref];
    if (fields === undefined) return undefined;
    entry = { name: ref.split('.').at(-1) ?? ref, types: new Map(fields.map(([name, type]) => [name, type])) };
    structFields.set(ref, entry);
  }
  return entry;
}

/** Where a walk is: the struct holding the field and the field's path, for the error's words. */
interface Place {
  readonly struct: string;
  readonly path: PathNode | undefined;
}

function unmarshalError(described: string, ref: string, place: Place): string {
  return `json: cannot unmarshal ${described} into Go struct field ${place.struct}.${pathText(place.path)} of type ${goTypeOf(ref)}`;
}

/**
 * Walks `value` of reference `ref` as Go's decoder does: a value of the wrong JSON type is remembered (the first one
 * in `found`) and decoding goes on; an error from a type's own decoder (a time, an int-or-string) ends it at once,
 * and is returned.
 */
function decodeError(value: unknown, ref: string, place: Place, found: { saved?: string }, stored: unknown): string | undefined {
  // What a patch left as it was stored decodes: the stored form is Go's own writing.
  if (value === null || ref === '' || value === stored) return undefined;
  if (ref.startsWith('[]') || ref.startsWith('{}')) {
    const list = ref.startsWith('[]');
    if (list ? !Array.isArray(value) : !isObject(value)) {
      found.saved ??= unmarshalError(jsonType(value), ref, place);
      return undefined;
    }
    const item = ref.slice(2);
    for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
      const error = decodeError(entry, item, place, found, storedAt(stored, key));
      if (error !== undefined) return error;
    }
    return undefined;
  }
  const struct = fieldsOf(ref);
  if (struct === undefined) return scalarError(value, ref, place, found);
  if (!isObject(value)) {
    found.saved ??= unmarshalError(jsonType(value), ref, place);
    return undefined;
  }
  for (const key in value) {
    const type = struct.types.get(key);
    if (type === undefined) continue;
    const error = decodeError(value[key], type, { struct: struct.name, path: { key, up: place.path } }, found, storedAt(stored, key));
    if (error !== undefined) return error;
  }
  return undefined;
}

/** A scalar field's error: a time's and an int-or-string's end decoding; another type's is remembered. */
function scalarError(value: unknown, ref: string, place: Place, found: { saved?: string }): string | undefined {
  if (ref.endsWith(':time') || ref.endsWith(':microtime')) {
    if (typeof value !== 'string') return unmarshalError(jsonType(value), ref, place);
    const time = parseGoTime(value, ref.endsWith(':time') ? 'time' : 'micro');
    return 'error' in time ? time.error : undefined;
  }
  const problem = scalarProblem(value, ref);
  // A []byte is a base64 string: encoding/json remembers a string that does not decode, as a value of a wrong type.
  if (problem === undefined && ref === 's:[]uint8' && typeof value === 'string') {
    const at = goBase64Error(value);
    if (at >= 0) found.saved ??= `illegal base64 data at input byte ${at}`;
  }
  if (problem === undefined) return undefined;
  if (ref === 'io') return unmarshalError(problem, ref, place);
  found.saved ??= unmarshalError(problem, ref, place);
  return undefined;
}

/**
 * Go's first decoding error of `body` as a value of generated struct `root`, or undefined when it decodes.
 * `stored`: the stored object a patch's result `body` came from, whose members it shares where the patch did not
 * reach (not walked again).
 */
export function goDecodingError(root: string, body: unknown, stored?: unknown): string | undefined {
  const found: { saved?: string } = {};
  return decodeError(body, root, { struct: root.split('.').at(-1) ?? root, path: undefined }, found, stored) ?? found.saved;
}
