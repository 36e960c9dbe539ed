/**
 * A custom resource checked against its structural schema, as kube-apiserver's OpenAPI validator checks it (the
 * validator of k8s.io/kube-openapi, behind apiextensions-apiserver), with its messages: types and `nullable`,
 * `format`, `enum`, numeric bounds and `multipleOf`, string lengths and `pattern`, item and property counts,
 * `required`, `additionalProperties` schemas, `allOf`/`anyOf`/`oneOf`/`not`. On an update, a value equal to the
 * stored one is not held against the new schema (ratcheting, GA since Kubernetes 1.33): maps correlate by key,
 * `x-kubernetes-list-type: map` lists by their keys, other lists only as a whole.
 *
 * Where the two differ: kube-apiserver visits an object's properties in Go's map order (random), so with problems in
 * several properties the order of its messages varies; this walk takes the schema's order for declared properties
 * and the object's order for `additionalProperties`. For a failed `anyOf` or `oneOf`, kube-apiserver adds the
 * problems of the alternative its validator matched best; this walk picks the alternative that visited the most
 * schema nodes (the first on a tie), which is its measure for the common schemas. CEL rules
 * (`x-kubernetes-validations`) are not evaluated.
 */
import { jsonEqual } from '../patch/json-value.js';
import type { FieldProblem } from '../status-errors.js';
import { goBadValue, goFloat, goJson, goQuote } from '../go/go-values.js';
import { isKnownStringFormat, matchesFormat } from './schema-formats.js';
import { oldField, oldItem, type Old } from './schema-correlation.js';
import { asSchema, keyword, numberKeyword, propertiesOf, type SchemaNode } from './schema-keywords.js';

/** How kube-apiserver turns each kind of validator error into a field error. */
type Code = 'type' | 'required' | 'enum' | 'tooLong' | 'tooMany' | 'invalid';

/** One error of the OpenAPI validator: `plain` ones carry no field (kube-apiserver reports them at the root). */
interface OpenApiError {
  readonly code: Code | 'plain';
  /** The validator's path of the value (`spec.size`, `.spec` for a required root property, `` for the root). */
  readonly name: string;
  readonly message: string;
  readonly value?: unknown;
  /** The bound of tooLong and tooMany. */
  readonly limit?: number;
  /** The enum's values. */
  readonly values?: readonly unknown[];
}


const INT64_LIMIT = 2 ** 63;
const JSON_INTEGER_LIMIT = 2 ** 53;
const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const FLOAT32_MAX = 3.4028234663852886e38;

/** The JSON kind of a value as Kubernetes decodes it: integral numbers are int64, others float64. */
type Kind = 'null' | 'boolean' | 'string' | 'integer' | 'number' | 'array' | 'object';

function kindOf(value: unknown): Kind {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < INT64_LIMIT ? 'integer' : 'number';
  return Array.isArray(value) ? 'array' : 'object';
}

/** The schema's types: `integer,string` for int-or-string (none when `intOrStringTyped` is off), else its `type`. */
function typesOf(node: SchemaNode, intOrStringTyped: boolean): readonly string[] {
  if (keyword(node, 'x-kubernetes-int-or-string') === true) return intOrStringTyped ? ['integer', 'string'] : [];
  return typeof node['type'] === 'string' && node['type'] !== '' ? [node['type']] : [];
}

/** The format kube-apiserver keeps after stripping the ones it does not support for the type. */
function formatOf(node: SchemaNode, types: readonly string[]): string {
  const format = typeof node['format'] === 'string' ? node['format'] : '';
  if (format === '') return '';
  const type = types.length === 1 ? types[0] : '';
  if (type === '' || type === 'string') return isKnownStringFormat(format) ? format : '';
  if (type === 'integer') return format === 'int32' || format === 'int64' ? format : '';
  if (type === 'number') return format === 'float' || format === 'double' ? format : '';
  return '';
}

