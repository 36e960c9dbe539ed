/**
 * What Go's `encoding/json` answers when kube-apiserver decodes a create or update body of a built-in kind into its
 * Go struct and a value has another JSON type than the field (generated Go types, go/builtin-fields.ts): the first such
 * value in the body's order, as `json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of
 * type int32` (the struct holding the field, the field's JSON path without list indices or map keys, the Go type).
 * `null` fits every field; unknown fields are fieldValidation's; a quantity is checked by its own parser. A time that
 * is not Go's RFC 3339 (a MicroTime: with exactly six digits of a second) is `time.Parse`'s error, which ends decoding
 * at once, as an int-or-string's error does; a value of the wrong type is the first one only if none of those comes.
 */
import { BUILTIN_STRUCTS } from '../go/builtin-fields.js';
import { parseGoTime } from '../go/go-time.js';

const INT_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  int8: [-(2 ** 7), 2 ** 7 - 1],
  int16: [-(2 ** 15), 2 ** 15 - 1],
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint8: [0, 2 ** 8 - 1],
  uint16: [0, 2 ** 16 - 1],
  uint32: [0, 2 ** 32 - 1],
  uint64: [0, Number.MAX_SAFE_INTEGER],
};

/** How Go's error names a JSON value: its type, and a number's text when it is a number the integer cannot hold. */
function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  return typeof value === 'boolean' ? 'bool' : typeof value === 'number' ? 'number' : 'string';
}

/** The Go type a generated reference stands for, as reflect prints it (`[]v1.Container`, `map[string]string`, `int32`). */
function goTypeOf(ref: string): string {
  if (ref.startsWith('[]')) return `[]${goTypeOf(ref.slice(2))}`;
  if (ref.startsWith('{}')) return `map[string]${goTypeOf(ref.slice(2))}`;
  if (BUILTIN_STRUCTS[ref] !== undefined) return ref.split('.').slice(-2).join('.');
  const [code = '', goType] = ref.split(':');
  return goType ?? ({ s: 'string', b: 'bool', n: 'float64', io: 'int32' } as Record<string, string>)[code] ?? 'interface {}';
}

/** Whether `value` fits an integer Go type; answers Go's description of it when it does not. */
function integerProblem(value: unknown, goType: string): string | undefined {
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

/**
 * Walks `value` of reference `ref`, inside struct `struct` at JSON path `path`, as Go's decoder does: a value of the
 * wrong JSON type is remembered (the first one in `found`) and decoding goes on; an error from a type's own decoder
 * (a time, an int-or-string) ends it at once, and is returned.
 */
function decodeError(value: unknown, ref: string, struct: string, path: string, found: { saved?: string }): string | undefined {
  if (value === null || ref === '') return undefined;
  const fail = (described: string): string => `json: cannot unmarshal ${described} into Go struct field ${struct}.${path} of type ${goTypeOf(ref)}`;
  const save = (described: string): undefined => {
    found.saved ??= fail(described);
    return undefined;
  };
  if (ref.startsWith('[]') || ref.startsWith('{}')) {
    const list = ref.startsWith('[]');
    if (list ? !Array.isArray(value) : !isObject(value)) return save(jsonType(value));
    for (const item of list ? (value as unknown[]) : Object.values(value as Record<string, unknown>)) {
      const error = decodeError(item, ref.slice(2), struct, path, found);
      if (error !== undefined) return error;
    }
    return undefined;
  }
  const fields = BUILTIN_STRUCTS[ref];
  if (fields === undefined) {
    const [code = '', , precision] = ref.split(':');
    if (precision === 'time' || precision === 'microtime') {
      if (typeof value !== 'string') return fail(jsonType(value));
      const time = parseGoTime(value, precision === 'time' ? 'time' : 'micro');
      return 'error' in time ? time.error : undefined;
    }
    const problem = scalarProblem(value, ref);
    if (problem === undefined) return undefined;
    return code === 'io' ? fail(problem) : save(problem);
  }
  if (!isObject(value)) return save(jsonType(value));
  const name = ref.split('.').at(-1) ?? ref;
  for (const [key, item] of Object.entries(value)) {
    const field = fields.find(([fieldName]) => fieldName === key);
    if (field === undefined) continue;
    const error = decodeError(item, field[1], name, path === '' ? key : `${path}.${key}`, found);
    if (error !== undefined) return error;
  }
  return undefined;
}

/** Go's first decoding error of `body` as a value of generated struct `root`, or undefined when it decodes. */
export function goDecodingError(root: string, body: unknown): string | undefined {
  const found: { saved?: string } = {};
  return decodeError(body, root, root.split('.').at(-1) ?? root, '', found) ?? found.saved;
}
