/**
 * What kube-apiserver writes back for an object it stored. A built-in object is decoded into its Go struct, stored
 * as protobuf and written by `encoding/json`: its fields come in the struct's order, a map's keys sorted, an
 * `omitempty` field left out when empty (`paused: false`, `data: {}`), a field without it written even when absent
 * (a Role's `rules: null`, a container's `resources: {}`), and an empty list or map that Go always writes is `null`
 * after the protobuf round trip. A time is written in seconds (a MicroTime in microseconds), in UTC. A custom resource is a `map[string]interface{}`: every object's keys sorted.
 * Unknown fields are gone before this (pruning); a value of the wrong JSON type is kept as it is.
 */
import { BUILTIN_STRUCTS } from './builtin-fields.js';
import { goTimeText } from './go-time.js';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `omitempty`'s test for a string, number, bool, list or map (and an absent field). */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isObject(value) && Object.keys(value).length === 0;
}

/** One field of a struct, compiled from its generated entry. */
interface Field {
  readonly name: string;
  readonly type: string;
  /** '' omitempty, '*' omitempty on a pointer, 'z' omitzero, '!' always written. */
  readonly rule: string;
  /** The zero written for an absent always-written field, or compared by omitzero: a scalar or null, or the
   * struct whose encoding of an empty object it is. */
  readonly zero: { readonly value: unknown } | { readonly struct: string };
  /** A list or a map: empty, it is nil after a protobuf round trip. */
  readonly collection: boolean;
}

const compiled = new Map<string, readonly Field[]>();

function fieldsOf(struct: string): readonly Field[] {
  let fields = compiled.get(struct);
  if (fields === undefined) {
    fields = (BUILTIN_STRUCTS[struct] ?? []).map(([name, type, , encoding = '']) => {
      const zero = encoding.slice(1);
      return {
        name,
        type,
        rule: encoding.slice(0, 1),
        zero: zero === '{}' && BUILTIN_STRUCTS[type] !== undefined ? { struct: type } : { value: zero === '' ? undefined : (JSON.parse(zero) as unknown) },
        collection: type.startsWith('[]') || type.startsWith('{}'),
      };
    });
    compiled.set(struct, fields);
  }
  return fields;
}

/** The zero Go writes for a field: a fresh struct's encoding of an empty object, else the zero's JSON value. */
function zeroOf(field: Field): unknown {
  return 'struct' in field.zero ? encodeStruct(field.zero.struct, {}) : field.zero.value;
}

/** Whether an encoded value is the field's zero (omitzero's test). */
function isZeroOf(field: Field, written: unknown): boolean {
  const zero = zeroOf(field);
  return written === zero || (typeof written === 'object' && written !== null && JSON.stringify(written) === JSON.stringify(zero));
}

/** The value Go writes for a field, or undefined when it leaves the field out. */
function encodeField(field: Field, value: unknown): unknown {
  switch (field.rule) {
    case '':
      return isEmpty(value) ? undefined : encodeValue(field.type, value);
    case '*':
      return value === undefined || value === null ? undefined : encodeValue(field.type, value);
    case 'z': {
      if (value === undefined || value === null) return undefined;
      const written = encodeValue(field.type, value);
      return isZeroOf(field, written) ? undefined : written;
    }
    default:
      if (value === undefined || value === null) return zeroOf(field);
      // Protobuf keeps no empty list or map: it comes back nil, which Go writes as null (a dry run's answer is
      // copied through the storage codec too).
      if (field.collection && isEmpty(value)) return null;
      return encodeValue(field.type, value);
  }
}

function encodeStruct(struct: string, value: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const field of fieldsOf(struct)) {
    const written = encodeField(field, Object.hasOwn(value, field.name) ? value[field.name] : undefined);
    if (written !== undefined) out[field.name] = written;
  }
  return out;
}

function encodeValue(type: string, value: unknown): unknown {
  if (type.startsWith('[]')) {
    if (!Array.isArray(value)) return value;
    const item = type.slice(2);
    return value.map((entry) => (entry === null && BUILTIN_STRUCTS[item] !== undefined ? encodeStruct(item, {}) : encodeValue(item, entry)));
  }
  if (type.startsWith('{}')) {
    if (!isObject(value)) return value;
    const item = type.slice(2);
    const out: JsonObject = {};
    for (const key of Object.keys(value).sort()) out[key] = encodeValue(item, value[key]);
    return out;
  }
  if (BUILTIN_STRUCTS[type] !== undefined) return isObject(value) ? encodeStruct(type, value) : value;
  if (type.startsWith('~')) {
    // A schema, or a list of schemas, a boolean or a list of names (a CRD schema's `items`...).
    const struct = type.slice(1);
    if (Array.isArray(value)) return value.map((item) => (isObject(item) ? encodeStruct(struct, item) : item));
    return isObject(value) ? encodeStruct(struct, value) : value;
  }
  if (type === 'x:string:time' || type === 'x:string:microtime') return typeof value === 'string' ? goTimeText(value, type === 'x:string:time' ? 'time' : 'micro') : value;
  return value;
}

/**
 * `object` as kube-apiserver writes a built-in object of Go struct `struct` back, with `apiVersion` and `kind`
 * first (the record keeps its text without them).
 */
export function goEncoded(struct: string, object: JsonObject): JsonObject {
  return { apiVersion: object['apiVersion'], kind: object['kind'], ...encodeStruct(struct, object) };
}

/** `value` as Go writes a `map[string]interface{}` (a custom resource): every object's keys sorted. */
export function goEncodedUnstructured(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(goEncodedUnstructured);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort()) out[key] = goEncodedUnstructured(value[key]);
  return out;
}
