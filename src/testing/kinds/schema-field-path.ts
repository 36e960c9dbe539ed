/**
 * A path into a CRD schema as kube-apiserver reads one (`ValidFieldPath`, for a CEL rule's `fieldPath` and a
 * selectable field's `jsonPath`): `.name` and `['name']` steps, each a declared property, or a key of a map
 * (`additionalProperties`); with Go's error for a path it cannot follow.
 */
import { asSchema, propertiesOf, type SchemaNode } from '../resources/schema-keywords.js';

export type FieldPathResult = { readonly ok: true; readonly schema: SchemaNode | undefined; readonly steps: readonly string[] } | { readonly ok: false; readonly error: string };

/** The tokens Go's scanner splits a path into: `.`, `[`, `]`, a single-quoted string, or the text between them. */
function tokens(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i] ?? '';
    if (c === '.' || c === '[' || c === ']') {
      out.push(c);
      i += 1;
    } else if (c === "'") {
      let end = i + 1;
      while (end < path.length && !(path[end] === "'" && path[end - 1] !== '\\')) end += 1;
      out.push(path.slice(i, end + 1));
      i = end + 1;
    } else {
      let end = i;
      while (end < path.length && !'.[]'.includes(path[end] ?? '')) end += 1;
      out.push(path.slice(i, end));
      i = end;
    }
  }
  return out;
}

/** Follows `path` from `node`; `arrays` is whether `['name']` steps are allowed. */
export function resolveFieldPath(node: SchemaNode, path: string, arrays = true): FieldPathResult {
  const list = tokens(path);
  let schema: SchemaNode | undefined = node;
  const steps: string[] = [];
  const step = (name: string): string | undefined => {
    const properties = schema === undefined ? undefined : propertiesOf(schema);
    if (properties !== undefined) {
      if (!Object.hasOwn(properties, name)) return 'does not refer to a valid field';
      schema = asSchema(properties[name]);
    } else if (schema !== undefined && schema['additionalProperties'] !== undefined && schema['additionalProperties'] !== false) {
      schema = asSchema(schema['additionalProperties']);
    } else {
      return 'does not refer to a valid field';
    }
    steps.push(name);
    return undefined;
  };
  for (let i = 0; i < list.length; i += 1) {
    const token = list[i] ?? '';
    if (token === '[') {
      if (!arrays) return { ok: false, error: 'array notation is not allowed' };
      const quoted = list[i + 1];
      if (quoted === undefined) return { ok: false, error: 'unexpected end of JSON path' };
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) return { ok: false, error: `expected single quoted string but got ${quoted}` };
      const error = step(quoted.slice(1, -1).replace(/\\(.)/g, '$1'));
      if (error !== undefined) return { ok: false, error };
      const close = list[i + 2];
      if (close === undefined) return { ok: false, error: 'unexpected end of JSON path' };
      if (close !== ']') return { ok: false, error: `expected ] but got ${close}` };
      i += 2;
    } else if (token === '.') {
      const name = list[i + 1];
      if (name === undefined) return { ok: false, error: 'unexpected end of JSON path' };
      const error = step(name);
      if (error !== undefined) return { ok: false, error };
      i += 1;
    } else {
      return { ok: false, error: `expected [ or . but got: ${token}` };
    }
  }
  return { ok: true, schema, steps };
}
