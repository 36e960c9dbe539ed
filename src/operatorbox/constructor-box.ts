/**
 * `operatorBox.default: false`: a custom reconciler owns reconcile entirely, deletion included (it sees the
 * `deletionTimestamp` and manages its own finalizers). The runtime still provides informer, queue, workers,
 * metrics, health and the Ready condition around it. `constructor.external` calls (constructor-calls.ts) run
 * before the reconciler for a live object; their results are `ctx.external` (`{}` on the delete path).
 */
import { splitKey, type KubeObject } from '../kube/resource.js';
import type { ConstructorCalls } from './constructor-calls.js';
import type { ExternalResult } from './external-calls.js';
import { reconcilerContext, type ContextDeps } from './context.js';
import type { BoxInput, BoxOutput, DeleteOutput, OperatorBoxStage } from './stage.js';
import { requeueAfterOf } from './result.js';
import type { Reconciler } from './types.js';

export class ConstructorBox implements OperatorBoxStage {
  constructor(
    private readonly deps: ContextDeps,
    private readonly reconciler: Reconciler,
    private readonly name: string,
    private readonly calls?: ConstructorCalls,
  ) {}

  async reconcile(input: BoxInput): Promise<BoxOutput> {
    const external = await this.external(input.key, input.object, input.signal);
    const requeueAfterMs = await this.call(input.key, input.object, input.signal, external);
    return { desired: [], requeueAfterMs, writeStatus: true };
  }

  async delete(input: BoxInput): Promise<DeleteOutput> {
    return { requeueAfterMs: await this.call(input.key, input.object, input.signal) };
  }

  async notFound(key: string, signal: AbortSignal): Promise<DeleteOutput> {
    return { requeueAfterMs: await this.call(key, undefined, signal) };
  }

  /** The calls' results for a live object; none on the delete path (as the generic box's calls). */
  private async external(key: string, object: KubeObject, signal: AbortSignal): Promise<Readonly<Record<string, ExternalResult>>> {
    if (this.calls === undefined || object.metadata?.deletionTimestamp !== undefined) return {};
    return this.calls.run(key, object, signal);
  }

  private async call(key: string, object: BoxInput['object'] | undefined, signal: AbortSignal, external: Readonly<Record<string, ExternalResult>> = {}): Promise<number | undefined> {
    const { namespace, name } = splitKey(key);
    const result = await this.reconciler.reconcile({ key, namespace, name }, reconcilerContext(this.deps, key, object, signal, external));
    return requeueAfterOf(result, `constructor ${this.name}`);
  }
}
