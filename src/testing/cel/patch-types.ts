/**
 * The message types a MutatingAdmissionPolicy's mutations construct, as kube-apiserver declares them
 * (apiserver/pkg/cel/mutation): `Object` and `Object.<field path>` (any fields, of any type: dynamic/objects.go) and
 * `JSONPatch` (`op`, `path`, `from` strings and a `value`: jsonpatch.go), the `jsonpatch.escapeKey` function
 * (cel/library/jsonpatch.go), and what the patchers make of a constructed value: its JSON, and the check that each
 * `Object...` type is named for the field path it stands at.
 */
import { CelUnsupported, isPatchType } from './parser.js';
import { CelDuration, CelEvalError, CelObject, CelOptional, CelTimestamp, CelType, CelUint, isList, isMap, type CelValue } from './values.js';

const JSON_PATCH_STRINGS = new Set(['op', 'path', 'from']);

/** A value of message type `type` with the fields given (a JSONPatch's checked as jsonpatch.go's Val does). */
export function constructed(type: string, fields: ReadonlyMap<string, CelValue>): CelObject {
  // Another type is refused when the expression is compiled; a policy stored before cannot have one.
  if (!isPatchType(type)) throw new CelUnsupported(`message type ${type}`);
  if (type === 'JSONPatch') {
    for (const [name, value] of fields) {
      if (JSON_PATCH_STRINGS.has(name)) {
        if (typeof value !== 'string') throw new CelEvalError(`unexpected type ${goType(value)} for JSONPatchType '${name}' field`);
      } else if (name !== 'value') {
        throw new CelEvalError(`unexpected JSONPatchType field: ${name}`);
      }
    }
  }
  return new CelObject(type, fields);
}

/**
 * A field of a constructed value, or with `test` whether it is set: a JSONPatch's strings read empty when not set
 * (and are set when not empty), as jsonpatch.go's Get and IsSet answer.
 */
export function objectField(object: CelObject, field: string, test: boolean): CelValue {
  const value = object.fields.get(field);
  if (object.typeName === 'JSONPatch' && JSON_PATCH_STRINGS.has(field)) return test ? value !== undefined && value !== '' : (value ?? '');
  if (test) return value !== undefined;
  if (value === undefined) throw new CelEvalError(`no such key: ${field}`);
  return value;
}

/** What Go's `%T` prints of a CEL value's native form. */
function goType(value: CelValue): string {
  if (value === null) return 'structpb.NullValue';
  if (typeof value === 'bigint') return 'int64';
  if (typeof value === 'number') return 'float64';
  if (typeof value === 'boolean') return 'bool';
  if (value instanceof Uint8Array) return '[]uint8';
  if (value instanceof CelUint) return 'uint64';
  if (isList(value)) return '[]ref.Val';
  if (isMap(value)) return 'map[ref.Val]ref.Val';
  return typeof value === 'string' ? 'string' : '*types.Type';
}

/** `jsonpatch.escapeKey`: a key as one JSON Pointer segment (`~` as `~0`, `/` as `~1`). */
export function escapeKey(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * ObjectVal.CheckTypeNamesMatchFieldPathNames: every `Object...` value inside `value` must be named for the path of
 * field names from the root (`Object.spec.template`); a list's items and a map's values stand at the list's or
 * map's own path. Answers each mismatch in kube-apiserver's words.
 */
export function typeNameMismatches(value: CelObject): string[] {
  const found: string[] = [];
  const walk = (inner: CelValue, path: readonly string[]): void => {
    if (inner instanceof CelObject) {
      const expected = path.join('.');
      if (inner.typeName !== expected) found.push(`unexpected type name "${inner.typeName}", expected "${expected}", which matches field name path from root Object type`);
      for (const [name, field] of inner.fields) walk(field, [...path, name]);
    } else if (isList(inner)) {
      for (const item of inner) walk(item, path);
    } else if (isMap(inner)) {
      for (const item of inner.values()) walk(item, path);
    }
  };
  walk(value, [value.typeName]);
  return found;
}

/**
 * A CEL value as JSON, as kube-apiserver's patchers convert it (to an unstructured object, or to a structpb.Value
 * for a JSONPatch's value): an int or uint is a number, bytes are base64, a duration or timestamp its protobuf JSON
 * string; a map needs string keys. A value with no JSON form is a CelEvalError.
 */
export function toJson(value: CelValue): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new CelEvalError(`invalid value: ${value}`);
    return value;
  }
  if (value instanceof CelUint) return Number(value.value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (value instanceof CelDuration) return durationText(value.nanos);
  if (value instanceof CelTimestamp) return timestampText(value.nanos);
  if (value instanceof CelType || value instanceof CelOptional) throw new CelEvalError(`type conversion error from '${value instanceof CelType ? 'type' : 'optional_type'}' to 'google.protobuf.Value'`);
  if (value instanceof CelObject) return fieldsJson(value.fields);
  if (isList(value)) return value.map(toJson);
  return fieldsJson(value);
}

function fieldsJson(fields: ReadonlyMap<unknown, CelValue>): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, item] of fields) {
    if (typeof key !== 'string') throw new CelEvalError(`map key ${String(key)} is of type ${typeof key === 'bigint' ? 'types.Int' : 'types.Bool'}, not string`);
    Object.defineProperty(object, key, { value: toJson(item), enumerable: true, writable: true, configurable: true });
  }
  return object;
}

/** A duration as protobuf JSON writes it: seconds with up to nine fraction digits, `s` after (`1.5s`). */
function durationText(nanos: bigint): string {
  const sign = nanos < 0n ? '-' : '';
  const magnitude = nanos < 0n ? -nanos : nanos;
  const fraction = (magnitude % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${sign}${magnitude / 1_000_000_000n}${fraction === '' ? '' : `.${fraction}`}s`;
}

/** A timestamp as RFC 3339 in UTC, with the fraction only when there is one. */
function timestampText(nanos: bigint): string {
  const millis = nanos / 1_000_000n;
  const base = new Date(Number(millis)).toISOString().slice(0, 19);
  const fraction = (((nanos % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${base}${fraction === '' ? '' : `.${fraction}`}Z`;
}
