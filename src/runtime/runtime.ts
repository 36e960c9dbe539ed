/**
 * The controller manager: starts CRDs in dependency order, activates late CRDs when they appear, deactivates
 * deleted ones, and stops everything in reverse order. Everything it owns has `start()` / `stop()`, and it stops
 * them in reverse (DESIGN.md habit 1).
 */
import { KubeConfig } from '@kubernetes/client-node';
import type { Hono } from 'hono';
import type { TSchema } from 'typebox';
import type { Registry } from 'prom-client';
import type { Controller } from '../controller/controller.js';
import { CrdWatcher } from '../controller/crd-watcher.js';
import { ReconcileSlots } from '../controller/reconcile-slots.js';
import type { Definition } from '../definition/types.js';
import { RuntimeError, toError } from '../errors.js';
import { KubeClient } from '../kube/client.js';
import { LifecycleEmitter, type LifecycleEvents, type Listener } from '../observe/events.js';
import { CrdHealth } from '../observe/health.js';
import type { Logger } from '../observe/logger.js';
import { createMetrics, type Metrics } from '../observe/metrics.js';
import { notifierFor } from './notifier-wiring.js';
import { RuntimeHealth } from '../observe/runtime-health.js';
import type { ConstructorFactory, Hooks } from '../operatorbox/types.js';
import type { ResolvedOptions } from '../options.js';
import { CodeRegistry } from './code-registry.js';
import { CrdLifecycle } from './crd-lifecycle.js';
import type { CrdSlot } from './crd-slot.js';
import { ConverterRegistry, type Converter } from '../operatorbox/converters.js';
import type { KindBuilder } from '../registry/kind-builder.js';
import { KindTable } from '../registry/kind-table.js';
import { RenderScheduler } from '../operatorbox/render-scheduler.js';
import { installCrdFiles } from './install-crds.js';
import { Leadership, type LeaderInfo } from './leadership.js';
import type { CrdStatus, HttpSurface, ListenOptions, ServerHandle } from './surface.js';
import { resolveAllSettings } from './settings.js';
import { drainControllers } from './drain.js';

export type RuntimeState = 'created' | 'starting' | 'running' | 'stopping' | 'stopped';

export class Runtime {
  readonly definition: Definition;
  readonly metrics: Metrics;
  readonly health: RuntimeHealth;
  private readonly options: ResolvedOptions;
  private readonly logger: Logger;
  private readonly events: LifecycleEmitter;
  private readonly code = new CodeRegistry();
  private readonly kinds = new KindTable();
  /** Takes turns between the template renders of every CRD (fairness under expensive templates). */
  private readonly renders = new RenderScheduler();
  /** The limit of reconciles in flight across every CRD (`maxConcurrentReconciles`). */
  private readonly reconcileSlots: ReconcileSlots;
  private readonly converters = new ConverterRegistry();
  private readonly schemas = new Map<string, TSchema>();
  private readonly slots = new Map<string, CrdSlot>();
  private current: RuntimeState = 'created';
  private kube: { client: KubeClient; kubeConfig: KubeConfig } | undefined;
  private crdWatcher: CrdWatcher | undefined;
  private stopping: Promise<void> | undefined;
  private startResolved = false;
  private readonly leadership: Leadership;
  private readonly lifecycle: CrdLifecycle;
  private readonly notifier: ReturnType<typeof notifierFor>;

  private readonly httpFactory: ((runtime: Runtime) => HttpSurface) | undefined;
  private http: HttpSurface | undefined;

