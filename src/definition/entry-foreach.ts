/**
 * A template entry's `forEach` (Orkestra's `pkg/types` ForEachSpec, the same in both dialects): `{field, as}`,
 * taken out of the entry's body into {@link EntryForEach}. One child is rendered per item of the list (or map)
 * `field` names (docs/orkestra-compatibility.md#foreach); the checks here are what the loader can see:
 *
 * - `forEach` is a map with a non-empty `field` (a dot path such as `spec.regions`) and an optional `as`;
 * - `as` is an identifier that does not hide a root of the data (`.spec`, `.children`, `.index`...);
 * - the child's name (or its namespace) is a template: items that rendered the same name would all be one
 *   child, so an entry whose name and namespace are both literal (or absent: a default name) is an error.
 */
import type { Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';
import type { EntryForEach, TemplateKind } from './types.js';
import { hasTemplateActions, parseFieldPath } from '../template/index.js';

/** Keys of the data every template sees, which `as` may not take over (`item` is the default itself). */
const RESERVED_AS: readonly string[] = Object.freeze([
  'apiVersion', 'kind', 'metadata', 'spec', 'status', 'children', 'inputs', 'cross', 'external', 'index', 'value',
]);

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Removes `forEach` from `body` and returns it checked, or `undefined` (absent, or reported as a problem). */
export function takeForEach(kind: TemplateKind, body: Record<string, unknown>, origin: Origin, path: Path, problems: ProblemList): EntryForEach | undefined {
  if (!Object.hasOwn(body, 'forEach')) return undefined;
  const value = body['forEach'];
  delete body['forEach'];
  const at = [...path, 'forEach'];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.add(origin, at, 'invalid-value', 'forEach must be a map: {field: spec.<list or map>, as: <name>}');
    return undefined;
  }
  const spec = value as Record<string, unknown>;
  let ok = true;
  for (const key of Object.keys(spec)) {
    if (key === 'field' || key === 'as') continue;
    problems.add(origin, [...at, key], 'unknown-field', `unknown field "${key}" in forEach (it has field and as)`, { at: 'key' });
    ok = false;
  }
  const field = spec['field'];
  if (typeof field !== 'string' || field.trim() === '' || parseFieldPath(field) === undefined) {
    problems.add(origin, Object.hasOwn(spec, 'field') ? [...at, 'field'] : at, 'invalid-value', 'forEach.field must be a dot path to a list or map of the custom resource, such as spec.regions');
    ok = false;
  }
  const as = spec['as'] ?? 'item';
  if (typeof as !== 'string' || !IDENTIFIER.test(as)) {
    problems.add(origin, [...at, 'as'], 'invalid-value', 'forEach.as must be a name (letters, digits, _), such as region');
    ok = false;
  } else if (RESERVED_AS.includes(as)) {
    problems.add(origin, [...at, 'as'], 'invalid-value', `forEach.as "${as}" would hide .${as} of the template data; choose another name`);
    ok = false;
  }
  if (!namedPerItem(body)) {
    const where = Object.hasOwn(body, 'name') ? [...path, 'name'] : at;
    problems.add(origin, where, 'invalid-value', `a forEach entry of ${kind} needs a name (or namespace) that differs per item, such as "{{ .metadata.name }}-{{ .item }}"; otherwise every item is the same child`);
    ok = false;
  }
  return ok ? { field: (field as string).trim(), as: as as string } : undefined;
}

/** Whether the entry's name or namespace (short form, or a full manifest's metadata) is a template. */
function namedPerItem(body: Readonly<Record<string, unknown>>): boolean {
  const metadata = body['metadata'];
  const meta = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>) : {};
  return [body['name'], body['namespace'], meta['name'], meta['namespace']].some((value) => typeof value === 'string' && hasTemplateActions(value));
}