function child(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** The walk: one per validation, gathering errors in the validator's order. */
class SchemaWalk {
  /** Schema nodes visited: the measure {@link anyOf}/{@link oneOf} pick the best-matching alternative by. */
  visits = 0;

  constructor(private readonly intOrStringTyped: boolean) {}

  validate(node: SchemaNode, value: unknown, path: string, old: Old, out: OpenApiError[]): void {
    this.visits++;
    if (old !== undefined && jsonEqual(old.value, value)) return;
    const types = typesOf(node, this.intOrStringTyped);
    const format = formatOf(node, types);
    const kind = kindOf(value);
    if (kind === 'null') {
      if (types.length > 0 && !types.includes('null') && node['nullable'] !== true) out.push(invalidType(path, types.join(','), 'null'));
      this.checkEnum(node, null, path, out);
      return;
    }
    if (types.length > 0 || format !== '') this.checkType(types, format, value, kind, path, out);
    this.checkCombinations(node, value, path, old, out);
    if (kind === 'string') {
      this.checkString(node, value as string, path, out);
      if (format !== '' && isKnownStringFormat(format) && !matchesFormat(format, value as string)) out.push(invalidType(path, format, value as string));
    }
    if (kind === 'integer' || kind === 'number') this.checkNumber(node, types, format, value as number, kind, path, out);
    if (kind === 'array') this.checkArray(node, value as unknown[], path, old, out);
    this.checkEnum(node, value, path, out);
    if (kind === 'object') this.checkObject(node, value as Record<string, unknown>, path, old, out);
  }

  private checkType(types: readonly string[], format: string, value: unknown, kind: Kind, path: string, out: OpenApiError[]): void {
    const valueFormat = kind === 'integer' ? 'int64' : kind === 'number' ? 'float64' : '';
    const isFloatInt = kind === 'number' && isJsonInteger(value as number) && types.includes('integer');
    const isIntFloat = kind === 'integer' && types.includes('number');
    const stringOrArray = kind === 'string' || kind === 'array';
    if (!stringOrArray && format !== '' && !(types.includes(kind) || valueFormat === format || isFloatInt || isIntFloat)) {
      out.push(invalidType(path, format, valueFormat));
      return;
    }
    if (!(types.includes('number') || types.includes('integer')) && format !== '' && stringOrArray) return;
    if (!(types.includes(kind) || isFloatInt || isIntFloat)) out.push(invalidType(path, types.join(','), kind));
  }

  private checkString(node: SchemaNode, text: string, path: string, out: OpenApiError[]): void {
    const length = [...text].length;
    const maxLength = numberKeyword(node, 'maxLength');
    if (maxLength !== undefined && length > maxLength) {
      out.push({ code: 'tooLong', name: path, value: text, limit: maxLength, message: `${path} in body should be at most ${maxLength} chars long` });
      return;
    }
    const minLength = numberKeyword(node, 'minLength');
    if (minLength !== undefined && length < minLength) {
      out.push({ code: 'invalid', name: path, value: text, message: `${path} in body should be at least ${minLength} chars long` });
      return;
    }
    const pattern = typeof node['pattern'] === 'string' ? node['pattern'] : '';
    if (pattern === '') return;
    const regexp = compiledPattern(node, pattern);
    if (regexp !== null && !regexp.test(text)) out.push({ code: 'invalid', name: path, value: text, message: `${path} in body should match '${pattern}'` });
  }

  private checkNumber(node: SchemaNode, types: readonly string[], format: string, value: number, kind: 'integer' | 'number', path: string, out: OpenApiError[]): void {
    const typeName = types.length === 1 && (types[0] === 'integer' || types[0] === 'number') ? types[0] : '';
    const numberFormat = typeName === '' ? '' : format;
    const range = rangeProblem(value, typeName, numberFormat, 'Checked', path);
    if (range !== undefined) out.push(range);
    const bound = (name: 'multipleOf' | 'minimum' | 'maximum', prefix: string, check: (limit: number, native: boolean) => OpenApiError | undefined): void => {
      const limit = numberKeyword(node, name);
      if (limit === undefined) return;
      const boundProblem = rangeProblem(limit, typeName, numberFormat, prefix, path);
      if (boundProblem !== undefined) out.push(boundProblem);
      const problem = check(limit, boundProblem === undefined);
      if (problem !== undefined) out.push(problem);
    };
    const isInt = kind === 'integer';
    bound('multipleOf', 'MultipleOf', (factor, native) => {
      if (native && isInt) {
        const whole = Math.trunc(factor);
        if (whole <= 0) return { code: 'invalid', name: path, value: whole, message: `factor MultipleOf declared for ${path} must be positive: ${whole}` };
        return value % whole === 0 ? undefined : { code: 'invalid', name: path, value, message: `${path} in body should be a multiple of ${whole}` };
      }
      if (factor <= 0) return { code: 'invalid', name: path, value: factor, message: `factor MultipleOf declared for ${path} must be positive: ${goFloat(factor)}` };
      const times = factor < 1 ? (1 / factor) * value : value / factor;
      return isJsonInteger(times) ? undefined : { code: 'invalid', name: path, value, message: `${path} in body should be a multiple of ${goFloat(factor)}` };
    });
    const exclusiveMinimum = node['exclusiveMinimum'] === true;
    bound('minimum', 'Minimum boundary', (minimum, native) => {
      const limit = native && isInt ? Math.trunc(minimum) : minimum;
      const below = exclusiveMinimum ? value <= limit : value < limit;
      if (!below) return undefined;
      const shown = native && isInt ? String(limit) : goFloat(limit);
      return { code: 'invalid', name: path, value, message: `${path} in body should be greater than ${exclusiveMinimum ? '' : 'or equal to '}${shown}` };
    });
    const exclusiveMaximum = node['exclusiveMaximum'] === true;
    bound('maximum', 'Maximum boundary', (maximum, native) => {
      const limit = native && isInt ? Math.trunc(maximum) : maximum;
      const above = exclusiveMaximum ? value >= limit : value > limit;
      if (!above) return undefined;
      const shown = native && isInt ? String(limit) : goFloat(limit);
      return { code: 'invalid', name: path, value, message: `${path} in body should be less than ${exclusiveMaximum ? '' : 'or equal to '}${shown}` };
    });
  }

  private checkArray(node: SchemaNode, items: unknown[], path: string, old: Old, out: OpenApiError[]): void {
    const itemSchema = asSchema(node['items']);
    if (itemSchema !== undefined) {
      items.forEach((item, index) => this.validate(itemSchema, item, `${path}[${index}]`, oldItem(node, old, item), out));
    }
    checkCount(node, 'Items', items.length, path, out);
  }

  private checkEnum(node: SchemaNode, value: unknown, path: string, out: OpenApiError[]): void {
    const values = keyword(node, 'enum');
    if (!Array.isArray(values) || values.length === 0) return;
    if (values.some((allowed) => jsonEqual(allowed, value))) return;
    out.push({ code: 'enum', name: path, value, values, message: `${path} in body should be one of ${goList(values)}` });
  }

  private checkObject(node: SchemaNode, object: Record<string, unknown>, path: string, old: Old, out: OpenApiError[]): void {
    const keys = Object.keys(object);
    checkCount(node, 'Properties', keys.length, path, out);
    const properties = propertiesOf(node);
    const additional = asSchema(node['additionalProperties']);
    if (additional !== undefined) {
      for (const key of keys) {
        if (properties !== undefined && Object.hasOwn(properties, key)) continue;
        this.validate(additional, object[key], `${path}.${key}`, oldField(old, key), out);
      }
    }
    if (properties !== undefined) {
      for (const key of Object.keys(properties)) {
        if (!Object.hasOwn(object, key)) continue;
        // The type fields of the root are never ratcheted (kube-apiserver validates them afresh on every update).
        const ratchet = path === '' && (key === 'kind' || key === 'apiVersion') ? undefined : oldField(old, key);
        this.validate(asSchema(properties[key]) ?? {}, object[key], child(path, key), ratchet, out);
      }
    }
    const required = node['required'];
    if (Array.isArray(required)) {
      for (const key of required) {
        if (typeof key === 'string' && !Object.hasOwn(object, key)) out.push({ code: 'required', name: `${path}.${key}`, message: `${path}.${key} in body is required` });
      }
    }
  }

  /** `anyOf`, `oneOf`, `allOf` and `not`, in the validator's order. */
  private checkCombinations(node: SchemaNode, value: unknown, path: string, old: Old, out: OpenApiError[]): void {
    const anyOf = schemaList(node['anyOf']);
    if (anyOf.length > 0) {
      const results = anyOf.map((alternative) => this.alternative(alternative, value, path, old));
      if (!results.some((result) => result.errors.length === 0)) {
        out.push(plain(`${goQuote(path)} must validate at least one schema (anyOf)`));
        out.push(...bestMatch(results).errors);
      }
    }
    const oneOf = schemaList(node['oneOf']);
    if (oneOf.length > 0) {
      const results = oneOf.map((alternative) => this.alternative(alternative, value, path, old));
      const valid = results.filter((result) => result.errors.length === 0).length;
      if (valid !== 1) {
        out.push(plain(`${goQuote(path)} must validate one and only one schema (oneOf). ${valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`}`));
        if (valid === 0) out.push(...bestMatch(results).errors);
      }
    }
    const allOf = schemaList(node['allOf']);
    if (allOf.length > 0) {
      let valid = 0;
      for (const alternative of allOf) {
        const result = this.alternative(alternative, value, path, old);
        if (result.errors.length === 0) valid++;
        out.push(...result.errors);
      }
      if (valid !== allOf.length) out.push(plain(`${goQuote(path)} must validate all the schemas (allOf)${valid === 0 ? '. None validated' : ''}`));
    }
    const not = asSchema(node['not']);
    if (not !== undefined && this.alternative(not, value, path, old).errors.length === 0) out.push(plain(`${goQuote(path)} must not validate the schema (not)`));
  }

  private alternative(node: SchemaNode, value: unknown, path: string, old: Old): { errors: OpenApiError[]; visits: number } {
    const before = this.visits;
    const errors: OpenApiError[] = [];
    this.validate(node, value, path, old, errors);
    return { errors, visits: this.visits - before };
  }
}

/** `minItems`/`maxItems` of an array, or `minProperties`/`maxProperties` of an object, against its `count`. */
function checkCount(node: SchemaNode, what: 'Items' | 'Properties', count: number, path: string, out: OpenApiError[]): void {
  const noun = what.toLowerCase();
  const min = numberKeyword(node, `min${what}`);
  if (min !== undefined && count < min) out.push({ code: 'invalid', name: path, value: count, message: `${path} in body should have at least ${min} ${noun}` });
  const max = numberKeyword(node, `max${what}`);
  if (max !== undefined && count > max) out.push({ code: 'tooMany', name: path, value: count, limit: max, message: `${path} in body should have at most ${max} ${noun}` });
}

/** Compiled `pattern`s by the schema node that holds them: built once per CRD schema, gone with it. */
const patterns = new WeakMap<SchemaNode, RegExp | null>();

/** A `pattern` as a JavaScript regular expression (Go's RE2 syntax is nearly a subset); null when it does not compile here. */
function compiledPattern(node: SchemaNode, pattern: string): RegExp | null {
  let compiled = patterns.get(node);
  if (compiled === undefined) {
    try {
      compiled = new RegExp(pattern, 'u');
    } catch {
      // A pattern kube-apiserver accepted (RE2) that JavaScript does not read is not checked: it cannot be judged
      // here, and refusing every write for it would be worse than this documented gap.
      compiled = null;
    }
    patterns.set(node, compiled);
  }
  return compiled;
}

/** The failed alternative that visited the most nodes (the first on a tie). */
function bestMatch(results: readonly { errors: OpenApiError[]; visits: number }[]): { errors: OpenApiError[] } {
  let best = results[0] ?? { errors: [], visits: 0 };
  for (const result of results) if (result.visits > best.visits) best = result;
  return best;
}

function schemaList(value: unknown): SchemaNode[] {
  return Array.isArray(value) ? value.map((item) => asSchema(item) ?? {}) : [];
}

function plain(message: string): OpenApiError {
  return { code: 'plain', name: '', message };
}

function invalidType(path: string, type: string, actual: string): OpenApiError {
  return { code: 'type', name: path, value: actual, message: `${path} in body must be of type ${type}: ${goQuote(actual)}` };
}

/** swag's `IsFloat64AJSONInteger`: integral within 2^53, allowing a relative error of 1e-9. */
function isJsonInteger(value: number): boolean {
  if (!Number.isFinite(value) || Math.abs(value) > JSON_INTEGER_LIMIT) return false;
  const rounded = Math.round(value);
  if (value === rounded) return true;
  if (rounded === 0) return false;
  return Math.abs(value - rounded) < 1e-9 * Math.abs(rounded);
}

/** The validator's range check of a number (the value or a schema bound) against the type and format. */
function rangeProblem(value: number, typeName: string, format: string, prefix: string, path: string): OpenApiError | undefined {
  let fits = true;
  if (typeName === 'integer') {
    const integral = Number.isInteger(value);
    fits = format === 'int32' ? integral && value >= INT32.min && value <= INT32.max : integral && Math.abs(value) < INT64_LIMIT;
  } else if (format === 'float') fits = Math.abs(value) <= FLOAT32_MAX;
  if (fits) return undefined;
  const what = format === '' ? `${typeName === '' ? 'number' : typeName} (default format)` : `${typeName === '' ? 'number' : typeName} with format ${format}`;
  return plain(`${prefix} value must be of type ${what} in ${path}`);
}

/** Go's `%v` of the enum's values (numbers are float64 there): `[a b 1]`. Only told apart by it, never shown. */
function goList(values: readonly unknown[]): string {
  return `[${values.map((v) => (typeof v === 'string' ? v : typeof v === 'number' ? goFloat(v) : JSON.stringify(v))).join(' ')}]`;
}

/** kube-apiserver's field error of one validator error (`kubeOpenAPIResultToFieldErrors`), under `prefix` (`status` for the subresource). */
function fieldProblem(error: OpenApiError, prefix: string | undefined): FieldProblem {
  const root = prefix ?? '<nil>';
  if (error.code === 'plain') return { field: root, reason: 'FieldValueInvalid', message: `Invalid value: "": ${error.message}` };
  const name = error.name.startsWith('.') ? error.name.slice(1) : error.name;
  const field = name === '' ? root : prefix === undefined ? name : `${prefix}.${name}`;
  switch (error.code) {
    case 'required':
      return { field, reason: 'FieldValueRequired', message: 'Required value' };
    case 'enum': {
      const values = (error.values ?? []).map((v) => goQuote(typeof v === 'string' ? v : goJson(v)));
      return { field, reason: 'FieldValueNotSupported', message: `Unsupported value: ${goBadValue(error.value)}: supported values: ${values.join(', ')}` };
    }
    case 'tooLong':
      return { field, reason: 'FieldValueTooLong', message: `Too long: may not be more than ${error.limit ?? -1} ${error.limit === 1 ? 'byte' : 'bytes'}` };
    case 'tooMany':
      return { field, reason: 'FieldValueTooMany', message: `Too many: ${goBadValue(error.value)}: must have at most ${error.limit ?? -1} ${error.limit === 1 ? 'item' : 'items'}` };
    case 'type':
      return { field, reason: 'FieldValueTypeInvalid', message: `Invalid value: ${goBadValue(error.value ?? '')}: ${error.message}` };
    case 'invalid':
      return { field, reason: 'FieldValueInvalid', message: `Invalid value: ${goBadValue(error.value ?? '')}: ${error.message}` };
  }
}

/**
 * The problems of `value` under `schema`, as kube-apiserver reports them in a 422's causes. `old`: the stored value
 * of an update (ratcheting). `prefix`: the field the value sits at when it is not the whole object (`status` for the
 * status subresource, whose schema is validated on its own: its messages name paths inside status).
 * `intOrStringTyped`: false for a CRD's defaults, which kube-apiserver checks against the structural form of the
 * schema, where int-or-string carries no type.
 */
export function schemaProblems(schema: SchemaNode, value: unknown, old: Old, prefix?: string, intOrStringTyped = true): FieldProblem[] {
  const errors: OpenApiError[] = [];
  new SchemaWalk(intOrStringTyped).validate(schema, value, '', old, errors);
  const seen = new Set<string>();
  const problems: FieldProblem[] = [];
  for (const error of errors) {
    // The validator keeps one error per message (its Result.AddErrors).
    if (seen.has(error.message)) continue;
    seen.add(error.message);
    problems.push(fieldProblem(error, prefix));
  }
  return problems;
}
