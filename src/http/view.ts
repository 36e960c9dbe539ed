/**
 * What the inspection router reads, and nothing more: plain getters over the runtime's live state. The router
 * depends only on {@link InspectionView}, so tests drive every state with a fake; {@link inspectionViewOf} adapts
 * a {@link Runtime}. The view hands out no object contents (no custom resource, no Secret, no spec), only names,
 * counters, settings and health, which is how the API keeps its promise never to echo them.
 */
import type { Dependency, SettingSource } from '../definition/types.js';
import type { CrdState, HealthRecordResponse } from '../observe/health.js';
import { readiness, type LivenessResponse, type ReadinessResponse } from '../observe/runtime-health.js';
import type { CrdSlot } from '../runtime/crd-slot.js';
import type { Runtime } from '../runtime/runtime.js';
import { reconcilerInfo, type ReconcilerInfo } from './reconciler-info.js';

/** A group/version/kind. */
export interface Gvk {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** A resolved setting and where it came from (SPEC §5). */
export interface SourcedSetting {
  readonly value: number;
  readonly source: SettingSource;
}

/** The four resolved settings of a CRD; `resync` in milliseconds (0 = no periodic resync). */
export interface CrdSettingsView {
  readonly workers: SourcedSetting;
  readonly resync: SourcedSetting;
  readonly maxDepth: SourcedSetting;
  readonly failureThreshold: SourcedSetting;
}

/** Live health of a CRD; `CrdHealth` of observe/health.ts satisfies it as is. */
export interface CrdHealthView {
  readonly state: CrdState;
  /** Whole seconds since the CRD started, as a Go duration; `"0s"` when not started. */
  readonly uptime: string;
  readonly errorRate: number;
  readonly consecutiveFails: number;
  readonly lastReconcile: Date | null;
  /** The `/katalog/{crd}/health` body and its HTTP status. */
  healthRecord(): HealthRecordResponse;
}

/** One managed (enabled) CRD. Getters are read per request and must be cheap and must not throw. */
export interface CrdView {
  readonly name: string;
  readonly mode: 'dynamic' | 'typed';
  /** At the internal version while active; at the declared version while pending. */
  readonly gvk: Gvk;
  /** The version written in the definition's `apiTypes`. */
  readonly declaredVersion: string;
  readonly settings: CrdSettingsView;
  /** Keys in the work queue now; 0 while not active. */
  readonly queueDepth: number;
  /** Objects in the informer cache; 0 while not active. */
  readonly resourceCount: number;
  readonly dependsOn: readonly Dependency[];
  readonly health: CrdHealthView;
  /** Give-ups after `queue.retryBackoff.maxAttempts` (read live); absent when the CRD does not declare it. */
  readonly retries?: { readonly maxAttempts: number; readonly exhausted: number; readonly lastExhaustedAt: number | undefined };
  /** Hooks, constructor, finalizers and templates (detail endpoint only, so it may cost a little more). */
  reconciler(): ReconcilerInfo;
}

/** The runtime's metrics in the Prometheus text format, and the content type to serve them with. */
export interface MetricsText {
  readonly contentType: string;
  readonly text: string;
}

/** Everything the inspection router reads. Implementations must not throw; `metrics()` may reject. */
export interface InspectionView {
  /** The `/health` answer. */
  liveness(): LivenessResponse;
  /** The `/ready` answer. */
  readiness(): ReadinessResponse;
  metrics(): Promise<MetricsText>;
  /** Every managed CRD, in start (dependency) order. Disabled CRDs are not managed and never appear. */
  crds(): readonly CrdView[];
  /** The managed CRD of that name, or `undefined` (unknown or disabled). */
  crd(name: string): CrdView | undefined;
  /** Leader election as `/katalog` reports it; absent or `undefined` without leader election. */
  leader?(): LeaderView | undefined;
}

/** This replica's place in leader election. */
export interface LeaderView {
  readonly identity: string;
  /** Whether this replica holds the Lease and runs workers. */
  readonly leading: boolean;
  /** The identity the Lease last named, as this replica saw it. */
  readonly holder: string | undefined;
  /** `namespace/name` of the Lease. */
  readonly lease: string;
  readonly shard?: { readonly index: number; readonly count: number };
}

/**
 * The view of a runtime. CRD views are built once per slot and read the slot live, so a request allocates only
 * what it serves.
 */
export function inspectionViewOf(runtime: Runtime): InspectionView {
  // Keyed by the slot object, so a view always reads the slot it was made for.
  const views = new WeakMap<CrdSlot, CrdView>();
  const viewOf = (slot: CrdSlot): CrdView => {
    let view = views.get(slot);
    if (view === undefined) {
      view = crdViewOf(slot, runtime.modeOf(slot.crd.name), () => reconcilerInfo(slot.crd, runtime.codeOf(slot.crd.name)));
      views.set(slot, view);
    }
    return view;
  };
  return {
    liveness: () => runtime.health.liveness(),
    readiness: () => {
      const state = runtime.state;
      return readiness({
        started: runtime.started,
        stopping: state === 'stopping',
        stopped: state === 'stopped',
        crds: runtime.slotList().map((slot) => ({
          name: slot.crd.name,
          state: slot.health.state,
          synced: slot.activated?.controller.synced ?? false,
          ...(slot.crd.critical === true ? { critical: true } : {}),
        })),
        leader: runtime.leaderInfo() === undefined ? undefined : runtime.leader,
      });
    },
    leader: () => {
      const info = runtime.leaderInfo();
      if (info === undefined) return undefined;
      return { identity: info.identity, leading: info.leader, holder: info.holder, lease: info.lease, ...(info.shard === undefined ? {} : { shard: info.shard }) };
    },
    metrics: async () => {
      const registry = runtime.metrics.registry;
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
    crds: () => runtime.slotList().map(viewOf),
    crd: (name) => {
      const slot = runtime.slot(name);
      return slot === undefined ? undefined : viewOf(slot);
    },
  };
}

/**
 * A live view of one slot. `gvk` is the same frozen object from one read to the next while the slot's target does
 * not change (the declared one while pending, the internal version's while active), so a request derives nothing.
 */
function crdViewOf(slot: CrdSlot, mode: 'dynamic' | 'typed', reconciler: () => ReconcilerInfo): CrdView {
  const { crd } = slot;
  const declared: Gvk = Object.freeze({ group: crd.apiTypes.group, version: crd.apiTypes.version, kind: crd.apiTypes.kind });
  let active: { readonly of: object; readonly gvk: Gvk } | undefined;
  return {
    name: crd.name,
    mode,
    get gvk(): Gvk {
      const resource = slot.activated?.target.resource;
      if (resource === undefined) return declared;
      if (active?.of !== resource) active = { of: resource, gvk: Object.freeze({ group: resource.group, version: resource.version, kind: resource.kind }) };
      return active.gvk;
    },
    declaredVersion: crd.apiTypes.version,
    settings: slot.settings,
    get queueDepth(): number {
      return slot.activated?.controller.queueDepth ?? 0;
    },
    get resourceCount(): number {
      return slot.activated?.controller.resourceCount ?? 0;
    },
    dependsOn: crd.dependsOn,
    health: slot.health,
    ...(slot.retries === undefined ? {} : { retries: slot.retries }),
    reconciler,
  };
}
