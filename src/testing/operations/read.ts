/**
 * GET and LIST. A list is the current state (sorted by namespace and name, as etcd returns it) filtered by
 * namespace and selectors, paginated with `limit` and an opaque `continue` token; its resourceVersion is the
 * global one, or the first page's for later pages, which read the state at that resourceVersion (list-snapshot.ts);
 * `resourceVersionMatch=Exact` (or a resourceVersion with a limit) lists the state at the resourceVersion asked for.
 */
import type { Cluster } from '../cluster.js';
import type { ResourceView } from '../resources/resource-type.js';
import type { FieldSelector } from '../selectors/field-selector.js';
import type { LabelSelector } from '../selectors/label-selector.js';
import { badRequest, listContinueTooOld, listTooOld, notFound, tooLargeResourceVersion } from '../status-errors.js';
import type { StoredRecord } from '../store/record.js';
import { rangeAt } from './list-snapshot.js';

export interface ListQuery {
  readonly namespace: string | undefined;
  readonly labels: LabelSelector;
  readonly fields: FieldSelector;
  readonly limit: number | undefined;
  readonly continueToken: string | undefined;
  /**
   * `resourceVersion` and `resourceVersionMatch`, as checked (http/query.ts checkListVersion). `resourceVersion=0`
   * ignores the limit, as kube-apiserver's watch cache does; with a token only `0` gets here (the rest of its snapshot).
   */
  readonly resourceVersion?: number | undefined;
  readonly match?: 'Exact' | 'NotOlderThan' | undefined;
}

export interface ListPage {
  readonly records: StoredRecord[];
  readonly resourceVersion: number;
  readonly continueToken: string | undefined;
  /** Items after this page; only without selectors, as on a real server. */
  readonly remainingItemCount: number | undefined;
}

interface ContinueState {
  /** The snapshot's resourceVersion; -1 (only in the token of a 410, listContinueTooOld) reads the newest state. */
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
    const rv = parsed.rv;
    if (parsed.v === 1 && typeof rv === 'number' && Number.isInteger(rv) && (rv > 0 || rv === -1) && typeof parsed.ns === 'string' && typeof parsed.n === 'string') {
      return { rv, namespace: parsed.ns, name: parsed.n };
    }
  } catch {
    // not base64url JSON: the same answer as a token of another shape
  }
  // kube-apiserver's words, with its decoder's own error where this says what was wrong.
  throw badRequest('invalid continue token: continue key is not valid: not a continue token of this server');
}

/** The stored object, or 404. */
export function getObject(cluster: Cluster, view: ResourceView, namespace: string, name: string): StoredRecord {
  const record = cluster.store.get(view.type.key, namespace, name);
  if (record === undefined) throw notFound(view.type, name);
  return record;
}

/**
 * One page of a list. A page starts after the continue key (the store finds it by binary search) and stops at the
 * first record past its limit, so paging through a large kind costs each page its own records, not a pass over the
 * whole kind (a selective selector still reads the records it skips). A page has a continue token when any record
 * follows it, whether or not the selectors match it, as kube-apiserver pages.
 */
export function listObjects(cluster: Cluster, view: ResourceView, query: ListQuery): ListPage {
  const state = query.continueToken === undefined || query.continueToken === '' ? undefined : decodeContinue(query.continueToken);
  // A list with resourceVersion=0 is served whole (from the token's key on, when continued): kube-apiserver answers it
  // from its watch cache, which ignores the limit there (1.37.2, probed: no continue token, no remainingItemCount).
  const limit = query.limit !== undefined && query.limit > 0 && query.resourceVersion !== 0 ? query.limit : undefined;
  const current = cluster.store.currentRevision;
  const asked = state === undefined ? query.resourceVersion : undefined;
  // A resourceVersion the server has not reached is 504 at once: kube-apiserver waits 3 s for its watch cache to
  // catch up with etcd first, and this server's store is its cache.
  if (asked !== undefined && asked > current) throw tooLargeResourceVersion(asked, current);
  // kube-apiserver lists at exactly the resourceVersion asked for with `Exact`, and with no match but a limit (a
  // paginated list from a resourceVersion other than "0"); otherwise (none, "0", NotOlderThan) at the newest.
  const exact = asked !== undefined && asked > 0 && (query.match === 'Exact' || (query.match === undefined && limit !== undefined)) ? asked : undefined;
  // A token of rv -1 (from a 410 below) reads on at the newest state, and its next token carries that state's.
  const resourceVersion = state !== undefined && state.rv > 0 ? state.rv : (exact ?? current);
  const after = resourceVersion === current ? cluster.store.listAfter(view.type.key, query.namespace, state) : rangeAt(cluster, view.type.key, query.namespace, state, resourceVersion);
  // Older than the history: the state at that resourceVersion cannot be served (kube-apiserver: etcd compacted it).
  if (after === undefined) {
    if (state === undefined) throw listTooOld();
    throw listContinueTooOld(encodeContinue({ ...state, rv: -1 }));
  }
  const filtered = !query.labels.empty || !query.fields.empty;
  const records: StoredRecord[] = [];
  let more = false;
  for (const record of after.records) {
    // A full page with any object after it, matching the selectors or not, has a next page: kube-apiserver's etcd
    // store and watch cache both stop at the first key past a full page, so a selective list can end on an empty page.
    if (limit !== undefined && records.length === limit) {
      more = true;
      break;
    }
    if (filtered && !(query.labels.matches(record.labels) && query.fields.matches(record.object))) continue;
    records.push(record);
  }
  const last = records[records.length - 1];
  if (!more || limit === undefined || last === undefined) return { records, resourceVersion, continueToken: undefined, remainingItemCount: undefined };
  const continueToken = encodeContinue({ rv: resourceVersion, namespace: last.namespace, name: last.name });
  return { records, resourceVersion, continueToken, remainingItemCount: filtered ? undefined : after.count - limit };
}
