// A fake InspectionView for the router's contract tests: real CrdHealth and RuntimeHealth on a clock the test
// sets by hand, so every body is deterministic.
import type { Dependency } from '../../src/definition/types.js';
import type { ReconcilerInfo } from '../../src/http/reconciler-info.js';
import type { CrdSettingsView, CrdView, Gvk, InspectionView, MetricsText } from '../../src/http/view.js';
import { CrdHealth } from '../../src/observe/health.js';
import { readiness, RuntimeHealth, type LivenessResponse, type ReadinessResponse } from '../../src/observe/runtime-health.js';
import type { Clock, TimerHandle } from '../../src/util/clock.js';

/** 2026-01-01T00:00:00.000Z */
export const T0 = Date.UTC(2026, 0, 1);

/** A clock that moves only when told; no timers are needed by what it drives. */
export class ManualClock implements Clock {
  constructor(public current = T0) {}
  now(): number {
    return this.current;
  }
  setTimeout(): TimerHandle {
    throw new Error('ManualClock has no timers');
  }
  clearTimeout(): void {}
  /** Moves time forward by `ms`. */
  tick(ms: number): void {
    this.current += ms;
  }
}

export const DEFAULT_SETTINGS: CrdSettingsView = {
  workers: { value: 2, source: 'default' },
  resync: { value: 600_000, source: 'default' },
  maxDepth: { value: 1000, source: 'default' },
  failureThreshold: { value: 5, source: 'default' },
};

export const GENERIC_RECONCILER: ReconcilerInfo = {
  type: 'generic',
  hooks: { configured: false, source: null, function: null },
  constructor: { configured: false, source: null, function: null },
  finalizers: { values: ['katalog.dev/cleanup'], source: 'code' },
  templates: {},
};

export interface FakeCrdInput {
  name: string;
  clock: Clock;
  mode?: 'dynamic' | 'typed';
  gvk?: Gvk;
  declaredVersion?: string;
  settings?: CrdSettingsView;
  queueDepth?: number;
  resourceCount?: number;
  dependsOn?: readonly Dependency[];
  reconciler?: ReconcilerInfo;
  /** Informer cache synced (readiness); default true. */
  synced?: boolean;
}

export interface FakeCrd extends CrdView {
  readonly health: CrdHealth;
  synced: boolean;
}

export function fakeCrd(input: FakeCrdInput): FakeCrd {
  const gvk = input.gvk ?? { group: 'example.io', version: 'v1', kind: 'Thing' };
  const settings = input.settings ?? DEFAULT_SETTINGS;
  return {
    name: input.name,
    mode: input.mode ?? 'dynamic',
    gvk,
    declaredVersion: input.declaredVersion ?? gvk.version,
    settings,
    queueDepth: input.queueDepth ?? 0,
    resourceCount: input.resourceCount ?? 0,
    dependsOn: input.dependsOn ?? [],
    health: new CrdHealth({ name: input.name, failureThreshold: settings.failureThreshold.value, clock: input.clock, pendingReason: 'not started' }),
    reconciler: () => input.reconciler ?? GENERIC_RECONCILER,
    synced: input.synced ?? true,
  };
}

/** The view: a runtime lifecycle, a list of CRDs (disabled ones are simply not in it) and a metrics text. */
export class FakeView implements InspectionView {
  readonly runtime: RuntimeHealth;
  started = false;
  readonly crdList: FakeCrd[] = [];
  metricsText: MetricsText = { contentType: 'text/plain; version=0.0.4; charset=utf-8', text: '# HELP up 1\n' };
  /** Counts calls per method, to show which paths reach the view. */
  readonly calls = { crd: 0, crds: 0 };

  constructor(readonly clock: Clock) {
    this.runtime = new RuntimeHealth(clock);
  }

  add(...crds: FakeCrd[]): this {
    this.crdList.push(...crds);
    return this;
  }

  liveness(): LivenessResponse {
    return this.runtime.liveness();
  }

  readiness(): ReadinessResponse {
    const status = this.runtime.status;
    return readiness({
      started: this.started,
      stopping: status === 'stopping' || status === 'stopped',
      crds: this.crdList.map((crd) => ({ name: crd.name, state: crd.health.state, synced: crd.synced })),
    });
  }

  metrics(): Promise<MetricsText> {
    return Promise.resolve(this.metricsText);
  }

  crds(): readonly CrdView[] {
    this.calls.crds++;
    return this.crdList;
  }

  crd(name: string): CrdView | undefined {
    this.calls.crd++;
    return this.crdList.find((crd) => crd.name === name);
  }
}

/**
 * The standard scene: `website` healthy for 5m3s with one success, `database` degraded after 5 failures,
 * `cache` pending on its CRD. Clock at T0 + 5m3s when it returns.
 */
export function scene(): { clock: ManualClock; view: FakeView; website: FakeCrd; database: FakeCrd; cache: FakeCrd } {
  const clock = new ManualClock();
  const view = new FakeView(clock);
  view.runtime.markStarting();
  const website = fakeCrd({
    name: 'website',
    clock,
    gvk: { group: 'example.io', version: 'v1', kind: 'Website' },
    declaredVersion: 'v1alpha1',
    settings: {
      workers: { value: 3, source: 'definition' },
      resync: { value: 90_000, source: 'definition' },
      maxDepth: { value: 500, source: 'options' },
      failureThreshold: { value: 5, source: 'env' },
    },
    queueDepth: 4,
    resourceCount: 12,
    dependsOn: [{ name: 'database', condition: 'healthy' }],
    reconciler: {
      type: 'generic',
      hooks: { configured: true, source: 'yaml', function: 'WebsiteHooks' },
      constructor: { configured: false, source: null, function: null },
      finalizers: { values: ['katalog.dev/cleanup', 'example.io/audit'], source: 'yaml' },
      templates: { onCreate: { deployments: 1, services: 1 }, onReconcile: { configMaps: 2 } },
    },
  });
  const database = fakeCrd({ name: 'database', clock, gvk: { group: 'example.io', version: 'v1', kind: 'Database' } });
  const cache = fakeCrd({ name: 'cache', clock, mode: 'typed', gvk: { group: 'example.io', version: 'v1beta1', kind: 'Cache' }, synced: false });
  website.health.markStarted();
  database.health.markStarted();
  cache.health.markPending('waiting for CRD caches.example.io to be installed');
  view.add(database, website, cache);
  view.runtime.markRunning();
  view.started = true;
  clock.tick(60_000);
  for (let i = 0; i < 5; i++) database.health.recordFailure(new Error('failed to apply Deployment default/db-1: forbidden'));
  clock.tick(242_900);
  website.health.recordSuccess();
  clock.tick(100);
  return { clock, view, website, database, cache };
}
