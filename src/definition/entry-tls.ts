/**
 * The `tls` field of a `secrets` entry (Orkestra's name, the same in both dialects): the Secret becomes a
 * `kubernetes.io/tls` Secret whose key and certificates katalog generates (docs/orkestra-compatibility.md#tls).
 * Taken out of the entry's body into {@link EntryTls}; every problem is reported where it was written.
 */
import type { Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';
import type { EntryTls, TemplateKind } from './types.js';
import { parseDuration } from '../util/duration.js';

const FIELDS = ['commonName', 'dnsNames', 'validFor'];
const EXTENDED = /^\d+(?:\.\d+)?(d|w|mo|y)$/;

function isDuration(text: string): boolean {
  return text.includes('{{') || EXTENDED.test(text.trim()) || parseDuration(text.trim()) !== undefined;
}

/**
 * Removes `tls` from `body` and returns it, or `undefined` when absent or wrong. Problems: `tls` on a kind other than
 * secrets; `tls` beside `data`/`stringData` or a copy (the generated key and certificates are the Secret's data);
 * a field other than `commonName`, `dnsNames`, `validFor`; values of the wrong type; `validFor` that is no duration.
 */
export function takeTls(kind: TemplateKind, body: Record<string, unknown>, origin: Origin, path: Path, problems: ProblemList): EntryTls | undefined {
  if (!Object.hasOwn(body, 'tls')) return undefined;
  const value = body['tls'];
  delete body['tls'];
  const at = [...path, 'tls'];
  if (kind !== 'secrets') {
    problems.add(origin, at, 'invalid-value', `tls is a field of secrets entries, not of ${kind}`, { at: 'key' });
    return undefined;
  }
  let ok = true;
  for (const clash of ['data', 'stringData', 'fromSecret', 'toNamespaces']) {
    if (Object.hasOwn(body, clash)) {
      problems.add(origin, [...path, clash], 'invalid-value', `${clash} cannot be combined with tls: the generated key and certificates are the Secret's data`, { at: 'key' });
      ok = false;
    }
  }
  if (value === null || value === undefined) return ok ? { dnsNames: [] } : undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.add(origin, at, 'invalid-value', 'tls must be a map with commonName, dnsNames and validFor (each optional)');
    return undefined;
  }
  const tls = value as Record<string, unknown>;
  for (const key of Object.keys(tls)) {
    if (!FIELDS.includes(key)) {
      problems.add(origin, [...at, key], 'unknown-field', `unknown field "${key}" in tls; its fields are ${FIELDS.join(', ')}`, { at: 'key' });
      ok = false;
    }
  }
  const text = (key: string): string | undefined => {
    const field = tls[key];
    if (field === undefined || field === null || field === '') return undefined;
    if (typeof field === 'string') return field;
    problems.add(origin, [...at, key], 'invalid-value', `tls.${key} must be a text (or a template)`);
    ok = false;
    return undefined;
  };
  const commonName = text('commonName');
  const validFor = text('validFor');
  if (validFor !== undefined && !isDuration(validFor)) {
    problems.add(origin, [...at, 'validFor'], 'invalid-value', 'tls.validFor must be a duration such as 90d, 2160h or 1y (or a template rendering one)');
    ok = false;
  }
  const list = tls['dnsNames'];
  const dnsNames: string[] = [];
  if (list !== undefined && list !== null) {
    if (!Array.isArray(list) || list.some((item) => typeof item !== 'string')) {
      problems.add(origin, [...at, 'dnsNames'], 'invalid-value', 'tls.dnsNames must be a list of texts (names or templates)');
      ok = false;
    } else dnsNames.push(...(list as string[]));
  }
  if (!ok) return undefined;
  return { ...(commonName === undefined ? {} : { commonName }), dnsNames, ...(validFor === undefined ? {} : { validFor }) };
}

/** `tls` as written, for serialising an entry back to its input shape. */
export function tlsToInput(tls: EntryTls | undefined): Record<string, unknown> {
  if (tls === undefined) return {};
  return { tls: { ...(tls.commonName === undefined ? {} : { commonName: tls.commonName }), ...(tls.dnsNames.length === 0 ? {} : { dnsNames: [...tls.dnsNames] }), ...(tls.validFor === undefined ? {} : { validFor: tls.validFor }) } };
}