  constructor(definition: Definition, options: ResolvedOptions, http?: (runtime: Runtime) => HttpSurface) {
    this.definition = definition;
    this.httpFactory = http;
    this.options = options;
    this.reconcileSlots = new ReconcileSlots(options.maxConcurrentReconciles);
    this.logger = options.logger;
    this.events = new LifecycleEmitter({ logger: options.logger });
    this.health = new RuntimeHealth(options.clock);
    for (const [name, hooks] of options.hooks) this.code.registerHooks(name, hooks);
    for (const [name, factory] of options.constructors) this.code.registerConstructor(name, factory);
    const enabled = definition.order.map((name) => definition.crds.get(name)).filter((crd) => crd !== undefined);
    const overrides: Record<string, { workers?: number; resync?: number | string; maxDepth?: number; failureThreshold?: number }> = {};
    for (const [name, override] of Object.entries(options.crds)) {
      if (override.hooks !== undefined) this.code.registerCrdHooks(name, override.hooks);
      if (override.reconcilerFactory !== undefined) this.code.registerCrdConstructor(name, override.reconcilerFactory);
      const { workers, resync, maxDepth, failureThreshold } = override;
      overrides[name] = { ...defined({ workers, resync, maxDepth, failureThreshold }) };
    }
    const settings = resolveAllSettings(definition.crds.values(), { crds: overrides, defaults: options.defaults, env: options.env });
    this.metrics = createMetrics({
      ...(options.registry === undefined ? {} : { registry: options.registry }),
      prefix: options.metricsPrefix,
    });
    this.notifier = notifierFor(definition, options, this.metrics.registry, () => this.kube?.client);
    for (const crd of enabled) {
      const resolved = settings.get(crd.name);
      if (resolved === undefined) continue;
      const { apiTypes } = crd;
      this.slots.set(crd.name, {
        crd,
        settings: resolved,
        health: new CrdHealth({
          name: crd.name,
          failureThreshold: resolved.failureThreshold.value,
          clock: options.clock,
          pendingReason: 'runtime not started',
        }),
        crdObjectName: apiTypes.builtIn ? undefined : `${apiTypes.plural}.${apiTypes.group}`,
        phase: 'waiting',
        activated: undefined,
        appearedAt: undefined,
        recheck: false,
        retryTimer: undefined,
        failedActivations: 0,
        ...(crd.retryBackoff?.maxAttempts === undefined ? {} : { retries: { maxAttempts: crd.retryBackoff.maxAttempts, exhausted: 0, lastExhaustedAt: undefined } }),
      });
    }
    this.leadership = new Leadership({
      election: options.leaderElection,
      clock: options.clock,
      logger: this.logger,
      metrics: this.metrics,
      events: this.events,
      controllers: () => this.activeControllers(),
      stopping: () => this.current === 'stopping' || this.current === 'stopped',
    });
    this.lifecycle = new CrdLifecycle({
      slots: this.slots,
      options,
      metrics: this.metrics,
      events: this.events,
      logger: this.logger,
      accepting: () => this.current === 'starting' || this.current === 'running',
      leading: () => this.leadership.leader,
      installed: (crdObjectName) => this.crdWatcher?.get(crdObjectName),
      activationInput: (slot) => {
        if (this.kube === undefined) throw new RuntimeError('E_STATE', 'the runtime has no client before start()');
        return {
          crd: slot.crd,
          settings: slot.settings,
          code: this.code.resolve(slot.crd),
          client: this.kube.client,
          kubeConfig: this.kube.kubeConfig,
          options,
          logger: this.logger.child({ crd: slot.crd.name }),
          metrics: this.metrics,
          kinds: this.kinds,
          converters: this.converters,
          schema: this.schemas.get(slot.crd.name),
          renders: this.renders,
          slots: this.reconcileSlots, notifier: this.notifier,
        };
      },
    });
  }

  /** The prom-client registry the runtime's metrics live on. */
  get registry(): Registry {
    return this.metrics.registry;
  }

  get state(): RuntimeState {
    return this.current;
  }

  /**
   * The inspection API as a Hono sub-app with the six routes of SPEC §6; mount it with `app.route('/ops', runtime.router)`.
   * It reads the runtime's state and never writes.
   */
  get router(): Hono {
    return this.httpSurface().router;
  }

  /** Serves the inspection API on its own port (through `@hono/node-server`); `close()` the handle to stop it. */
  listen(options?: ListenOptions): Promise<ServerHandle> {
    return this.httpSurface().listen(options);
  }

  /** True when this replica runs workers: always without leader election, else while it holds the Lease. */
  get leader(): boolean {
    return this.leadership.leader;
  }

  /** Leader election as the inspection API reports it; undefined without leader election. */
  leaderInfo(): LeaderInfo | undefined {
    return this.leadership.info();
  }

  /** The enabled CRDs in start order, with their state. */
  crds(): CrdStatus[] {
    return [...this.slots.values()].map((slot) => {
      const controller = slot.activated?.controller;
      return {
        name: slot.crd.name,
        state: slot.health.state,
        pendingReason: slot.health.pendingReason,
        version: slot.activated?.target.resource.version ?? slot.crd.apiTypes.version,
        resourceCount: controller?.resourceCount ?? 0,
        queueDepth: controller?.queueDepth ?? 0,
        consecutiveFails: slot.health.consecutiveFails,
        errorRate: slot.health.errorRate,
        lastReconcile: slot.health.lastReconcile,
      };
    });
  }

