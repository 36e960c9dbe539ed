/**
 * Copies (`fromSecret`, `fromConfigMap`, `fromNetworkPolicy`, `fromLimitRange`, `fromResourceQuota`,
 * `fromNamespace`, `toNamespaces`; docs/orkestra-compatibility.md#copies): a Secret or ConfigMap child takes the
 * source's data (the entry's own `data` wins key by key) and, for a Secret, the source's `type` unless the entry
 * declares one; a NetworkPolicy, LimitRange or ResourceQuota child takes the source's whole `spec` (as Orkestra
 * copies it; the loader refuses spec fields beside the source). `toNamespaces` turns the child into one copy per
 * namespace.
 *
 * A source that does not exist (yet) is an error of the reconcile, so it ends Ready=False and is retried with
 * backoff until the source appears; it is never skipped. Messages name the entry, never the rendered names (they
 * come from the custom resource) nor any value of the source.
 */
import { KatalogError } from '../errors.js';
import type { KubeObject, ResourceRef } from '../kube/resource.js';
import type { Owner } from '../registry/ownership.js';
import type { TemplateEntry } from '../definition/types.js';

/** Reads one object; `undefined` when it does not exist (the Kubernetes client's `get`). */
export type SourceReader = (ref: ResourceRef, name: string, namespace: string | undefined, signal?: AbortSignal) => Promise<KubeObject | undefined>;

/** The copy fields of one entry after rendering. */
export interface RenderedCopy {
  readonly from?: string;
  readonly fromNamespace?: string;
  /** Target namespaces, lists flattened, empty texts dropped, each once. */
  readonly toNamespaces: readonly string[];
}

const SOURCES: Readonly<Record<string, { readonly ref: ResourceRef; readonly field: string }>> = {
  secrets: { ref: { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true }, field: 'fromSecret' },
  configMaps: { ref: { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true }, field: 'fromConfigMap' },
  networkPolicies: { ref: { group: 'networking.k8s.io', version: 'v1', kind: 'NetworkPolicy', plural: 'networkpolicies', namespaced: true }, field: 'fromNetworkPolicy' },
  limitRanges: { ref: { group: '', version: 'v1', kind: 'LimitRange', plural: 'limitranges', namespaced: true }, field: 'fromLimitRange' },
  resourceQuotas: { ref: { group: '', version: 'v1', kind: 'ResourceQuota', plural: 'resourcequotas', namespaced: true }, field: 'fromResourceQuota' },
};

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'a map' : `a ${typeof value}`;
}

/**
 * Checks the rendered copy fields: the source name must render to a non-empty text (a declared source that renders
 * empty is an error, not a skip); each `toNamespaces` item renders to a text or a list of texts (Orkestra's
 * `toNamespaces: ["{{ .spec.targetNamespaces }}"]`).
 */
export function renderedCopy(rendered: unknown, entry: TemplateEntry): RenderedCopy {
  const declared = entry.copy;
  const value = (typeof rendered === 'object' && rendered !== null ? rendered : {}) as { from?: unknown; fromNamespace?: unknown; toNamespaces?: unknown };
  const field = SOURCES[entry.kind]?.field ?? 'fromSecret';
  let from: string | undefined;
  if (declared?.from !== undefined) {
    if (typeof value.from !== 'string' || value.from === '') throw new KatalogError('E_MANIFEST', `${entry.path}: ${field} rendered ${value.from === '' || value.from === undefined ? 'empty' : describe(value.from)}; it must name the object to copy`);
    from = value.from;
  }
  let fromNamespace: string | undefined;
  if (declared?.fromNamespace !== undefined) {
    if (value.fromNamespace !== undefined && typeof value.fromNamespace !== 'string') throw new KatalogError('E_MANIFEST', `${entry.path}: fromNamespace rendered ${describe(value.fromNamespace)}, not a namespace name`);
    if (value.fromNamespace !== '') fromNamespace = value.fromNamespace;
  }
  const targets: string[] = [];
  const items: unknown[] = Array.isArray(value.toNamespaces) ? value.toNamespaces : [];
  items.forEach((item, index) => {
    const texts = Array.isArray(item) ? (item as unknown[]) : [item];
    for (const text of texts) {
      if (text === undefined || text === null || text === '') continue;
      if (typeof text !== 'string') throw new KatalogError('E_MANIFEST', `${entry.path}: toNamespaces[${index}] rendered ${describe(text)}, not a namespace name`);
      if (!targets.includes(text)) targets.push(text);
    }
  });
  return { ...(from === undefined ? {} : { from }), ...(fromNamespace === undefined ? {} : { fromNamespace }), toNamespaces: targets };
}

function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value !== 'object' || value === null) return out;
  for (const [key, item] of Object.entries(value)) if (typeof item === 'string') out[key] = item;
  return out;
}

/**
 * The body the entry's short form is built from: for a kind whose copy takes the source's spec, a placeholder
 * `spec` stands in for the spec fields the entry may not write beside its source (the copy replaces it).
 */
export function bodyToBuild(body: Record<string, unknown>, entry: TemplateEntry): Record<string, unknown> {
  const copiesSpec = entry.copy?.from !== undefined && entry.kind !== 'secrets' && entry.kind !== 'configMaps';
  return copiesSpec ? { ...body, spec: {} } : body;
}

/**
 * Carries out the copy of one built child: reads the source (when there is one), merges its data under the
 * entry's, and returns one manifest per target namespace (or the child alone when `toNamespaces` is empty).
 */
export async function carryOutCopy(manifest: KubeObject, copy: RenderedCopy, entry: TemplateEntry, owner: Owner, read: SourceReader, signal: AbortSignal): Promise<KubeObject[]> {
  const source = SOURCES[entry.kind];
  if (source === undefined) throw new KatalogError('E_MANIFEST', `${entry.path}: only ${Object.keys(SOURCES).join(', ')} entries copy`);
  if (copy.from !== undefined) {
    const namespace = copy.fromNamespace ?? owner.namespace ?? 'default';
    const found = await read(source.ref, copy.from, namespace, signal);
    if (found === undefined) {
      throw new KatalogError(
        'E_COPY_SOURCE',
        `${entry.path}: the ${source.ref.kind} to copy (${source.field}${copy.fromNamespace === undefined ? '' : ', fromNamespace'}) does not exist; retried with backoff until it does`,
      );
    }
    mergeSource(manifest, found, entry);
  }
  if (copy.toNamespaces.length === 0) return [manifest];
  return copy.toNamespaces.map((namespace) => {
    const one = structuredClone(manifest);
    (one.metadata ??= {}).namespace = namespace;
    return one;
  });
}

/**
 * The source's data under the entry's own (the entry's keys win); a Secret keeps the source's type unless the entry
 * gives one. A policy, limit range or quota takes the source's spec.
 */
function mergeSource(manifest: KubeObject, found: KubeObject, entry: TemplateEntry): void {
  const target = manifest as Record<string, unknown>;
  const from = found as Record<string, unknown>;
  if (entry.kind !== 'secrets' && entry.kind !== 'configMaps') {
    target['spec'] = structuredClone(from['spec'] ?? {});
    return;
  }
  for (const field of entry.kind === 'secrets' ? ['data'] : ['data', 'binaryData']) {
    const merged = { ...stringMap(from[field]), ...stringMap(target[field]) };
    if (Object.keys(merged).length > 0) target[field] = merged;
  }
  if (entry.kind === 'secrets' && entry.body['type'] === undefined && typeof from['type'] === 'string' && from['type'] !== '') target['type'] = from['type'];
}
