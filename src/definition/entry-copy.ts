/**
 * The copy fields of a template entry (Orkestra's names, the same in both dialects): `fromSecret` (secrets),
 * `fromConfigMap` (configMaps), `fromNetworkPolicy` (networkPolicies), `fromLimitRange` (limitRanges),
 * `fromResourceQuota` (resourceQuotas), `fromNamespace` and `toNamespaces`. They are taken out of the entry's body
 * into {@link EntryCopy}; a field on the wrong kind, or of the wrong type, is reported where it was written. A
 * policy, limit range or quota copied from another takes that one's whole `spec`, so writing its spec fields on
 * the same entry is an error (which would win is not obvious).
 */
import type { Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';
import type { EntryCopy, TemplateKind } from './types.js';
import { parseDuration } from '../util/duration.js';

/** The copy fields, and the one `from*` field each copying kind takes. */
const SOURCE_FIELD: Readonly<Partial<Record<TemplateKind, string>>> = {
  secrets: 'fromSecret',
  configMaps: 'fromConfigMap',
  networkPolicies: 'fromNetworkPolicy',
  limitRanges: 'fromLimitRange',
  resourceQuotas: 'fromResourceQuota',
};
export const COPY_FIELDS: readonly string[] = Object.freeze([...Object.values(SOURCE_FIELD), 'fromNamespace', 'toNamespaces']);
/** The short-form fields that make the spec of a kind whose copy takes the source's whole spec. */
const SPEC_FIELDS: Readonly<Partial<Record<TemplateKind, readonly string[]>>> = {
  networkPolicies: ['podSelector', 'ingress', 'egress', 'policyTypes', 'spec'],
  limitRanges: ['limits', 'spec'],
  resourceQuotas: ['hard', 'scopes', 'scopeSelector', 'spec'],
};
const COPYING_KINDS = Object.keys(SOURCE_FIELD).join(', ');

/**
 * Removes the copy fields from `body` and returns them as an {@link EntryCopy}, or `undefined` when the entry has
 * none. Problems: a copy field on a kind that does not copy, another kind's source field (`fromSecret` under
 * configMaps...), `fromNamespace` without a source, a value that is not a text (a list of texts for `toNamespaces`),
 * spec fields beside a source whose spec is copied.
 */
export function takeCopy(kind: TemplateKind, body: Record<string, unknown>, origin: Origin, path: Path, problems: ProblemList): EntryCopy | undefined {
  const present = COPY_FIELDS.filter((key) => Object.hasOwn(body, key));
  if (present.length === 0) return undefined;
  const values: Record<string, unknown> = {};
  for (const key of present) {
    values[key] = body[key];
    delete body[key];
  }
  const sourceField = SOURCE_FIELD[kind];
  if (sourceField === undefined) {
    for (const key of present) problems.add(origin, [...path, key], 'invalid-value', `${key} is a field of ${COPYING_KINDS} entries, not of ${kind}`, { at: 'key' });
    return undefined;
  }
  let ok = true;
  const text = (key: string): string | undefined => {
    const value = values[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string' && value !== '') return value;
    problems.add(origin, [...path, key], 'invalid-value', `${key} must be a non-empty text (a name, or a template)`);
    ok = false;
    return undefined;
  };
  for (const wrongSource of Object.values(SOURCE_FIELD)) {
    if (wrongSource === sourceField || !Object.hasOwn(values, wrongSource)) continue;
    problems.add(origin, [...path, wrongSource], 'invalid-value', `${wrongSource} does not fit a ${kind} entry; use ${sourceField}`, { at: 'key' });
    ok = false;
  }
  const from = text(sourceField);
  if (from !== undefined) {
    for (const key of SPEC_FIELDS[kind] ?? []) {
      if (!Object.hasOwn(body, key)) continue;
      problems.add(origin, [...path, key], 'invalid-value', `${key} cannot be written beside ${sourceField}: the copy takes the spec of the ${sourceField.slice(4)} it names`, { at: 'key' });
      ok = false;
    }
  }
  const fromNamespace = text('fromNamespace');
  if (fromNamespace !== undefined && from === undefined) {
    problems.add(origin, [...path, 'fromNamespace'], 'invalid-value', `fromNamespace needs ${sourceField} (the name of the object to copy)`, { at: 'key' });
    ok = false;
  }
  const toNamespaces: string[] = [];
  const list = values['toNamespaces'];
  if (list !== undefined && list !== null) {
    if (!Array.isArray(list) || list.some((item) => typeof item !== 'string')) {
      problems.add(origin, [...path, 'toNamespaces'], 'invalid-value', 'toNamespaces must be a list of texts (namespace names or templates)');
      ok = false;
    } else toNamespaces.push(...(list as string[]).filter((item) => item !== ''));
  }
  if (!ok) return undefined;
  return { ...(from === undefined ? {} : { from }), ...(fromNamespace === undefined ? {} : { fromNamespace }), toNamespaces };
}

/**
 * Removes `rotateAfter` from `body`: a text on a `secrets` entry, a duration when it holds no template (Go's, or
 * Orkestra's `30d`, `2w`, `6mo`, `1y`). Problems otherwise, at the field.
 */
export function takeRotateAfter(kind: TemplateKind, body: Record<string, unknown>, origin: Origin, path: Path, problems: ProblemList): string | undefined {
  if (!Object.hasOwn(body, 'rotateAfter')) return undefined;
  const value = body['rotateAfter'];
  delete body['rotateAfter'];
  if (kind !== 'secrets') {
    problems.add(origin, [...path, 'rotateAfter'], 'invalid-value', `rotateAfter is a field of secrets entries, not of ${kind}`, { at: 'key' });
    return undefined;
  }
  if (typeof value !== 'string' || value === '' || (!value.includes('{{') && !ROTATION.test(value.trim()) && parseDuration(value.trim()) === undefined)) {
    problems.add(origin, [...path, 'rotateAfter'], 'invalid-value', 'rotateAfter must be a duration such as 90d, 12h or 1y (or a template rendering one)');
    return undefined;
  }
  return value;
}

const ROTATION = /^\d+(?:\.\d+)?(d|w|mo|y)$/;

/** The copy fields as written, for serialising an entry back to its input shape. */
export function copyToInput(kind: TemplateKind, copy: EntryCopy | undefined): Record<string, unknown> {
  if (copy === undefined) return {};
  const sourceField = SOURCE_FIELD[kind] ?? 'fromSecret';
  return {
    ...(copy.from === undefined ? {} : { [sourceField]: copy.from }),
    ...(copy.fromNamespace === undefined ? {} : { fromNamespace: copy.fromNamespace }),
    ...(copy.toNamespaces.length === 0 ? {} : { toNamespaces: [...copy.toNamespaces] }),
  };
}