  private httpSurface(): HttpSurface {
    if (this.http === undefined) {
      if (this.httpFactory === undefined) throw new RuntimeError('E_STATE', 'this runtime was built without an HTTP surface; use createRuntime()');
      this.http = this.httpFactory(this);
    }
    return this.http;
  }

  /** True once `start()` has resolved, until `stop()` begins. */
  get started(): boolean {
    return this.startResolved && this.current === 'running';
  }

  /** The slots of the enabled CRDs, in start order. Read-only use (inspection). */
  slotList(): readonly CrdSlot[] {
    return [...this.slots.values()];
  }

  slot(name: string): CrdSlot | undefined {
    return this.slots.get(name);
  }

  /** Hooks and constructor of a CRD with their sources (inspection). */
  codeOf(name: string): ReturnType<CodeRegistry['resolve']> | undefined {
    const slot = this.slots.get(name);
    return slot === undefined ? undefined : this.code.resolve(slot.crd);
  }

  on<K extends keyof LifecycleEvents>(name: K, listener: Listener<LifecycleEvents[K]>): () => void {
    return this.events.on(name, listener);
  }

  once<K extends keyof LifecycleEvents>(name: K, listener: Listener<LifecycleEvents[K]>): () => void {
    return this.events.once(name, listener);
  }

  off<K extends keyof LifecycleEvents>(name: K, listener: Listener<LifecycleEvents[K]>): void {
    this.events.off(name, listener);
  }

  registerHooks(name: string, hooks: Hooks): void {
    this.assertNotStarted('registerHooks');
    this.code.registerHooks(name, hooks);
  }

  registerConstructor(name: string, factory: ConstructorFactory): void {
    this.assertNotStarted('registerConstructor');
    this.code.registerConstructor(name, factory);
  }

  /**
   * Typed mode: every object of the CRD is validated against this TypeBox schema (of the whole object) before
   * templates, hooks or a reconciler see it; one that does not match fails its reconcile, naming what is wrong.
   * A CRD declared `mode: typed` must have one before `start()`.
   */
  registerSchema(crd: string, schema: TSchema): void {
    this.assertNotStarted('registerSchema');
    if (!this.slots.has(crd)) throw new RuntimeError('E_REGISTRATION', `registerSchema: no enabled CRD named "${crd}" in this katalog`);
    this.schemas.set(crd, schema);
  }

  /** `typed` when a schema is registered for the CRD (or it is declared typed), else `dynamic`. */
  modeOf(crd: string): 'dynamic' | 'typed' {
    return this.schemas.has(crd) ? 'typed' : (this.slots.get(crd)?.crd.mode ?? 'dynamic');
  }

  /** Replaces the builder of a template kind (short form → manifest); see docs/operatorbox.md. */
  registerKind(name: string, builder: KindBuilder): void {
    this.assertNotStarted('registerKind');
    this.kinds.registerKind(name, builder);
  }

  /** Registers an in-process converter for a CRD whose versions differ in shape: objects pass it before templates and hooks. */
  registerConverter(crd: string, converter: Converter): void {
    this.assertNotStarted('registerConverter');
    if (!this.slots.has(crd)) throw new RuntimeError('E_REGISTRATION', `registerConverter: no enabled CRD named "${crd}" in this katalog`);
    this.converters.register(crd, converter);
  }

