/**
 * The controller manager: starts CRDs in dependency order, activates late CRDs when they appear, deactivates
 * deleted ones, and stops everything in reverse order. Everything it owns has `start()` / `stop()`, and it stops
 * them in reverse (DESIGN.md habit 1).
 */
import { KubeConfig } from '@kubernetes/client-node';
import type { Hono } from 'hono';
import type { TSchema } from 'typebox';
import type { Registry } from 'prom-client';
import { CrdWatcher, type InstalledCrd } from '../controller/crd-watcher.js';
import type { ControllerObserver } from '../controller/controller.js';
import type { Definition } from '../definition/types.js';
import { RuntimeError, toError } from '../errors.js';
import { KubeClient } from '../kube/client.js';
import { LifecycleEmitter, type LifecycleEvents, type Listener } from '../observe/events.js';
import { CrdHealth, dependenciesReason, missingCrdReason, type HealthChange } from '../observe/health.js';
import type { Logger } from '../observe/logger.js';
import { createMetrics, type Metrics } from '../observe/metrics.js';
import { RuntimeHealth } from '../observe/runtime-health.js';
import type { ConstructorFactory, Hooks } from '../operatorbox/types.js';
import type { ResolvedOptions } from '../options.js';
import { buildController } from './activation.js';
import { CodeRegistry } from './code-registry.js';
import type { CrdSlot } from './crd-slot.js';
import { ConverterRegistry, type Converter } from '../operatorbox/converters.js';
import type { KindBuilder } from '../registry/kind-builder.js';
import { KindTable } from '../registry/kind-table.js';
import { installCrdFiles } from './install-crds.js';
import { LeaderElector } from './leader-election.js';
import { resolveAllSettings } from './settings.js';

export type RuntimeState = 'created' | 'starting' | 'running' | 'stopping' | 'stopped';

/** Where `runtime.listen()` serves. */
export interface ListenOptions {
  /** Default 8080; 0 picks a free port. */
  readonly port?: number;
  /** Default every interface. */
  readonly hostname?: string;
}

/** A server started by `runtime.listen()`. `close()` ends every connection. */
export interface ServerHandle {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** The HTTP surface of a runtime: the inspection router and a standalone server for it (built by the layer above). */
export interface HttpSurface {
  readonly router: Hono;
  listen(options?: ListenOptions): Promise<ServerHandle>;
}

/** A CRD as `runtime.crds()` reports it. */
export interface CrdStatus {
  readonly name: string;
  readonly state: 'pending' | 'healthy' | 'degraded';
  readonly pendingReason: string | undefined;
  /** The version objects are read at (the internal version once active; the declared one before). */
  readonly version: string;
  readonly resourceCount: number;
  readonly queueDepth: number;
  readonly consecutiveFails: number;
  readonly errorRate: number;
  readonly lastReconcile: Date | null;
}

/** Extra time `stop()` waits, after aborting reconciles that ignore their signal, before it gives up on them. */
const ABANDON_GRACE_MS = 5000;

export class Runtime {
  readonly definition: Definition;
  readonly metrics: Metrics;
  readonly health: RuntimeHealth;
  private readonly options: ResolvedOptions;
  private readonly logger: Logger;
  private readonly events: LifecycleEmitter;
  private readonly code = new CodeRegistry();
  private readonly kinds = new KindTable();
  private readonly converters = new ConverterRegistry();
  private readonly schemas = new Map<string, TSchema>();
  private readonly slots = new Map<string, CrdSlot>();
  private current: RuntimeState = 'created';
  private kube: { client: KubeClient; kubeConfig: KubeConfig } | undefined;
  private crdWatcher: CrdWatcher | undefined;
  private stopping: Promise<void> | undefined;
  private startResolved = false;
  private elector: LeaderElector | undefined;
  /** Activations and deactivations under way; `stop()` waits for them. */
  private readonly transitions = new Set<Promise<void>>();
  /** Whether this replica runs workers: always without leader election, else while it holds the Lease. */
  private leading: boolean;
  /** True while start() walks the CRDs in order; CRD events then only wait for the walk to reach them. */
  private initialPass = true;

  private readonly httpFactory: ((runtime: Runtime) => HttpSurface) | undefined;
  private http: HttpSurface | undefined;

