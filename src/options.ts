/**
 * Everything a host can pass to `createRuntime`, and the one function that resolves defaults. Nothing in the
 * library reads the process environment, installs signal handlers, uses prom-client's global registry or opens a port by
 * itself: all of it comes through here.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Registry } from 'prom-client';
import { RuntimeError, TemplateError } from './errors.js';
import { DEFAULT_MAX_CONCURRENT_RECONCILES } from './controller/reconcile-slots.js';
import type { InformerTuning } from './kube/informer.js';
import type { Logger } from './observe/logger.js';
import { silentLogger } from './observe/logger.js';
import type { ConstructorFactory, Hooks } from './operatorbox/types.js';
import type { ExternalProtocolClient } from './operatorbox/external-protocol.js';
import { ExternalProtocols } from './operatorbox/external-protocols.js';
import { checkLeaderElection, type LeaderElectionOptions, type ResolvedLeaderElection } from './runtime/leader-options.js';
import type { CrdSettingsInput } from './runtime/settings.js';
import { shardProblems, type ShardOptions } from './runtime/sharding.js';
import { resolveNotificationOptions, type NotificationOptions, type ResolvedNotificationOptions } from './runtime/notifier-options.js';
import { conversionWebhookSpec, type ConversionWebhookOptions } from './runtime/crd-conversion.js';
import { DEFAULT_TEMPLATE_LIMITS, type TemplateLimits } from './template/index.js';
import { resolveLimits } from './template/limits.js';
import { systemClock, type Clock } from './util/clock.js';
import { parseDuration } from './util/duration.js';

/** A duration: milliseconds, or a Go duration string (`"30s"`). */
export type DurationInput = number | string;

/** Per-CRD overrides in code: settings (source `override`) and code registered for that CRD alone. */
export interface CrdOverride extends CrdSettingsInput {
  /** Hooks for this CRD, whatever the definition names. */
  readonly hooks?: Hooks;
  /**
   * A constructor for this CRD, whatever the definition names (the CRD must declare `operatorBox.default: false`).
   * Named `reconcilerFactory` because every object already has a `constructor`.
   */
  readonly reconcilerFactory?: ConstructorFactory;
}

export interface RuntimeOptions {
  /** The cluster. Default: `new KubeConfig()` loaded with `loadFromDefault()`. */
  readonly kubeConfig?: KubeConfig;
  /** Hook sets by the name the definition references (`hooks: { function: WebsiteHooks }`). */
  readonly hooks?: Readonly<Record<string, Hooks>>;
  /** Constructors by the name the definition references (`constructor: { function: NewX }`). */
  readonly constructors?: Readonly<Record<string, ConstructorFactory>>;
  /** Per-CRD overrides (highest precedence, source `override`). */
  readonly crds?: Readonly<Record<string, CrdOverride>>;
  /** Settings for every CRD, below the definition (source `options`). */
  readonly defaults?: CrdSettingsInput;
  /** Where `KATALOG_*` settings are read from (source `env`); pass the process environment to opt in. Never read otherwise. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The prom-client registry to register metrics on. Default: a registry of the runtime's own. */
  readonly registry?: Registry;
  /** Prepended to every metric name. */
  readonly metricsPrefix?: string;
  readonly logger?: Logger;
  /** Time source (tests). */
  readonly clock?: Clock;
  /** Apply each CRD's `crdFile` at start (development and tests). Default false. */
  readonly installCrds?: boolean;
  /**
   * With `installCrds`: where the conversion router is served; CRDs whose entries declare `conversion` are installed
   * with `spec.conversion` pointing at it (docs/admission.md#conversion-webhook).
   */
  readonly conversionWebhook?: ConversionWebhookOptions;
  /** How long `stop()` waits for in-flight reconciles before aborting them. Default 30s. */
  readonly drainTimeout?: DurationInput;
  /**
   * Reconciles in flight at once across every CRD (each CRD's `workers` still apply). A worker that took a key
   * waits for a free slot, first come first served. Default 64; `Infinity` for no limit. See docs/scaling.md.
   */
  readonly maxConcurrentReconciles?: number;
  /** Time-out of one reconcile (its AbortSignal fires then). Default 5m. */
  readonly reconcileTimeout?: DurationInput;
  /** Per-key backoff and global token bucket of the requeue rate limiter. */
  readonly rateLimiter?: {
    readonly baseDelay?: DurationInput;
    readonly maxDelay?: DurationInput;
    readonly qps?: number;
    readonly burst?: number;
  };
  /**
   * Client-side rate limit of the runtime's API requests (watches excepted). Off by default, as in
   * controller-runtime since v0.15: the API server's priority and fairness is the better throttle.
   */
  readonly clientRateLimit?: { readonly qps: number; readonly burst: number };
  /** Field manager of server-side apply. Default `katalog`. */
  readonly fieldManager?: string;
  /** Server-side apply with `force: true` (take fields from other managers). Default true. */
  readonly forceApply?: boolean;
  /**
   * Run several replicas safely: campaign for a `coordination.k8s.io/v1` Lease; only the leader runs workers, every
   * replica keeps warm caches and serves the inspection API (docs/scaling.md).
   */
  readonly leaderElection?: LeaderElectionOptions;
  /** Reconcile only the keys that hash to this shard (one Lease per shard with leader election). */
  readonly shard?: ShardOptions;
  /**
   * Bounds on one template render, over the defaults (docs/templates.md#limits): `maxOutputBytes`,
   * `maxRangeIterations`, `maxDepth`, `maxSteps`, `maxRenderMs` (wall-clock time, default 250 ms). A render
   * over a limit fails the reconcile (`Ready=False`, requeued with backoff).
   */
  readonly templateLimits?: Partial<TemplateLimits>;
  /**
   * Delivery of the definition's notifications (docs/notifications.md): the Slack webhook for teams whose document
   * names none or an environment reference, a sink of the host's own instead of Slack, queue size, deadline, retries.
   */
  readonly notifications?: NotificationOptions;
  /**
   * Clients of the external calls' stateful protocols, by protocol: `redis`, `postgres`, `mongo`, `kafka`
   * (docs/orkestra-compatibility.md#external-protocol-clients). Each replaces katalog's built-in client of that
   * protocol (`redis` and `postgres` have one); `mongo` and `kafka` have none, so a definition with such calls needs one here, or
   * `createRuntime` throws naming the call. `runtime.stop()` calls each client's `close()`.
   */
  readonly externalProtocols?: Readonly<Record<string, ExternalProtocolClient>>;
  /** Watch tuning; the defaults suit real clusters. */
  readonly watch?: {
    /** Server-side time-out of each watch request; default 5m (randomised up to twice that). */
    readonly timeout?: DurationInput;
    /** A watch silent this long is reopened; default 2.5 × timeout. */
    readonly idleTimeout?: DurationInput;
    /** Backoff of watch and list retries. */
    readonly backoff?: { readonly initial?: DurationInput; readonly max?: DurationInput };
    /**
     * Fill each cache from a streaming list (a watch with `sendInitialEvents`, client-go's watch-list) rather than
     * a paged list: one request instead of two, served from the API server's watch cache. A server without the
     * WatchList feature refuses it and is listed as before. Default false (docs/reliability.md, "Streaming lists").
     */
    readonly streamingLists?: boolean;
  };
}

