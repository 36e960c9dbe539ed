/**
 * What kube-apiserver fills in and leaves out when it stores a v1 CustomResourceDefinition (its v1 defaults, read in
 * 1.37.2 and probed): `names.singular` is the kind in lower case and `names.listKind` is `<kind>List` when left out,
 * `conversion` is `{strategy: None}`, a conversion webhook's service gets port 443; and what its Go types omit when
 * empty is not stored (`preserveUnknownFields: false`, `deprecated: false`, a printer column's `priority: 0`, an empty
 * `description` or `format`, empty `shortNames` and `categories`).
 */
import type { KubeObject } from '../store/record.js';

type Json = Record<string, unknown>;

function obj(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function dropWhen(target: Json, key: string, empty: unknown): void {
  const value = target[key];
  if (value === empty || (Array.isArray(value) && Array.isArray(empty) && value.length === 0)) delete target[key];
}

/** Fills in the CRD's defaults and drops its empty fields, in place (the request's own objects). */
export function defaultCrdSpec(crd: KubeObject): void {
  const spec = obj(crd['spec']);
  if (spec === undefined) return;
  const names = obj(spec['names']);
  if (names !== undefined) {
    const kind = typeof names['kind'] === 'string' ? names['kind'] : '';
    if (typeof names['singular'] !== 'string' || names['singular'] === '') names['singular'] = kind.toLowerCase();
    if ((typeof names['listKind'] !== 'string' || names['listKind'] === '') && kind !== '') names['listKind'] = `${kind}List`;
    if (names['singular'] === '') delete names['singular'];
    dropWhen(names, 'shortNames', []);
    dropWhen(names, 'categories', []);
  }
  dropWhen(spec, 'preserveUnknownFields', false);
  if (spec['conversion'] === undefined || spec['conversion'] === null) spec['conversion'] = { strategy: 'None' };
  const service = obj(obj(obj(obj(spec['conversion'])?.['webhook'])?.['clientConfig'])?.['service']);
  if (service !== undefined && (service['port'] === undefined || service['port'] === null)) service['port'] = 443;
  const versions = Array.isArray(spec['versions']) ? spec['versions'] : [];
  for (const version of versions.map(obj)) {
    if (version === undefined) continue;
    dropWhen(version, 'deprecated', false);
    const columns = Array.isArray(version['additionalPrinterColumns']) ? version['additionalPrinterColumns'] : [];
    for (const column of columns.map(obj)) {
      if (column === undefined) continue;
      dropWhen(column, 'priority', 0);
      dropWhen(column, 'description', '');
      dropWhen(column, 'format', '');
    }
  }
}
