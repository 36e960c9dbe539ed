/**
 * The life of each CRD while the runtime runs: waiting (not installed, or dependencies unmet), activating, active,
 * deactivating. CRD events and health changes move slots between these phases; each transition is tracked so that
 * `stop()` can wait for it, and a failed activation after start is retried with backoff (0.5 s doubling to 30 s).
 */
import type { ControllerObserver } from '../controller/controller.js';
import type { InstalledCrd } from '../controller/crd-watcher.js';
import { RuntimeError, toError } from '../errors.js';
import type { LifecycleEmitter } from '../observe/events.js';
import { dependenciesReason, missingCrdReason, type HealthChange } from '../observe/health.js';
import type { Logger } from '../observe/logger.js';
import type { Metrics } from '../observe/metrics.js';
import type { ResolvedOptions } from '../options.js';
import { buildController, type ActivationInput } from './activation.js';
import { FiguresBoard } from './autoscale-wiring.js';
import { SharedInformers } from '../kube/shared-informer.js';
import { ChildInformers } from '../registry/child-informers.js';
import type { CrdSlot } from './crd-slot.js';

export interface CrdLifecycleDeps {
  readonly slots: ReadonlyMap<string, CrdSlot>;
  readonly options: ResolvedOptions;
  readonly metrics: Metrics;
  readonly events: LifecycleEmitter;
  readonly logger: Logger;
  /** Whether the runtime takes activations now (starting or running). */
  accepting(): boolean;
  /** Whether this replica runs workers (always, without leader election). */
  leading(): boolean;
  /** The installed CustomResourceDefinition of that name, if established. */
  installed(crdObjectName: string): InstalledCrd | undefined;
  /** Everything an activation of the slot needs but the observer and the installed CRD. */
  activationInput(slot: CrdSlot): Omit<ActivationInput, 'observer' | 'installed' | 'figures' | 'sharedInformers' | 'childInformers'>;
}

/**
 * Activations `start()` runs at once. Each is a few requests (discovery of the child kinds, the children's and the
 * resources' first lists), mostly waiting on the API server, so running several at once is what makes `start()`
 * with many CRDs about as long as their lists; the bound keeps a runtime with hundreds of CRDs from opening hundreds
 * of connections and lists at the same instant.
 */
export const START_CONCURRENCY = 16;

export class CrdLifecycle {
  /** True while start() runs the first activations; CRD events and dependents then wait for it to reach them. */
  initialPass = true;
  /** Activations and deactivations under way. */
  private readonly transitions = new Set<Promise<void>>();
  /** The load figures of the running CRDs, which autoscale rules read across CRDs (`cross.<crd>.metrics.*`). */
  private readonly figures = new FiguresBoard();
  /** Informers several CRDs share (the Events informer of `observe.events`), open while some CRD needs them. */
  private readonly sharedInformers = new SharedInformers();
  /**
   * The informers on children, one per child kind for every CRD of the runtime; their selector names every CRD of
   * `slots`, fixed from here on, so a CRD activated late finds its children already cached (child-informers.ts).
   */
  private readonly childInformers: ChildInformers;

  constructor(private readonly deps: CrdLifecycleDeps) {
    this.childInformers = new ChildInformers(deps.slots.keys());
  }

  /** Resolves when no activation or deactivation is under way. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.transitions]);
  }

  /** Cancels pending activation retries. */
  cancelRetries(): void {
    for (const slot of this.deps.slots.values()) {
      if (slot.retryTimer !== undefined) this.deps.options.clock.clearTimeout(slot.retryTimer);
      slot.retryTimer = undefined;
    }
  }

  /** A CustomResourceDefinition changed (or went away): activate, deactivate or re-activate its slots. */
  onCrdChange(name: string, installed: InstalledCrd | undefined): void {
    if (this.initialPass) return;
    for (const slot of this.deps.slots.values()) {
      if (slot.crdObjectName !== name) continue;
      if (slot.phase === 'activating' || slot.phase === 'deactivating') {
        slot.recheck = true;
        continue;
      }
      if (installed === undefined && slot.phase === 'active') void this.deactivate(slot, missingCrdReason(slot.crd.apiTypes));
      else if (installed !== undefined && slot.phase === 'waiting') {
        slot.appearedAt ??= this.deps.options.clock.now();
        void this.evaluate(slot, false);
      } else if (installed !== undefined && slot.phase === 'active' && slot.activated !== undefined) {
        const version = slot.activated.target.resource.version;
        if (!installed.versions.some((v) => v.name === version && v.served)) void this.deactivate(slot, `version ${version} of ${name} is no longer served`, true);
      }
    }
  }

