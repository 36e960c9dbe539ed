/**
 * kube-apiserver's checks of the parts of a CRD version beside its schema (read in 1.37.2 and probed): the
 * deprecation warning, the scale subresource's paths, the printer columns and the selectable fields. kube-apiserver
 * checks its internal form, where a part every version has alike sits once on the spec (`spec.subresources`,
 * `spec.additionalPrinterColumns`, `spec.selectableFields`, `spec.validation` for the schema); each check here takes
 * the path it reports at.
 */
import { jsonEqual } from '../patch/json-value.js';
import { goJson, goQuote } from '../go/go-values.js';
import { asSchema, type SchemaNode } from '../resources/schema-keywords.js';
import { fieldInvalid, fieldRequired, type FieldProblem } from '../status-errors.js';
import { resolveFieldPath } from './schema-field-path.js';
import { str } from './crd-types.js';

type Json = Readonly<Record<string, unknown>>;

/** The parts of a version kube-apiserver moves up to the spec when every version has them alike. */
export type VersionPart = 'schema' | 'subresources' | 'additionalPrinterColumns' | 'selectableFields';

/** Go's semantic equality for these parts: a missing list is an empty one. */
function normalized(value: unknown): unknown {
  return value === null || (Array.isArray(value) && value.length === 0) ? undefined : value;
}

/** Whether every version has `part` alike, so that kube-apiserver checks it once, on the spec. */
export function sharedPart(versions: readonly Json[], part: VersionPart): boolean {
  const first = versions[0];
  return first !== undefined && versions.every((version) => jsonEqual(normalized(version[part]), normalized(first[part])));
}

/** A deprecation warning is only for a deprecated version, and is 1–256 printable characters. */
export function deprecationProblems(version: Json, path: string): FieldProblem[] {
  const warning = version['deprecationWarning'];
  if (typeof warning !== 'string') return [];
  const at = `${path}.deprecationWarning`;
  const invalidWarning = (detail: string): FieldProblem => ({ field: at, reason: 'FieldValueInvalid', message: `Invalid value: ${goJson(warning)}: ${detail}` });
  if (version['deprecated'] !== true) return [invalidWarning('can only be set for deprecated versions')];
  const problems: FieldProblem[] = [];
  if (Buffer.byteLength(warning) > 256) problems.push(invalidWarning('must be <= 256 characters long'));
  if (warning === '') problems.push(invalidWarning('must not be an empty string'));
  let offset = 0;
  for (const char of warning) {
    // Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space; the index is in bytes.
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(char)) {
      problems.push(invalidWarning(`must only contain printable UTF-8 characters; non-printable character found at index ${offset}`));
      break;
    }
    offset += Buffer.byteLength(char);
  }
  return problems;
}

/** Go's `validateSimpleJSONPath`: a path that starts with a dot. */
function simplePathProblems(path: string, at: string): FieldProblem[] {
  if (path === '') return [fieldInvalid(at, path, 'must not be empty')];
  if (!path.startsWith('.')) return [fieldInvalid(at, path, 'must be a simple json path starting with .')];
  return [];
}

/** The scale subresource: both replica paths, under `.spec` and `.status`, a label selector path under either. */
export function subresourceProblems(subresources: unknown, path: string): FieldProblem[] {
  const scale = asSchema(asSchema(subresources)?.['scale']);
  if (scale === undefined) return [];
  const problems: FieldProblem[] = [];
  const paths: ReadonlyArray<readonly [string, string]> = [
    ['specReplicasPath', '.spec.'],
    ['statusReplicasPath', '.status.'],
  ];
  for (const [name, prefix] of paths) {
    const value = str(scale[name]);
    const at = `${path}.scale.${name}`;
    if (value === '') problems.push(fieldRequired(at));
    else {
      const simple = simplePathProblems(value, at);
      if (simple.length > 0) problems.push(...simple);
      else if (!value.startsWith(prefix)) problems.push(fieldInvalid(at, value, `should be a json path under ${prefix.slice(0, -1)}`));
    }
  }
  const selector = str(scale['labelSelectorPath']);
  if (selector !== '') {
    const at = `${path}.scale.labelSelectorPath`;
    const simple = simplePathProblems(selector, at);
    if (simple.length > 0) problems.push(...simple);
    else if (!selector.startsWith('.spec.') && !selector.startsWith('.status.')) problems.push(fieldInvalid(at, selector, 'should be a json path under either .spec or .status'));
  }
  return problems;
}

const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

/** Each printer column: a name, a known type and format, a JSON path that starts with a dot. */
export function columnProblems(columns: unknown, path: string): FieldProblem[] {
  if (!Array.isArray(columns)) return [];
  return columns.flatMap((entry, i) => {
    const column = asSchema(entry) ?? {};
    const at = `${path}[${i}]`;
    const problems: FieldProblem[] = [];
    if (str(column['name']) === '') problems.push(fieldRequired(`${at}.name`));
    const type = str(column['type']);
    if (type === '') problems.push(fieldRequired(`${at}.type`, `must be one of ${COLUMN_TYPES.join(',')}`));
    else if (!COLUMN_TYPES.includes(type)) problems.push(fieldInvalid(`${at}.type`, type, `must be one of ${COLUMN_TYPES.join(',')}`));
    const format = str(column['format']);
    if (format !== '' && !COLUMN_FORMATS.includes(format)) problems.push(fieldInvalid(`${at}.format`, format, `must be one of ${COLUMN_FORMATS.join(',')}`));
    const jsonPath = str(column['jsonPath']);
    if (jsonPath === '') problems.push(fieldRequired(`${at}.JSONPath`));
    else problems.push(...simplePathProblems(jsonPath, `${at}.JSONPath`));
    return problems;
  });
}

/** At most this many different selectable fields. */
const MAX_SELECTABLE_FIELDS = 8;

/**
 * Each selectable field: a path of the schema (no array notation) to a string, boolean or integer, not in
 * metadata, each once, at most eight.
 */
export function selectableFieldProblems(fields: unknown, schema: SchemaNode, path: string): FieldProblem[] {
  if (!Array.isArray(fields)) return [];
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  fields.forEach((entry, i) => {
    const jsonPath = str(asSchema(entry)?.['jsonPath']);
    const at = `${path}[${i}].jsonPath`;
    if (jsonPath === '') {
      problems.push(fieldRequired(at));
      return;
    }
    const found = resolveFieldPath(schema, jsonPath, false);
    if (!found.ok) {
      problems.push(fieldInvalid(at, jsonPath, `is an invalid path: ${found.error}`));
      return;
    }
    if (found.steps[0] === 'metadata') problems.push(fieldInvalid(at, jsonPath, 'must not point to fields in metadata'));
    const type = found.schema?.['type'];
    if (type !== 'string' && type !== 'boolean' && type !== 'integer') {
      problems.push(fieldInvalid(at, jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    const key = found.steps.join('.');
    if (seen.has(key)) problems.push({ field: at, reason: 'FieldValueDuplicate', message: `Duplicate value: ${goQuote(jsonPath)}` });
    seen.add(key);
  });
  if (seen.size > MAX_SELECTABLE_FIELDS) problems.push({ field: path, reason: 'FieldValueTooMany', message: `Too many: ${seen.size}: must have at most ${MAX_SELECTABLE_FIELDS} items` });
  return problems;
}
