/**
 * What kube-apiserver writes back for an object it stored. A built-in object is decoded into its Go struct, stored
 * as protobuf and written by `encoding/json`: its fields come in the struct's order, a map's keys sorted, an
 * `omitempty` field left out when empty (`paused: false`, `data: {}`), a field without it written even when absent
 * (a Role's `rules: null`, a container's `resources: {}`), and an empty list or map that Go always writes is `null`
 * after the protobuf round trip. A time is written in seconds (a MicroTime in microseconds), in UTC. A custom
 * resource is a `map[string]interface{}`: every object's keys sorted. Unknown fields are gone before this (pruning);
 * a value of the wrong JSON type is kept as it is.
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

/** A type reference, compiled once: how a value of it is written. */
type TypeOf =
  | { readonly kind: 'list' | 'map'; readonly item: TypeOf; readonly itemStruct: string | undefined }
  | { readonly kind: 'struct' | 'schema'; readonly struct: string }
  | { readonly kind: 'time' | 'micro' }
  /** `null`: what Go's decoder leaves of a JSON null in a map or a list of it (its zero, or null when unsure). */
  | { readonly kind: 'scalar'; readonly null: unknown };

/** The zero of a Go string, integer, number or boolean: what a JSON null decodes into as a map's value or a list's item. */
function scalarZero(ref: string): unknown {
  if (ref === 's' || ref.startsWith('s:')) return '';
  if (ref === 'b' || ref.startsWith('b:')) return false;
  return ref === 'i' || ref.startsWith('i:') || ref === 'n' || ref.startsWith('n:') ? 0 : null;
}

const types = new Map<string, TypeOf>();

function typeOf(ref: string): TypeOf {
  let type = types.get(ref);
  if (type === undefined) {
    if (ref.startsWith('[]') || ref.startsWith('{}')) {
      const item = ref.slice(2);
      type = { kind: ref.startsWith('[]') ? 'list' : 'map', item: typeOf(item), itemStruct: BUILTIN_STRUCTS[item] === undefined ? undefined : item };
    } else if (BUILTIN_STRUCTS[ref] !== undefined) type = { kind: 'struct', struct: ref };
    else if (ref.startsWith('~')) type = { kind: 'schema', struct: ref.slice(1) };
    else if (ref === 'x:string:time' || ref === 'x:string:microtime') type = { kind: ref === 'x:string:time' ? 'time' : 'micro' };
    else type = { kind: 'scalar', null: scalarZero(ref) };
    types.set(ref, type);
  }
  return type;
}

/** One field of a struct, compiled from its generated entry. */
interface Field {
  readonly name: string;
  readonly type: TypeOf;
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
        type: typeOf(type),
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
function encodeField(field: Field, value: unknown, stored: unknown): unknown {
  switch (field.rule) {
    case '':
      return isEmpty(value) ? undefined : encodeValue(field.type, value, stored);
    case '*':
      return value === undefined || value === null ? undefined : encodeValue(field.type, value, stored);
    case 'z': {
      if (value === undefined || value === null) return undefined;
      const written = encodeValue(field.type, value, stored);
      return isZeroOf(field, written) ? undefined : written;
    }
    default:
      if (value === undefined || value === null) return zeroOf(field);
      // Protobuf keeps no empty list or map: it comes back nil, which Go writes as null (a dry run's answer is
      // copied through the storage codec too).
      if (field.collection && isEmpty(value)) return null;
      return encodeValue(field.type, value, stored);
  }
}

/**
 * `value` itself when `out` (what was written for it) has the same keys in the same order and the same values: a
 * value already as Go writes it (a stored one a patch did not reach) stays the same object, so the stored objects
 * keep sharing what a write did not change, and comparing them stays cheap.
 */
function sameOr<T extends object>(value: T, out: T): T {
  const keys = Object.keys(value);
  const written = Object.keys(out);
  if (keys.length !== written.length) return out;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key !== written[i] || (value as JsonObject)[key] !== (out as JsonObject)[key]) return out;
  }
  return value;
}

/** A stored value's member (undefined when there is none); a list's by its index. */
export function storedAt(stored: unknown, key: string | number): unknown {
  return typeof stored === 'object' && stored !== null ? (stored as Record<string | number, unknown>)[key] : undefined;
}

function encodeStruct(struct: string, value: JsonObject, stored?: unknown): JsonObject {
  if (value === stored) return value;
  const out: JsonObject = {};
  for (const field of fieldsOf(struct)) {
    const written = encodeField(field, Object.hasOwn(value, field.name) ? value[field.name] : undefined, storedAt(stored, field.name));
    if (written !== undefined) out[field.name] = written;
  }
  return sameOr(value, out);
}

/**
 * What Go writes for `value` of `type`. `stored` is the same place in the stored object this one replaces (written
 * by this module): what a write left as it was is that very object, already as Go writes it.
 */
function encodeValue(type: TypeOf, value: unknown, stored: unknown): unknown {
  if (value === stored) return value;
  switch (type.kind) {
    case 'scalar':
      // Only a map's value or a list's item gets here as null (a field's null is left out or written as its zero).
      return value === null ? type.null : value;
    case 'struct':
      return isObject(value) ? encodeStruct(type.struct, value, stored) : value;
    case 'list': {
      if (!Array.isArray(value)) return value;
      const { item, itemStruct } = type;
      const out = value.map((entry, index) => (entry === null && itemStruct !== undefined ? encodeStruct(itemStruct, {}) : encodeValue(item, entry, storedAt(stored, index))));
      return out.every((entry, index) => entry === value[index]) ? value : out;
    }
    case 'map': {
      if (!isObject(value)) return value;
      const out: JsonObject = {};
      for (const key of Object.keys(value).sort()) out[key] = encodeValue(type.item, value[key], storedAt(stored, key));
      return sameOr(value, out);
    }
    case 'schema':
      // A schema, or a list of schemas, a boolean or a list of names (a CRD schema's `items`...).
      if (Array.isArray(value)) return value.map((item) => (isObject(item) ? encodeStruct(type.struct, item) : item));
      return isObject(value) ? encodeStruct(type.struct, value) : value;
    default:
      return typeof value === 'string' ? goTimeText(value, type.kind === 'time' ? 'time' : 'micro') : value;
  }
}

/**
 * `object` as kube-apiserver writes a built-in object of Go struct `struct` back, with `apiVersion` and `kind`
 * first (the record keeps its text without them). `stored`: the stored object it replaces, whose members it shares
 * where the write did not reach (they are not walked again).
 */
export function goEncoded(struct: string, object: JsonObject, stored?: JsonObject): JsonObject {
  return { apiVersion: object['apiVersion'], kind: object['kind'], ...encodeStruct(struct, object, stored) };
}

/** `value` as Go writes a `map[string]interface{}` (a custom resource): every object's keys sorted. */
export function goEncodedUnstructured(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(goEncodedUnstructured);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort()) out[key] = goEncodedUnstructured(value[key]);
  return out;
}