/** Options with every default filled in and every duration in milliseconds. */
export interface ResolvedOptions {
  readonly kubeConfig: KubeConfig | undefined;
  readonly hooks: ReadonlyMap<string, Hooks>;
  readonly constructors: ReadonlyMap<string, ConstructorFactory>;
  readonly crds: Readonly<Record<string, CrdOverride>>;
  readonly defaults: CrdSettingsInput;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly registry: Registry | undefined;
  readonly metricsPrefix: string;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly installCrds: boolean;
  readonly conversionWebhook: ConversionWebhookOptions | undefined;
  readonly drainTimeoutMs: number;
  readonly reconcileTimeoutMs: number;
  /** A positive integer or `Infinity`. */
  readonly maxConcurrentReconciles: number;
  readonly rateLimiter: { baseDelayMs?: number; maxDelayMs?: number; qps?: number; burst?: number };
  readonly fieldManager: string;
  readonly forceApply: boolean;
  readonly clientRateLimit: { readonly qps: number; readonly burst: number } | undefined;
  readonly watch: InformerTuning;
  readonly leaderElection: ResolvedLeaderElection | undefined;
  readonly shard: ShardOptions | undefined;
  /** Every limit filled in. */
  readonly templateLimits: TemplateLimits;
  readonly notifications: ResolvedNotificationOptions;
  /** The host's protocol clients over the built-ins (closed by the runtime's stop). */
  readonly externalProtocols: ExternalProtocols;
}

