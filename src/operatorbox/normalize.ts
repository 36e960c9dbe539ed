/**
 * A CRD's `normalize` (Orkestra's canonical spec, docs/orkestra-compatibility.md#normalize): before anything else
 * of a cycle reads the custom resource (the box's templates, hooks, status fields), each declared field under
 * `.spec` is replaced by its template's value. Every template renders against the object as it came from the
 * cache (never against another normalized field), as in Orkestra. It is an in-memory step: nothing is written back,
 * the stored object keeps what the user wrote.
 *
 * The rendered text is trimmed; with a `type` it is cast (an empty text leaves the field as it is; a text that is
 * not of the type fails the reconcile), else read as YAML (`"3"` → 3, `"true"` → true, `"null"` and `""` → `""`,
 * anything YAML cannot read stays text), as Orkestra does. A render that fails, or a path through something that is
 * not a map, fails the reconcile with the field's path (Ready=False, retried with backoff); the message never
 * carries a value of the custom resource.
 */
import { parse } from 'yaml';
import type { NormalizeField } from '../definition/types.js';
import { RuntimeError } from '../errors.js';
import type { KubeObject } from '../kube/resource.js';
import { compileTemplate, type CompiledTemplate, type TemplateDialect, type UserNote } from '../template/index.js';
import { templateData } from './template-data.js';

interface CompiledField {
  readonly field: NormalizeField;
  readonly template: CompiledTemplate;
  readonly name: string;
}

/**
 * Compiles the fields once (when the CRD activates); the result rewrites a private copy of an object. `now` is the
 * runtime's clock, read by the templates' clock notes; default `Date.now`.
 */
export function compileNormalize(crd: string, fields: readonly NormalizeField[], dialect: TemplateDialect = 'katalog', notes?: readonly UserNote[], now?: () => number): (object: KubeObject) => KubeObject {
  const compiled: CompiledField[] = fields.map((field) => {
    const name = `spec.crds.${crd}.normalize.spec.${field.path}`;
    return { field, name, template: compileTemplate(field.value, { name, dialect, ...(notes === undefined ? {} : { notes }), ...(now === undefined ? {} : { now }) }) };
  });
  return (object) => {
    const data = templateData(object, {}, {}, dialect);
    const values: Array<{ readonly at: CompiledField; readonly value: unknown }> = [];
    for (const at of compiled) {
      let rendered: unknown;
      try {
        rendered = at.template.render(data);
      } catch (error) {
        throw new RuntimeError('E_NORMALIZE', `${at.name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      const value = normalizedValue(rendered, at);
      if (value !== undefined) values.push({ at, value });
    }
    // All rendered against the object as it came; set afterwards.
    if (values.length === 0) return object;
    const spec = (object['spec'] !== null && typeof object['spec'] === 'object' && !Array.isArray(object['spec']) ? object['spec'] : (object['spec'] = {})) as Record<string, unknown>;
    for (const { at, value } of values) setPath(spec, at.field.path.split('.'), value, at.name);
    return object;
  };
}

/** The convert stage followed by `normalize` (after conversion and the schema check), or the stage itself. */
export function withNormalize(convert: (object: KubeObject) => KubeObject, normalize: ((object: KubeObject) => KubeObject) | undefined): (object: KubeObject) => KubeObject {
  return normalize === undefined ? convert : (object) => normalize(convert(object));
}

/** The value to set, or `undefined` to leave the field as it is (an empty text with a declared type). */
function normalizedValue(rendered: unknown, at: CompiledField): unknown {
  const text = typeof rendered === 'string' ? rendered.trim() : rendered === undefined || rendered === null ? '' : typeof rendered === 'object' ? undefined : String(rendered as number | boolean);
  if (text === undefined) {
    if (at.field.type === undefined) return rendered; // a map or list from a single action: kept as it is
    throw new RuntimeError('E_NORMALIZE', `${at.name}: the template renders a map or list, not a ${at.field.type}`);
  }
  const type = at.field.type;
  if (type === undefined) return fromYaml(text);
  if (text === '') return undefined;
  switch (type) {
    case 'string':
      return text;
    case 'int':
      if (/^[+-]?\d+$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
      break;
    case 'float': {
      const number = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) || /^[+-]?(inf|infinity)$/i.test(text) ? Number(text.replace(/inf(inity)?/i, 'Infinity')) : Number.NaN;
      if (Number.isFinite(number)) return number;
      break;
    }
    case 'bool':
      if (TRUE.has(text)) return true;
      if (FALSE.has(text)) return false;
      break;
  }
  // Never the text itself: it comes from the custom resource.
  throw new RuntimeError('E_NORMALIZE', `${at.name}: the rendered value is not a ${type}`);
}

/** Go's ParseBool words, as Orkestra casts `type: bool`. */
const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** YAML's reading of a rendered text (YAML 1.2 core schema): numbers, booleans, maps, lists; `null` and errors as text rules say. */
function fromYaml(text: string): unknown {
  if (text === '') return '';
  try {
    const value: unknown = parse(text, { schema: 'core', uniqueKeys: false });
    return value === null || value === undefined ? '' : value;
  } catch {
    // Not YAML (a cron text such as "*/5 * * * *" starts with an alias marker): the text itself, as in Orkestra.
    return text;
  }
}

function setPath(spec: Record<string, unknown>, parts: readonly string[], value: unknown, name: string): void {
  let current = spec;
  for (const part of parts.slice(0, -1)) {
    const next = current[part];
    if (next === undefined || next === null) {
      const created: Record<string, unknown> = {};
      current[part] = created;
      current = created;
      continue;
    }
    if (typeof next !== 'object' || Array.isArray(next)) throw new RuntimeError('E_NORMALIZE', `${name}: "${part}" is not a map in the custom resource's spec`);
    current = next as Record<string, unknown>;
  }
  current[parts[parts.length - 1] ?? ''] = value;
}
