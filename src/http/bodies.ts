/**
 * The JSON bodies of the inspection API (SPEC §6), built from an {@link InspectionView}. Pure and cheap: one small
 * object per CRD, no copies of anything the view does not already expose.
 */
import type { Dependency, SettingSource } from '../definition/types.js';
import type { CrdState } from '../observe/health.js';
import { formatDuration } from '../util/duration.js';
import type { ReconcilerInfo } from './reconciler-info.js';
import type { CrdView, Gvk, LeaderView } from './view.js';

/** One element of `crds` in `GET /katalog`. */
export interface CrdSummary {
  readonly name: string;
  readonly mode: 'dynamic' | 'typed';
  readonly gvk: Gvk;
  readonly workers: number;
  /** Go duration, `"0s"` when there is no periodic resync. */
  readonly resync: string;
  readonly healthy: boolean;
  readonly uptime: string;
  readonly endpoints: { readonly health: string; readonly info: string };
  readonly state: CrdState;
}

/** `GET /katalog`. */
export interface KatalogList {
  readonly total: number;
  readonly crds: readonly CrdSummary[];
  /** Present only with leader election. */
  readonly leader?: LeaderView;
}

/** A setting with the source it was resolved from (`{"value":2,"source":"definition"}`). */
export interface ValueWithSourceBody<T> {
  readonly value: T;
  readonly source: SettingSource;
}

/** `GET /katalog/{crd}`. */
export interface CrdDetail {
  readonly name: string;
  readonly mode: 'dynamic' | 'typed';
  readonly gvk: Gvk;
  readonly declaredVersion: string;
  readonly workers: ValueWithSourceBody<number>;
  readonly resync: ValueWithSourceBody<string>;
  /** The configured maximum, its source, and the keys queued now. */
  readonly queueDepth: ValueWithSourceBody<number> & { readonly current: number };
  readonly failureThreshold: ValueWithSourceBody<number>;
  readonly reconciler: ReconcilerInfo;
  readonly resourceCount: number;
  readonly healthy: boolean;
  readonly errorRate: number;
  readonly state: CrdState;
  readonly dependsOn: readonly Dependency[];
  readonly uptime: string;
  /** ISO 8601 UTC, or null before the first reconcile. */
  readonly lastReconcile: string | null;
  readonly consecutiveFails: number;
  /**
   * Keys given up after `queue.retryBackoff.maxAttempts` failures in a row (counted since start; ISO 8601 UTC of the
   * last, or null); present only when the CRD declares it. Names no object: the Warning Event on it does.
   */
  readonly retries?: { readonly maxAttempts: number; readonly exhausted: number; readonly lastExhausted: string | null };
}

/** The error body of every 4xx/5xx the router itself produces. */
export interface ErrorBody {
  readonly error: 'not_found' | 'method_not_allowed' | 'internal';
  readonly message: string;
  readonly status: 404 | 405 | 500;
}

/**
 * A summary; `mount` is the prefix the router is mounted under (`""` at the root, `"/ops"`, ...). `gvk` is copied
 * field by field, so nothing else a view hangs on its gvk object reaches the client.
 */
export function summaryOf(crd: CrdView, mount: string): CrdSummary {
  const { settings, health } = crd;
  const { group, version, kind } = crd.gvk;
  const state = health.state;
  const info = `${mount}/katalog/${crd.name}`;
  return {
    name: crd.name,
    mode: crd.mode,
    gvk: { group, version, kind },
    workers: settings.workers.value,
    resync: formatDuration(settings.resync.value),
    healthy: state === 'healthy',
    uptime: health.uptime,
    endpoints: { health: `${info}/health`, info },
    state,
  };
}

/**
 * The `GET /katalog` body, built from scratch. The router serves the same JSON text through `katalogListWriter()`
 * (katalog-list.ts), which reuses the summaries that did not change.
 */
export function listOf(crds: readonly CrdView[], mount: string, leader?: LeaderView): KatalogList {
  const summaries = new Array<CrdSummary>(crds.length);
  for (let i = 0; i < crds.length; i++) {
    const crd = crds[i];
    if (crd !== undefined) summaries[i] = summaryOf(crd, mount);
  }
  return leader === undefined ? { total: summaries.length, crds: summaries } : { total: summaries.length, crds: summaries, leader };
}

export function detailOf(crd: CrdView): CrdDetail {
  const { settings, health } = crd;
  const state = health.state;
  const { workers, resync, maxDepth, failureThreshold } = settings;
  return {
    name: crd.name,
    mode: crd.mode,
    gvk: crd.gvk,
    declaredVersion: crd.declaredVersion,
    workers: { value: workers.value, source: workers.source },
    resync: { value: formatDuration(resync.value), source: resync.source },
    queueDepth: { value: maxDepth.value, source: maxDepth.source, current: crd.queueDepth },
    failureThreshold: { value: failureThreshold.value, source: failureThreshold.source },
    reconciler: crd.reconciler(),
    resourceCount: crd.resourceCount,
    healthy: state === 'healthy',
    errorRate: health.errorRate,
    state,
    dependsOn: crd.dependsOn.map((d) => ({ name: d.name, condition: d.condition })),
    uptime: health.uptime,
    lastReconcile: health.lastReconcile?.toISOString() ?? null,
    consecutiveFails: health.consecutiveFails,
    ...(crd.retries === undefined ? {} : { retries: retriesOf(crd.retries) }),
  };
}

function retriesOf(retries: NonNullable<CrdView['retries']>): NonNullable<CrdDetail['retries']> {
  const last = retries.lastExhaustedAt;
  return { maxAttempts: retries.maxAttempts, exhausted: retries.exhausted, lastExhausted: last === undefined ? null : new Date(last).toISOString() };
}

/** Longest piece of the request (a name, a path, a method) echoed in an error message. */
const MAX_ECHO = 100;

/** Cuts what the client sent before it goes into a message. */
export function echo(text: string): string {
  return text.length <= MAX_ECHO ? text : `${text.slice(0, MAX_ECHO)}…`;
}

export function crdNotFound(name: string): ErrorBody {
  return { error: 'not_found', message: `no CRD named "${echo(name)}" in this katalog`, status: 404 };
}

export function pathNotFound(path: string): ErrorBody {
  return { error: 'not_found', message: `no inspection endpoint at ${echo(path)}`, status: 404 };
}

export function methodNotAllowed(method: string, path: string): ErrorBody {
  return { error: 'method_not_allowed', message: `method ${echo(method)} is not allowed on ${echo(path)}; use GET or HEAD`, status: 405 };
}

export function internalError(method: string, path: string): ErrorBody {
  return { error: 'internal', message: `the inspection API failed to answer ${echo(method)} ${echo(path)}`, status: 500 };
}