  /**
   * Starts every installed, dependency-satisfied CRD in dependency order and resolves when they are active.
   * CRDs not installed yet, or waiting for dependencies, are `pending` and start as soon as they can.
   * Rejects when the API server is unreachable, a list is forbidden, or code the definition names is missing.
   */
  async start(): Promise<void> {
    if (this.current !== 'created') throw new RuntimeError('E_STATE', `start() called on a runtime that is ${this.current}`);
    const missing = [
      ...this.code.missing(this.definition.crds.values()),
      ...[...this.slots.values()]
        .filter((slot) => slot.crd.mode === 'typed' && !this.schemas.has(slot.crd.name))
        .map((slot) => `CRD ${slot.crd.name}: mode is typed but no schema is registered (call registerSchema)`),
    ];
    if (missing.length > 0) throw new RuntimeError('E_REGISTRATION', `cannot start: code the definition names is missing:\n${missing.map((m) => `  - ${m}`).join('\n')}`);
    this.current = 'starting';
    this.health.markStarting();
    try {
      const kubeConfig = this.options.kubeConfig ?? loadDefaultKubeConfig();
      const client = new KubeClient(kubeConfig, {
        clock: this.options.clock,
        ...(this.options.clientRateLimit === undefined ? {} : { rateLimit: this.options.clientRateLimit }),
      });
      this.kube = { client, kubeConfig };
      if (this.options.installCrds) await installCrdFiles(client, this.definition, this.logger, this.options.conversionWebhook);
      if ([...this.slots.values()].some((slot) => slot.crdObjectName !== undefined)) {
        const watcher = new CrdWatcher({
          client,
          clock: this.options.clock,
          informer: this.options.watch,
          onChange: (name, crd) => this.lifecycle.onCrdChange(name, crd),
          onRestart: (reason) => this.logger.debug('CRD watch restarted', { reason }),
          onError: (error) => this.logger.warn('CRD watch error', { error }),
        });
        this.crdWatcher = watcher;
        try {
          await watcher.start();
        } catch (error) {
          throw new RuntimeError('E_START', `cannot start: listing CustomResourceDefinitions on ${client.server} failed: ${toError(error).message}`, { cause: error });
        }
      }
      await this.lifecycle.initialActivation();
      this.lifecycle.initialPass = false;
      // A CRD that appeared while the first pass was past it starts now.
      for (const slot of this.slots.values()) if (slot.phase === 'waiting') void this.lifecycle.evaluate(slot, false);
      this.leadership.start(client);
    } catch (error) {
      await this.stop();
      throw error;
    }
    if (this.current !== 'starting') throw new RuntimeError('E_STATE', 'stop() was called while starting');
    this.current = 'running';
    this.startResolved = true;
    this.health.markRunning();
    this.logger.info('runtime started', { active: [...this.slots.values()].filter((s) => s.phase === 'active').map((s) => s.crd.name) });
  }

  /**
   * Drains in-flight reconciles (up to the drain time-out, then aborts them), stops the informers, shuts CRDs down
   * in reverse dependency order and emits the shutdown metrics. Idempotent; leaves no timer, socket or watch open.
   */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    const wasStarting = this.current === 'starting';
    this.current = 'stopping';
    this.startResolved = false;
    this.health.markStopping();
    const { clock, drainTimeoutMs } = this.options;
    const slots = [...this.slots.values()];
    this.lifecycle.cancelRetries();
    // Wait for activations in flight, so that nothing starts behind our back.
    await this.lifecycle.settled();
    const active = slots.filter((slot) => slot.activated !== undefined);
    const controllers = this.activeControllers();
    if (!(await drainControllers(controllers, clock, drainTimeoutMs))) {
      this.logger.error('stop(): some reconciles ignored their AbortSignal; abandoning them', {});
    }
    // Release the Lease only after the drain, so that no other replica reconciles while our work finishes.
    await this.leadership.stop();
    await Promise.all([...controllers.map((controller) => controller.stopInformers()), this.crdWatcher?.stop(), this.notifier?.stop()]); // drained: no notification comes
    // Last: the informers and the Lease are stopped, so nothing sends another request; this ends every connection.
    this.kube?.client.close();
    await this.closeProtocols();
    for (const slot of [...active].reverse()) {
      this.metrics.shutdown(slot.crd.name);
      slot.activated = undefined;
      slot.phase = 'waiting';
      slot.health.markPending('runtime stopped');
      this.events.emit('deactivated', { crd: slot.crd.name, reason: 'runtime stopping' });
    }
    this.current = 'stopped';
    this.health.markStopped();
    if (!wasStarting) this.logger.info('runtime stopped', {});
  }

  /** Closes the external calls' protocol clients (drained: no call is out). A failure is logged: stop() still ends. */
  private async closeProtocols(): Promise<void> {
    try {
      await this.options.externalProtocols.close();
    } catch (error) {
      // Logged and not thrown: stop() must finish stopping everything else; the client's own handles are its owner's.
      this.logger.error('stop(): an external protocol client failed to close', { error: error instanceof Error ? error.message : String(error) });
    }
  }

  private activeControllers(): Controller[] {
    return [...this.slots.values()].flatMap((slot) => (slot.activated === undefined ? [] : [slot.activated.controller]));
  }

  private assertNotStarted(what: string): void {
    if (this.current !== 'created') throw new RuntimeError('E_STATE', `${what}() must be called before start()`);
  }


}

/** Drops undefined properties (exactOptionalPropertyTypes). */
function defined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function loadDefaultKubeConfig(): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromDefault();
  return kubeConfig;
}