  /**
   * The first pass of `start()`: evaluates every slot, at most `concurrency` activations at once, each slot after
   * the slots it depends on have settled (so dependency order holds, and a slot whose dependency failed stays
   * pending). A failing activation neither holds up nor cancels the others: every one runs to its end, and then the
   * first failure in start order rejects (the caller stops whatever did activate). The workers of the CRDs it
   * activated start when every activation has settled.
   */
  async initialActivation(concurrency = START_CONCURRENCY): Promise<void> {
    const passes = new Map<string, Promise<void>>();
    let running = 0;
    const waiting: Array<() => void> = [];
    const turn = async (): Promise<void> => {
      if (running < concurrency) {
        running++;
        return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    };
    const done = (): void => {
      const next = waiting.shift();
      if (next === undefined) running--;
      else next();
    };
    for (const slot of this.deps.slots.values()) {
      const dependencies = slot.crd.dependsOn.flatMap((dependency) => passes.get(dependency.name) ?? []);
      const pass = (async () => {
        await Promise.allSettled(dependencies);
        await turn();
        try {
          await this.evaluate(slot, true);
        } finally {
          done();
        }
      })();
      passes.set(slot.crd.name, pass);
    }
    const results = await Promise.allSettled(passes.values());
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    // Workers start once every first list is in (as controller-runtime starts its controllers after the caches
    // sync): reconciles of the CRDs activated first would otherwise compete with the lists still running.
    if (this.deps.leading()) for (const slot of this.deps.slots.values()) slot.activated?.controller.startWorkers();
  }

  /** Unmet dependencies of a slot. */
  private unmet(slot: CrdSlot): Array<{ name: string; condition: string }> {
    return slot.crd.dependsOn.filter((dependency) => {
      const other = this.deps.slots.get(dependency.name);
      if (other === undefined || other.phase !== 'active') return true;
      return dependency.condition === 'healthy' && other.health.state !== 'healthy';
    });
  }

  /** Activates a slot when its CRD is installed and its dependencies are met; otherwise records why it waits. */
  async evaluate(slot: CrdSlot, initial: boolean): Promise<void> {
    if (!this.deps.accepting() || slot.phase !== 'waiting') return;
    const installed = slot.crdObjectName === undefined ? undefined : this.deps.installed(slot.crdObjectName);
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
    const { clock } = this.deps.options;
    const name = slot.crd.name;
    const began = slot.appearedAt ?? clock.now();
    slot.phase = 'activating';
    slot.recheck = false;
    this.deps.metrics.initCrd(name);
    try {
      const activated = await buildController({
        ...this.deps.activationInput(slot),
        installed,
        observer: this.observerFor(slot),
        figures: this.figures,
        sharedInformers: this.sharedInformers,
        childInformers: this.childInformers,
        health: () => slot.health.snapshot(),
      });
      // The first pass starts the workers of all its CRDs at its end (initialActivation).
      await activated.controller.start({ workers: this.deps.leading() && !initial });
      slot.activated = activated;
    } catch (error) {
      const cause = toError(error);
      this.deps.metrics.activation(name, 'error', 0);
      slot.phase = 'waiting';
      slot.failedActivations++;
      slot.health.markPending(`activation failed: ${cause.message}`);
      this.deps.logger.error('CRD activation failed', { crd: name, error: cause });
      if (initial) throw new RuntimeError('E_START', `cannot start CRD ${name}: ${cause.message}`, { cause });
      this.scheduleRetry(slot);
      return;
    }
    slot.phase = 'active';
    slot.appearedAt = undefined;
    slot.failedActivations = 0;
    slot.health.markStarted();
    this.deps.metrics.workersMax(name, slot.settings.workers.value);
    this.deps.metrics.activation(name, 'success', (clock.now() - began) / 1000);
    this.deps.logger.info('CRD activated', { crd: name, version: slot.activated?.target.resource.version });
    this.deps.events.emit('activated', { crd: name });
    if (slot.recheck) this.recheck(slot);
    this.evaluateDependents(name);
  }

  private async runDeactivation(slot: CrdSlot, reason: string, reactivate: boolean): Promise<void> {
    const activated = slot.activated;
    if (slot.phase !== 'active' || activated === undefined) return;
    slot.phase = 'deactivating';
    slot.recheck = false;
    const drain = new AbortController();
    const timer = this.deps.options.clock.setTimeout(() => drain.abort(), Math.min(this.deps.options.drainTimeoutMs, 5000));
    try {
      await activated.controller.drain(drain.signal);
      await activated.controller.stopInformers();
    } catch (error) {
      this.deps.logger.warn('error while deactivating', { crd: slot.crd.name, error });
    } finally {
      this.deps.options.clock.clearTimeout(timer);
    }
    slot.activated = undefined;
    slot.phase = 'waiting';
    this.deps.metrics.shutdown(slot.crd.name);
    slot.health.markPending(reason);
    this.deps.logger.info('CRD deactivated', { crd: slot.crd.name, reason });
    this.deps.events.emit('deactivated', { crd: slot.crd.name, reason });
    if (reactivate || slot.recheck) await this.evaluate(slot, false);
  }

  private recheck(slot: CrdSlot): void {
    slot.recheck = false;
    if (slot.crdObjectName === undefined) return;
    const installed = this.deps.installed(slot.crdObjectName);
    if (slot.phase === 'active' && installed === undefined) void this.deactivate(slot, missingCrdReason(slot.crd.apiTypes));
    else if (slot.phase === 'waiting' && installed !== undefined) void this.evaluate(slot, false);
  }

  private scheduleRetry(slot: CrdSlot): void {
    if (!this.deps.accepting()) return;
    const delay = Math.min(30_000, 500 * 2 ** Math.min(slot.failedActivations - 1, 6));
    slot.retryTimer = this.deps.options.clock.setTimeout(() => {
      slot.retryTimer = undefined;
      void this.evaluate(slot, false);
    }, delay);
  }

  private evaluateDependents(name: string): void {
    // During the first pass, dependents are evaluated by initialActivation once their dependencies have settled.
    if (this.initialPass) return;
    for (const slot of this.deps.slots.values()) {
      if (slot.phase === 'waiting' && slot.crd.dependsOn.some((dependency) => dependency.name === name)) void this.evaluate(slot, false);
    }
  }

  private onHealthChange(slot: CrdSlot, change: HealthChange, error?: Error): void {
    const name = slot.crd.name;
    if (change.event === 'degraded') {
      this.deps.events.emit('degraded', { crd: name, consecutiveFails: slot.health.consecutiveFails, error: error ?? new Error('degraded') });
      this.deps.logger.warn('CRD degraded', { crd: name, consecutiveFails: slot.health.consecutiveFails });
    } else if (change.event === 'recovered') {
      this.deps.events.emit('recovered', { crd: name });
      this.deps.logger.info('CRD recovered', { crd: name });
      this.evaluateDependents(name);
    }
  }

  private observerFor(slot: CrdSlot): ControllerObserver {
    const name = slot.crd.name;
    const { metrics, logger } = this.deps;
    return {
      reconciled: (key, outcome, durationMs) => {
        metrics.reconcileResult(name, outcome.result, durationMs / 1000);
        if (outcome.result === 'success') {
          this.onHealthChange(slot, slot.health.recordSuccess());
          this.deps.events.emit('reconciled', { crd: name, key, result: 'success', durationMs });
        } else {
          logger.warn('reconcile failed', { crd: name, key, error: outcome.error });
          this.onHealthChange(slot, slot.health.recordFailure(outcome.error), outcome.error);
          this.deps.events.emit('reconciled', { crd: name, key, result: 'error', durationMs, error: outcome.error });
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
      gaveUp: (key, attempts, error) => {
        metrics.retriesExhausted(name);
        logger.warn('reconcile given up: retries exhausted (runs again on its next change or resync)', { crd: name, key, attempts, error });
        if (slot.retries === undefined) return;
        slot.retries.exhausted++;
        slot.retries.lastExhaustedAt = this.deps.options.clock.now();
      },
      echoCapped: (key, chain) =>
        logger.warn('status echo not followed: the chain reached its cap (the status the box reads changes on every render; runs again on its next change or resync)', { crd: name, key, chain }),
    };
  }
}
