/**
 * Answers in the rendering the client negotiated: a `meta.k8s.io` Table (the kind's columns, one row per object,
 * the row's object as PartialObjectMetadata by default or per `includeObject`), PartialObjectMetadata[List], or YAML.
 */
import { stringify as toYaml } from 'yaml';
import type { Cluster } from '../cluster.js';
import { crdNameOf } from '../kinds/crd-rules.js';
import { CRDS_KEY } from '../resources/builtin-resources.js';
import type { ResourceView } from '../resources/resource-type.js';
import { badRequest } from '../status-errors.js';
import type { KubeObject } from '../store/record.js';
import type { Rendering } from './accept.js';
import { builtinColumns, DEFAULT_COLUMNS } from './builtin-columns.js';
import type { ColumnSet } from './columns.js';
import { crdColumns } from './crd-columns.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** `includeObject` of the query (default Metadata); 400 for another value. */
export function includeObjectOf(query: URLSearchParams): IncludeObject {
  const value = query.get('includeObject');
  if (value === null || value === '' || value === 'Metadata') return 'Metadata';
  if (value === 'None' || value === 'Object') return value;
  throw badRequest(`includeObject: Unsupported value: "${value}": supported values: "Metadata", "None", "Object"`);
}

/** The columns for a resource as served through `view`. */
export function columnsFor(cluster: Cluster, view: ResourceView): ColumnSet {
  if (view.type.builtin) return builtinColumns(view.type.key);
  const crd = cluster.store.get(CRDS_KEY, '', crdNameOf(view.type));
  return crd === undefined ? DEFAULT_COLUMNS : crdColumns(crd.object, view.version);
}

function partial(object: KubeObject, version: string): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: object['metadata'] };
}

/** Table options of one answer. */
export interface TableRequest {
  readonly version: string;
  readonly include: IncludeObject;
  /** Column definitions are left out of watch events after the first (as the API server does). */
  readonly withColumns: boolean;
  readonly now: number;
}

/** A Table of `objects` (full objects with apiVersion and kind). */
export function table(columns: ColumnSet, objects: readonly KubeObject[], listMetadata: Record<string, unknown>, request: TableRequest): KubeObject {
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${request.version}`,
    metadata: listMetadata,
    columnDefinitions: request.withColumns ? columns.columns : [],
    rows: objects.map((object) => ({
      cells: columns.cells(object, request.now),
      ...(request.include === 'None' ? {} : { object: request.include === 'Object' ? object : partial(object, request.version) }),
    })),
  };
}

/** Re-renders a JSON answer (one object or a list) as the negotiated type; JSON stays as it is. */
export function render(cluster: Cluster, view: ResourceView, rendering: Rendering, text: string, query: URLSearchParams): string {
  if (rendering.as === 'json') return text;
  const value = JSON.parse(text) as KubeObject;
  if (rendering.as === 'yaml') return toYaml(value);
  const isList = Array.isArray(value['items']);
  const objects = isList ? (value['items'] as KubeObject[]).map((item) => ({ apiVersion: view.apiVersion, kind: view.type.kind, ...item })) : [value];
  if (rendering.as === 'metadata') {
    if (!isList) return JSON.stringify(partial(value, rendering.version));
    return JSON.stringify({
      kind: 'PartialObjectMetadataList',
      apiVersion: `meta.k8s.io/${rendering.version}`,
      metadata: value['metadata'],
      items: objects.map((o) => partial(o, rendering.version)),
    });
  }
  const listMetadata = isList ? (value['metadata'] as Record<string, unknown>) : { resourceVersion: (value['metadata'] as { resourceVersion?: unknown } | undefined)?.resourceVersion };
  return JSON.stringify(table(columnsFor(cluster, view), objects, listMetadata, { version: rendering.version, include: includeObjectOf(query), withColumns: true, now: cluster.clock.now() }));
}

/** The content type of a rendering. */
export function contentTypeOf(rendering: Rendering): string {
  return rendering.as === 'yaml' ? 'application/yaml' : 'application/json';
}
