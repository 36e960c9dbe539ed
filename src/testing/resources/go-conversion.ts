/**
 * apimachinery's `DefaultUnstructuredConverter.FromUnstructured` of a built-in object, on the generated Go types
 * (go/builtin-fields.ts): kube-apiserver converts the result of a strategic merge patch and of a server-side apply
 * (a `map[string]interface{}`) into the kind's Go struct this way, and a value it cannot put in its field fails the
 * write. The converter walks each struct in its fields' order and stops at the first problem; its words differ from
 * the JSON decoder's (go-decoding.ts): `cannot convert int64 to string`, `unrecognized type: int32`, `cannot restore
 * slice from string`. A type with its own JSON decoding (a time, an int-or-string) is decoded from the value's JSON:
 * `json: cannot unmarshal bool into Go value of type int32`, `parsing time ...`. Integers are int64 there, other
 * numbers float64; a quantity, raw JSON and a CRD's nested schemas are not checked here.
 */
import { BUILTIN_STRUCTS } from '../go/builtin-fields.js';
import { parseGoTime } from '../go/go-time.js';
import { isJsonObject } from '../patch/json-value.js';
import { jsonType } from '../go/go-json.js';
import { integerProblem } from './go-decoding.js';

/** The reflect kind of an unstructured value, as the converter names it. */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'slice';
  if (isJsonObject(value)) return 'map';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  return typeof value === 'boolean' ? 'bool' : 'string';
}

/** A scalar field of kind `kind` (Go type `goType`) given `value`: the converter's error, or undefined. */
function scalarProblem(value: unknown, kind: 'string' | 'bool' | 'int' | 'float64', goType: string): string | undefined {
  const source = kindOf(value);
  switch (kind) {
    case 'string':
      if (source === 'string') return undefined;
      // An integer converts to a string in Go's reflect, which the converter then refuses by name.
      return source === 'int64' ? `cannot convert int64 to ${goType}` : 'unrecognized type: string';
    case 'bool':
      return source === 'bool' ? undefined : 'unrecognized type: bool';
    case 'float64':
      return source === 'int64' || source === 'float64' ? undefined : 'unrecognized type: float64';
    default:
      if (source === 'int64') return undefined;
      if (source === 'float64') return `cannot convert float64 to ${goType}`;
      return `unrecognized type: ${goType}`;
  }
}

/** A type with its own JSON decoding, given `value`: its decoder's error, or undefined. */
function customProblem(value: unknown, ref: string): string | undefined {
  const precision = ref.split(':')[2];
  if (precision === 'time' || precision === 'microtime') {
    if (typeof value !== 'string') return `json: cannot unmarshal ${jsonType(value)} into Go value of type string`;
    const time = parseGoTime(value, precision === 'time' ? 'time' : 'micro');
    return 'error' in time ? time.error : undefined;
  }
  // An int-or-string: a string, or else an int32.
  const problem = typeof value === 'string' ? undefined : integerProblem(value, 'int32');
  return problem === undefined ? undefined : `json: cannot unmarshal ${problem} into Go value of type int32`;
}

function convertProblem(value: unknown, ref: string): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (ref.startsWith('[]')) {
    if (!Array.isArray(value)) return `cannot restore slice from ${kindOf(value)}`;
    for (const item of value) {
      const problem = convertProblem(item, ref.slice(2));
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (ref.startsWith('{}')) {
    if (!isJsonObject(value)) return `cannot restore map from ${kindOf(value)}`;
    for (const item of Object.values(value)) {
      const problem = convertProblem(item, ref.slice(2));
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  const fields = BUILTIN_STRUCTS[ref];
  if (fields !== undefined) {
    if (!isJsonObject(value)) return `cannot restore struct from: ${kindOf(value)}`;
    for (const [name, type] of fields) {
      const problem = Object.hasOwn(value, name) ? convertProblem(value[name], type) : undefined;
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  const [code = '', goType] = ref.split(':');
  switch (code) {
    case 's':
      // A []byte is kept as its base64 string.
      return goType === '[]uint8' && typeof value === 'string' ? undefined : scalarProblem(value, 'string', goType ?? 'string');
    case 'b':
      return scalarProblem(value, 'bool', 'bool');
    case 'n':
      return scalarProblem(value, 'float64', 'float64');
    case 'i':
      return scalarProblem(value, 'int', goType ?? 'int64');
    case 'io':
      return customProblem(value, ref);
    case 'x':
      return goType === 'string' ? customProblem(value, ref) : undefined;
    default:
      return undefined;
  }
}

/** The converter's first error for `object` as a value of generated struct `root`, or undefined when it converts. */
export function unstructuredConversionError(root: string, object: unknown): string | undefined {
  return convertProblem(object, root);
}