/** Resolves defaults; throws a `RuntimeError` naming every invalid option at once. */
export function resolveOptions(options: RuntimeOptions = {}): ResolvedOptions {
  const problems: string[] = [];
  const duration = (name: string, value: DurationInput | undefined, fallback?: number): number | undefined => {
    if (value === undefined) return fallback;
    const ms = typeof value === 'number' ? value : parseDuration(value);
    if (ms === undefined || !Number.isFinite(ms) || ms < 0) {
      problems.push(`${name}: ${JSON.stringify(value)} is not a duration (milliseconds or a string such as "30s")`);
      return fallback;
    }
    return ms;
  };
  const drainTimeoutMs = duration('drainTimeout', options.drainTimeout, 30_000) ?? 30_000;
  const reconcileTimeoutMs = duration('reconcileTimeout', options.reconcileTimeout, 300_000) ?? 300_000;
  const rateLimiter: ResolvedOptions['rateLimiter'] = {};
  const base = duration('rateLimiter.baseDelay', options.rateLimiter?.baseDelay);
  const max = duration('rateLimiter.maxDelay', options.rateLimiter?.maxDelay);
  if (base !== undefined) rateLimiter.baseDelayMs = base;
  if (max !== undefined) rateLimiter.maxDelayMs = max;
  if (options.rateLimiter?.qps !== undefined) rateLimiter.qps = options.rateLimiter.qps;
  if (options.rateLimiter?.burst !== undefined) rateLimiter.burst = options.rateLimiter.burst;
  const watch: { -readonly [K in keyof InformerTuning]: InformerTuning[K] } = {};
  const watchTimeout = duration('watch.timeout', options.watch?.timeout);
  const idle = duration('watch.idleTimeout', options.watch?.idleTimeout);
  const initial = duration('watch.backoff.initial', options.watch?.backoff?.initial);
  const maxBackoff = duration('watch.backoff.max', options.watch?.backoff?.max);
  if (watchTimeout !== undefined) watch.watchTimeoutSeconds = Math.max(1, Math.round(watchTimeout / 1000));
  if (idle !== undefined) watch.idleTimeoutMs = idle;
  const streamingLists = options.watch?.streamingLists;
  if (streamingLists !== undefined && typeof streamingLists !== 'boolean') problems.push(`watch.streamingLists: must be true or false, got ${JSON.stringify(streamingLists)}`);
  else if (streamingLists !== undefined) watch.streamingLists = streamingLists;
  if (initial !== undefined || maxBackoff !== undefined) {
    watch.backoff = { ...(initial === undefined ? {} : { initialMs: initial }), ...(maxBackoff === undefined ? {} : { maxMs: maxBackoff }) };
  }
  const maxConcurrentReconciles = options.maxConcurrentReconciles ?? DEFAULT_MAX_CONCURRENT_RECONCILES;
  if (!(maxConcurrentReconciles === Infinity || (Number.isInteger(maxConcurrentReconciles) && maxConcurrentReconciles >= 1))) {
    problems.push(`maxConcurrentReconciles: must be an integer >= 1 or Infinity, got ${JSON.stringify(options.maxConcurrentReconciles)}`);
  }
  const fieldManager = options.fieldManager ?? 'katalog';
  if (fieldManager === '' || fieldManager.length > 128) problems.push(`fieldManager: must be 1 to 128 characters, got ${JSON.stringify(fieldManager)}`);
  if (options.conversionWebhook !== undefined) {
    try {
      conversionWebhookSpec(options.conversionWebhook);
    } catch (error) {
      problems.push(`conversionWebhook: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const limit = options.clientRateLimit;
  if (limit !== undefined && (!(limit.qps > 0) || !Number.isInteger(limit.burst) || limit.burst < 1)) {
    problems.push(`clientRateLimit: qps must be > 0 and burst an integer >= 1, got ${JSON.stringify(limit)}`);
  }
  let leaderElection: ResolvedLeaderElection | undefined;
  if (options.leaderElection !== undefined) {
    const checked = checkLeaderElection(options.leaderElection, options.shard);
    problems.push(...checked.problems);
    leaderElection = checked.resolved;
  } else if (options.shard !== undefined) {
    problems.push(...shardProblems(options.shard));
  }
  let templateLimits: TemplateLimits = { ...DEFAULT_TEMPLATE_LIMITS };
  try {
    templateLimits = resolveLimits(options.templateLimits, undefined);
  } catch (error) {
    problems.push(`templateLimits: ${error instanceof TemplateError ? error.reason : String(error)}`);
  }
  let notifications = resolveNotificationOptions(undefined);
  try {
    notifications = resolveNotificationOptions(options.notifications);
  } catch (error) {
    problems.push(error instanceof RuntimeError ? error.message : String(error));
  }
  const protocols = ExternalProtocols.of(options.externalProtocols, 'externalProtocols');
  problems.push(...protocols.problems);
  if (problems.length > 0) throw new RuntimeError('E_OPTIONS', `invalid runtime options:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return {
    kubeConfig: options.kubeConfig,
    hooks: new Map(Object.entries(options.hooks ?? {})),
    constructors: new Map(Object.entries(options.constructors ?? {})),
    crds: options.crds ?? {},
    defaults: options.defaults ?? {},
    env: options.env ?? {},
    registry: options.registry,
    metricsPrefix: options.metricsPrefix ?? '',
    logger: options.logger ?? silentLogger,
    clock: options.clock ?? systemClock,
    installCrds: options.installCrds ?? false,
    conversionWebhook: options.conversionWebhook,
    drainTimeoutMs,
    reconcileTimeoutMs,
    maxConcurrentReconciles,
    rateLimiter,
    fieldManager,
    forceApply: options.forceApply ?? true,
    clientRateLimit: limit,
    watch,
    leaderElection,
    shard: options.shard,
    templateLimits,
    notifications,
    externalProtocols: protocols.protocols,
  };
}
