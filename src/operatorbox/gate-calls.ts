/**
 * External calls of the pre-reconcile gates (`preReconcile.external`, shared, then each gate's own): made when
 * a gate with conditions is evaluated, their results read by the gate's conditions as `.external.<name>`.
 * The shared calls run at most once per cycle.
 *
 * A failed call applies the gate's `failPolicy` (the reconcileGate's for the shared calls, else the
 * enqueueGate's): `open` (Orkestra's default) lets the object through this gate, as Orkestra does, logged as
 * a warning (the user chose to reconcile without the answer); `closed` fails the cycle with the call's error,
 * so the object is held back, Ready=False names the call, and the runtime retries with backoff until the call
 * succeeds. (Orkestra drops a held item until its next change; katalog retries, since a failing endpoint is
 * a transient condition no watch event would report.)
 */
import type { ExternalCall, GateFailPolicy, PreReconcile } from '../definition/types.js';
import type { KubeObject } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import type { TemplateData, TemplateDialect } from '../template/index.js';
import { ExternalCallError, ExternalCalls, type ExternalCallsOptions, type ExternalResult } from './external-calls.js';

type GateName = 'enqueueGate' | 'reconcileGate';

export interface GateCallsOptions {
  readonly crd: string;
  readonly preReconcile: PreReconcile;
  readonly dialect?: TemplateDialect | undefined;
  /** The definition's user-defined notes the calls' templates may call. */
  readonly notes?: ExternalCallsOptions['notes'];
  readonly logger: Logger;
  readonly readSecret: ExternalCallsOptions['readSecret'];
  readonly now: () => number;
  readonly request?: ExternalCallsOptions['request'];
  /** The clock of `sleep` and retry waits, and who hears a retry (external-calls.ts). */
  readonly clock?: ExternalCallsOptions['clock'];
  readonly onRetry?: ExternalCallsOptions['onRetry'];
  /** The clients of the calls' stateful protocols (external-protocols.ts). */
  readonly protocols?: ExternalCallsOptions['protocols'];
}

/** One cycle's memo: the shared calls' results, once made. */
export interface GateCycle {
  shared?: Readonly<Record<string, ExternalResult>>;
}

export class GateCalls {
  private readonly shared: ExternalCalls | undefined;
  private readonly own: Partial<Record<GateName, ExternalCalls>> = {};
  private readonly policy: Record<GateName | 'shared', GateFailPolicy>;

  /** Compiles the calls; throws a TemplateError when one does not compile. */
  constructor(private readonly options: GateCallsOptions) {
    const { preReconcile: pre, crd } = options;
    const base = `spec.crds.${crd}.operatorBox.preReconcile`;
    const make = (name: string, calls: readonly ExternalCall[] | undefined): ExternalCalls | undefined =>
      calls === undefined || calls.length === 0 ? undefined : new ExternalCalls({ name, calls, dialect: options.dialect, notes: options.notes, readSecret: options.readSecret, now: options.now, request: options.request, clock: options.clock, onRetry: options.onRetry, protocols: options.protocols });
    this.shared = make(`${base}.external`, pre.external);
    for (const gate of ['enqueueGate', 'reconcileGate'] as const) {
      const calls = make(`${base}.${gate}.external`, pre[gate]?.external);
      if (calls !== undefined) this.own[gate] = calls;
    }
    const enqueue = pre.enqueueGate?.failPolicy ?? 'open';
    const reconcile = pre.reconcileGate?.failPolicy ?? 'open';
    this.policy = { enqueueGate: enqueue, reconcileGate: reconcile, shared: pre.reconcileGate === undefined ? enqueue : reconcile };
  }

  /** Whether there is any call to make. */
  static needed(pre: PreReconcile): boolean {
    return (pre.external?.length ?? 0) > 0 || (pre.enqueueGate?.external?.length ?? 0) > 0 || (pre.reconcileGate?.external?.length ?? 0) > 0;
  }

  /**
   * The data `gate`'s conditions read (`data` with `.external`), or `'pass'` when a call failed under
   * failPolicy open. Throws the call's {@link ExternalCallError} under failPolicy closed.
   */
  async prepare(cycle: GateCycle, gate: GateName, key: string, object: KubeObject, data: TemplateData, signal: AbortSignal): Promise<TemplateData | 'pass'> {
    const soft = (error: ExternalCallError): void => this.warn(key, gate, error, 'continueOnError: the gate reads its .error');
    if (cycle.shared === undefined && this.shared !== undefined) {
      try {
        cycle.shared = await this.shared.run(object, data, signal, {}, soft);
      } catch (error) {
        return this.failed(error, this.policy.shared, key, gate);
      }
    }
    const earlier = cycle.shared ?? {};
    const own = this.own[gate];
    if (own === undefined) return { ...data, external: earlier };
    try {
      return { ...data, external: await own.run(object, data, signal, earlier, soft) };
    } catch (error) {
      return this.failed(error, this.policy[gate], key, gate);
    }
  }

  private failed(error: unknown, policy: GateFailPolicy, key: string, gate: GateName): 'pass' {
    if (!(error instanceof ExternalCallError) || policy === 'closed') throw error;
    this.warn(key, gate, error, 'failPolicy open: the object goes through');
    return 'pass';
  }

  private warn(key: string, gate: GateName, error: ExternalCallError, what: string): void {
    // Not swallowed: the user chose failPolicy open / continueOnError; the warning names the call and the reason.
    this.options.logger.warn(`pre-reconcile gate call failed (${what})`, { crd: this.options.crd, key, gate, call: error.call, reason: error.reason });
  }
}
