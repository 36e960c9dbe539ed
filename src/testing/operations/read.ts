/**
 * GET and LIST. A list is the current state (sorted by namespace and name, as etcd returns it) filtered by
 * namespace and selectors, paginated with `limit` and an opaque `continue` token; its resourceVersion is the
 * global one (or the first page's, for later pages).
 */
import type { Cluster } from '../cluster.js';
import type { ResourceView } from '../resources/resource-type.js';
import type { FieldSelector } from '../selectors/field-selector.js';
import type { LabelSelector } from '../selectors/label-selector.js';
import { badRequest, notFound } from '../status-errors.js';
import type { StoredRecord } from '../store/record.js';

export interface ListQuery {
  readonly namespace: string | undefined;
  readonly labels: LabelSelector;
  readonly fields: FieldSelector;
  readonly limit: number | undefined;
  readonly continueToken: string | undefined;
}

export interface ListPage {
  readonly records: StoredRecord[];
  readonly resourceVersion: number;
  readonly continueToken: string | undefined;
  /** Items after this page; only without selectors, as on a real server. */
  readonly remainingItemCount: number | undefined;
}

interface ContinueState {
  readonly rv: number;
  readonly namespace: string;
  readonly name: string;
}

function encodeContinue(state: ContinueState): string {
  return Buffer.from(JSON.stringify({ v: 1, rv: state.rv, ns: state.namespace, n: state.name })).toString('base64url');
}

function decodeContinue(token: string): ContinueState {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { v?: unknown; rv?: unknown; ns?: unknown; n?: unknown };
    if (parsed.v === 1 && typeof parsed.rv === 'number' && typeof parsed.ns === 'string' && typeof parsed.n === 'string') {
      return { rv: parsed.rv, namespace: parsed.ns, name: parsed.n };
    }
  } catch {
    // fall through
  }
  throw badRequest(`continue key is not valid: ${token.slice(0, 64)}`);
}

function after(record: StoredRecord, state: ContinueState): boolean {
  if (record.namespace !== state.namespace) return record.namespace > state.namespace;
  return record.name > state.name;
}

/** The stored object, or 404. */
export function getObject(cluster: Cluster, view: ResourceView, namespace: string, name: string): StoredRecord {
  const record = cluster.store.get(view.type.key, namespace, name);
  if (record === undefined) throw notFound(view.type, name);
  return record;
}

/** One page of a list. */
export function listObjects(cluster: Cluster, view: ResourceView, query: ListQuery): ListPage {
  const state = query.continueToken === undefined || query.continueToken === '' ? undefined : decodeContinue(query.continueToken);
  const all = cluster.store.list(view.type.key, query.namespace);
  const selected: StoredRecord[] = [];
  for (const record of all) {
    if (state !== undefined && !after(record, state)) continue;
    if (!query.labels.empty && !query.labels.matches(record.labels)) continue;
    if (!query.fields.empty && !query.fields.matches(record.object)) continue;
    selected.push(record);
  }
  const resourceVersion = state?.rv ?? cluster.store.currentRevision;
  const limit = query.limit;
  if (limit === undefined || limit <= 0 || selected.length <= limit) {
    return { records: selected, resourceVersion, continueToken: undefined, remainingItemCount: undefined };
  }
  const records = selected.slice(0, limit);
  const last = records[records.length - 1];
  const continueToken = last === undefined ? undefined : encodeContinue({ rv: resourceVersion, namespace: last.namespace, name: last.name });
  const filtered = !query.labels.empty || !query.fields.empty;
  return { records, resourceVersion, continueToken, remainingItemCount: filtered ? undefined : selected.length - limit };
}