  constructor(definition: Definition, options: ResolvedOptions, http?: (runtime: Runtime) => HttpSurface) {
    this.definition = definition;
    this.httpFactory = http;
    this.leading = options.leaderElection === undefined;
    this.options = options;
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
      });
    }
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
    return this.leading;
  }

  /** Leader election as the inspection API reports it; undefined without leader election. */
  leaderInfo(): { readonly identity: string; readonly leader: boolean; readonly holder: string | undefined; readonly lease: string; readonly shard?: { index: number; count: number } } | undefined {
    const election = this.options.leaderElection;
    if (election === undefined) return undefined;
    return {
      identity: election.identity,
      leader: this.leading,
      holder: this.elector?.holder,
      lease: `${election.lease.namespace}/${election.lease.name}`,
      ...(election.shard === undefined ? {} : { shard: { index: election.shard.index, count: election.shard.count } }),
    };
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

  /**
   * Registers an in-process converter for a CRD whose versions differ in shape without a conversion webhook:
   * every object passes through it before templates and hooks see it.
   */
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
      if (this.options.installCrds) await installCrdFiles(client, this.definition, this.logger);
      if ([...this.slots.values()].some((slot) => slot.crdObjectName !== undefined)) {
        const watcher = new CrdWatcher({
          client,
          clock: this.options.clock,
          informer: this.options.watch,
          onChange: (name, crd) => this.onCrdChange(name, crd),
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
      for (const slot of this.slots.values()) await this.evaluate(slot, true);
      this.initialPass = false;
      // A CRD that appeared while the first pass was past it starts now.
      for (const slot of this.slots.values()) if (slot.phase === 'waiting') void this.evaluate(slot, false);
      this.startLeaderElection(client);
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
    for (const slot of slots) {
      if (slot.retryTimer !== undefined) clock.clearTimeout(slot.retryTimer);
      slot.retryTimer = undefined;
    }
    // Wait for activations in flight, so that nothing starts behind our back.
    await Promise.allSettled([...this.transitions]);
    const active = slots.filter((slot) => slot.activated !== undefined);
    const controllers = active.flatMap((slot) => (slot.activated === undefined ? [] : [slot.activated.controller]));
    const deadline = new AbortController();
    const timer = clock.setTimeout(() => deadline.abort(), drainTimeoutMs);
    const drained = Promise.all(controllers.map((controller) => controller.drain(deadline.signal)));
    const gaveUp = new Promise<'gave-up'>((resolve) => {
      const handle = clock.setTimeout(() => resolve('gave-up'), drainTimeoutMs + ABANDON_GRACE_MS);
      void drained.finally(() => clock.clearTimeout(handle));
    });
    if ((await Promise.race([drained, gaveUp])) === 'gave-up') {
      this.logger.error('stop(): some reconciles ignored their AbortSignal; abandoning them', {});
    }
    clock.clearTimeout(timer);
    // Release the Lease only after the drain, so that no other replica reconciles while our work finishes.
    await this.elector?.stop();
    await Promise.all([...controllers.map((controller) => controller.stopInformers()), this.crdWatcher?.stop() ?? Promise.resolve()]);
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

  private startLeaderElection(client: KubeClient): void {
    const election = this.options.leaderElection;
    if (election === undefined) return;
    this.metrics.leader(false);
    const elector = new LeaderElector({
      client,
      clock: this.options.clock,
      logger: this.logger.child({ component: 'leader-election' }),
      lease: election.lease,
      identity: election.identity,
      leaseDurationMs: election.leaseDurationMs,
      renewDeadlineMs: election.renewDeadlineMs,
      retryPeriodMs: election.retryPeriodMs,
      onStartedLeading: () => void this.onLeadership(true, 'acquired the Lease'),
      onStoppedLeading: (reason) => this.onLeadership(false, reason),
    });
    this.elector = elector;
    elector.start();
  }

  /** Gaining the Lease starts every active CRD's workers; losing it stops them at once. */
  private async onLeadership(leader: boolean, reason: string): Promise<void> {
    const election = this.options.leaderElection;
    this.leading = leader;
    this.metrics.leader(leader);
    this.events.emit('leadershipChanged', {
      leader,
      identity: election?.identity ?? '',
      ...(election?.shard === undefined ? {} : { shard: { index: election.shard.index, count: election.shard.count } }),
    });
    const active = [...this.slots.values()].flatMap((slot) => (slot.activated === undefined ? [] : [slot.activated.controller]));
    if (leader) {
      this.logger.info('leading: starting workers', { reason });
      for (const controller of active) controller.startWorkers();
      return;
    }
    this.logger.warn('not leading: stopping workers', { reason });
    if (this.current === 'stopping') return;
    await Promise.all(active.map((controller) => controller.stopWorkers(`lost leadership: ${reason}`)));
  }

  private assertNotStarted(what: string): void {
    if (this.current !== 'created') throw new RuntimeError('E_STATE', `${what}() must be called before start()`);
  }

  private get accepting(): boolean {
    return this.current === 'starting' || this.current === 'running';
  }

  private onCrdChange(name: string, installed: InstalledCrd | undefined): void {
    if (this.initialPass) return;
    for (const slot of this.slots.values()) {
      if (slot.crdObjectName !== name) continue;
      if (slot.phase === 'activating' || slot.phase === 'deactivating') {
        slot.recheck = true;
        continue;
      }
      if (installed === undefined && slot.phase === 'active') void this.deactivate(slot, missingCrdReason(slot.crd.apiTypes));
      else if (installed !== undefined && slot.phase === 'waiting') {
        slot.appearedAt ??= this.options.clock.now();
        void this.evaluate(slot, false);
      } else if (installed !== undefined && slot.phase === 'active' && slot.activated !== undefined) {
        const version = slot.activated.target.resource.version;
        if (!installed.versions.some((v) => v.name === version && v.served)) void this.deactivate(slot, `version ${version} of ${name} is no longer served`, true);
      }
    }
  }

  /** Unmet dependencies of a slot. */
  private unmet(slot: CrdSlot): Array<{ name: string; condition: string }> {
    return slot.crd.dependsOn.filter((dependency) => {
      const other = this.slots.get(dependency.name);
      if (other === undefined || other.phase !== 'active') return true;
      return dependency.condition === 'healthy' && other.health.state !== 'healthy';
    });
  }

  /** Activates a slot when its CRD is installed and its dependencies are met; otherwise records why it waits. */
  private async evaluate(slot: CrdSlot, initial: boolean): Promise<void> {
    if (!this.accepting || slot.phase !== 'waiting') return;
    const installed = slot.crdObjectName === undefined ? undefined : this.crdWatcher?.get(slot.crdObjectName);
    if (slot.crdObjectName !== undefined && installed === undefined) {
      slot.health.markPending(missingCrdReason(slot.crd.apiTypes));
      return;
    }
    const unmet = this.unmet(slot);
    if (unmet.length > 0) {
      slot.health.markPending(dependenciesReason(unmet));
      return;
    }
    await this.activate(slot, installed, initial);
  }

  private activate(slot: CrdSlot, installed: InstalledCrd | undefined, initial: boolean): Promise<void> {
    return this.track(this.runActivation(slot, installed, initial));
  }

  private deactivate(slot: CrdSlot, reason: string, reactivate = false): Promise<void> {
    return this.track(this.runDeactivation(slot, reason, reactivate));
  }

  private track(transition: Promise<void>): Promise<void> {
    this.transitions.add(transition);
    void transition.finally(() => this.transitions.delete(transition)).catch(() => undefined);
    return transition;
  }

  private async runActivation(slot: CrdSlot, installed: InstalledCrd | undefined, initial: boolean): Promise<void> {
    const { clock } = this.options;
    const name = slot.crd.name;
    const began = slot.appearedAt ?? clock.now();
    slot.phase = 'activating';
    slot.recheck = false;
    this.metrics.initCrd(name);
    const kube = this.kube;
    try {
      if (kube === undefined) throw new RuntimeError('E_STATE', 'no client');
      const activated = await buildController({
        crd: slot.crd,
        installed,
        settings: slot.settings,
        code: this.code.resolve(slot.crd),
        client: kube.client,
        kubeConfig: kube.kubeConfig,
        options: this.options,
        logger: this.logger.child({ crd: name }),
        observer: this.observerFor(slot),
        metrics: this.metrics,
        kinds: this.kinds,
        converters: this.converters,
        schema: this.schemas.get(name),
      });
      await activated.controller.start({ workers: this.leading });
      slot.activated = activated;
    } catch (error) {
      const cause = toError(error);
      this.metrics.activation(name, 'error', 0);
      slot.phase = 'waiting';
      slot.failedActivations++;
      slot.health.markPending(`activation failed: ${cause.message}`);
      this.logger.error('CRD activation failed', { crd: name, error: cause });
      if (initial) throw new RuntimeError('E_START', `cannot start CRD ${name}: ${cause.message}`, { cause });
      this.scheduleRetry(slot);
      return;
    }
    slot.phase = 'active';
    slot.appearedAt = undefined;
    slot.failedActivations = 0;
    slot.health.markStarted();
    this.metrics.workersMax(name, slot.settings.workers.value);
    this.metrics.activation(name, 'success', (clock.now() - began) / 1000);
    this.logger.info('CRD activated', { crd: name, version: slot.activated?.target.resource.version });
    this.events.emit('activated', { crd: name });
    if (slot.recheck) this.recheck(slot);
    this.evaluateDependents(name);
  }

  private async runDeactivation(slot: CrdSlot, reason: string, reactivate: boolean): Promise<void> {
    const activated = slot.activated;
    if (slot.phase !== 'active' || activated === undefined) return;
    slot.phase = 'deactivating';
    slot.recheck = false;
    const drain = new AbortController();
    const timer = this.options.clock.setTimeout(() => drain.abort(), Math.min(this.options.drainTimeoutMs, 5000));
    try {
      await activated.controller.drain(drain.signal);
      await activated.controller.stopInformers();
    } catch (error) {
      this.logger.warn('error while deactivating', { crd: slot.crd.name, error });
    } finally {
      this.options.clock.clearTimeout(timer);
    }
    slot.activated = undefined;
    slot.phase = 'waiting';
    this.metrics.shutdown(slot.crd.name);
    slot.health.markPending(reason);
    this.logger.info('CRD deactivated', { crd: slot.crd.name, reason });
    this.events.emit('deactivated', { crd: slot.crd.name, reason });
    if (reactivate || slot.recheck) await this.evaluate(slot, false);
  }

  private recheck(slot: CrdSlot): void {
    slot.recheck = false;
    if (slot.crdObjectName === undefined) return;
    const installed = this.crdWatcher?.get(slot.crdObjectName);
    if (slot.phase === 'active' && installed === undefined) void this.deactivate(slot, missingCrdReason(slot.crd.apiTypes));
    else if (slot.phase === 'waiting' && installed !== undefined) void this.evaluate(slot, false);
  }

  private scheduleRetry(slot: CrdSlot): void {
    if (!this.accepting) return;
    const delay = Math.min(30_000, 500 * 2 ** Math.min(slot.failedActivations - 1, 6));
    slot.retryTimer = this.options.clock.setTimeout(() => {
      slot.retryTimer = undefined;
      void this.evaluate(slot, false);
    }, delay);
  }

  private evaluateDependents(name: string): void {
    for (const slot of this.slots.values()) {
      if (slot.phase === 'waiting' && slot.crd.dependsOn.some((dependency) => dependency.name === name)) void this.evaluate(slot, false);
    }
  }

  private onHealthChange(slot: CrdSlot, change: HealthChange, error?: Error): void {
    const name = slot.crd.name;
    if (change.event === 'degraded') {
      this.events.emit('degraded', { crd: name, consecutiveFails: slot.health.consecutiveFails, error: error ?? new Error('degraded') });
      this.logger.warn('CRD degraded', { crd: name, consecutiveFails: slot.health.consecutiveFails });
    } else if (change.event === 'recovered') {
      this.events.emit('recovered', { crd: name });
      this.logger.info('CRD recovered', { crd: name });
      this.evaluateDependents(name);
    }
  }

  private observerFor(slot: CrdSlot): ControllerObserver {
    const name = slot.crd.name;
    const { metrics, logger } = this;
    return {
      reconciled: (key, outcome, durationMs) => {
        metrics.reconcileResult(name, outcome.result, durationMs / 1000);
        if (outcome.result === 'success') {
          this.onHealthChange(slot, slot.health.recordSuccess());
          this.events.emit('reconciled', { crd: name, key, result: 'success', durationMs });
        } else {
          logger.warn('reconcile failed', { crd: name, key, error: outcome.error });
          this.onHealthChange(slot, slot.health.recordFailure(outcome.error), outcome.error);
          this.events.emit('reconciled', { crd: name, key, result: 'error', durationMs, error: outcome.error });
        }
      },
      workersActive: (active) => metrics.workersActive(name, active),
      queueDepth: (depth) => metrics.queueDepth(name, depth),
      dropped: () => metrics.dropped(name),
      waited: (seconds) => metrics.waited(name, seconds),
      resourceCount: (count) => metrics.resourceCount(name, count),
      watchRestarted: (reason) => {
        metrics.watchRestarted(name);
        logger.debug('watch restarted', { crd: name, reason });
      },
      informerError: (error) => logger.warn('watch error', { crd: name, error }),
    };
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
