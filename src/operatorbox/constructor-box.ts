/**
 * `operatorBox.default: false`: a custom reconciler owns reconcile entirely, deletion included (it sees the
 * `deletionTimestamp` and manages its own finalizers). The runtime still provides informer, queue, workers,
 * metrics, health and the Ready condition around it.
 */
import { splitKey } from '../kube/resource.js';
import { reconcilerContext, type ContextDeps } from './context.js';
import type { BoxInput, BoxOutput, DeleteOutput, OperatorBoxStage } from './stage.js';
import { requeueAfterOf } from './result.js';
import type { Reconciler } from './types.js';

export class ConstructorBox implements OperatorBoxStage {
  constructor(
    private readonly deps: ContextDeps,
    private readonly reconciler: Reconciler,
    private readonly name: string,
  ) {}

  async reconcile(input: BoxInput): Promise<BoxOutput> {
    const requeueAfterMs = await this.call(input.key, input.object, input.signal);
    return { desired: [], requeueAfterMs, writeStatus: true };
  }

  async delete(input: BoxInput): Promise<DeleteOutput> {
    return { requeueAfterMs: await this.call(input.key, input.object, input.signal) };
  }

  async notFound(key: string, signal: AbortSignal): Promise<DeleteOutput> {
    return { requeueAfterMs: await this.call(key, undefined, signal) };
  }

  private async call(key: string, object: BoxInput['object'] | undefined, signal: AbortSignal): Promise<number | undefined> {
    const { namespace, name } = splitKey(key);
    const result = await this.reconciler.reconcile({ key, namespace, name }, reconcilerContext(this.deps, key, object, signal));
    return requeueAfterOf(result, `constructor ${this.name}`);
  }
}
