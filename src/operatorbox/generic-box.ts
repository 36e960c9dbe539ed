/**
 * The generic box (`operatorBox.default: true`): finalizers, templates and hooks.
 *
 * Live object: add the cleanup finalizer and the declared ones (the first time: this is what makes a reconcile
 * an `onCreate`), then templates and hooks in the declared order (templates first unless `runHooksFirst`); the
 * first error stops the cycle. Object being deleted: `onDelete` (the hook, else the onDelete templates, whose Jobs
 * block until they succeed), then the children the garbage collector cannot reach are deleted, then the finalizers
 * are removed. A failing delete path keeps the finalizers, so the deletion is retried with backoff.
 */
import { updateFinalizers, withFinalizers, withoutFinalizers } from '../kube/finalizers.js';
import type { KubeObject } from '../kube/resource.js';
import { hookContext, notFoundContext, type ContextDeps } from './context.js';
import { requeueAfterOf, soonest } from './result.js';
import type { BoxInput, BoxOutput, DeleteOutput, DesiredChild, OperatorBoxStage } from './stage.js';
import type { HookContext, Hooks } from './types.js';

/** The generic box applies children in its templates step; the pipeline's registry stage gets none. */
const NO_DESIRED: readonly DesiredChild[] = Object.freeze([]);

/** The finalizer katalog always adds to the objects it manages with the generic box. */
export const CLEANUP_FINALIZER = 'katalog.dev/cleanup';

/**
 * The templates of a CRD, as the generic box uses them (implemented by templates.ts). The templates step renders
 * and carries out the children itself (create, apply, prune), so that "templates first, then hooks" means hooks
 * see this cycle's children, and a failing first step stops the second.
 */
export interface TemplatesStage {
  /** Renders onCreate and onReconcile for a live object and carries out the children; returns the children after. */
  reconcile(object: KubeObject, signal: AbortSignal): Promise<{ children: HookContext['children'] }>;
  /** The children observed now (a private copy), for hooks that run before the templates. */
  observed(object: KubeObject): HookContext['children'];
  /** Runs the delete path's templates; resolves `false` while something (a Job) still blocks removal. */
  runDelete(object: KubeObject, signal: AbortSignal): Promise<boolean>;
  /** Deletes the children the garbage collector cannot reach (cluster-scoped, other namespaces). */
  cleanup(object: KubeObject, signal: AbortSignal): Promise<void>;
}

export interface GenericBoxOptions {
  readonly deps: ContextDeps;
  readonly hooks?: Hooks | undefined;
  /** The name the hooks were registered under, for messages. */
  readonly hooksName?: string | undefined;
  readonly runHooksFirst: boolean;
  /** Declared finalizers (Katalog-wide and the CRD's); the cleanup finalizer is added to them. */
  readonly finalizers: readonly string[];
  readonly templates?: TemplatesStage | undefined;
  /** How long to wait before looking again at a deletion blocked by an onDelete Job. Default 2 s. */
  readonly deleteRecheckMs?: number;
}

export class GenericBox implements OperatorBoxStage {
  private readonly finalizers: readonly string[];
  /** Last generation reconciled successfully per key: what tells `onUpdate` apart from a resync. */
  private readonly reconciledGeneration = new Map<string, number>();

  constructor(private readonly options: GenericBoxOptions) {
    this.finalizers = withFinalizers([CLEANUP_FINALIZER], options.finalizers);
  }

  async reconcile(input: BoxInput): Promise<BoxOutput> {
    const { deps, hooks, templates } = this.options;
    const isNew = !(input.object.metadata?.finalizers ?? []).includes(CLEANUP_FINALIZER);
    const latest = await updateFinalizers(deps.client, deps.crd.resource, input.object, (current) => withFinalizers(current, this.finalizers), input.signal);
    // Keep the converted body; take only the metadata (finalizers, resourceVersion) from the API server's answer.
    const object: KubeObject = latest?.metadata === undefined ? input.object : { ...input.object, metadata: latest.metadata };
    let children: HookContext['children'] = {};
    let requeueAfterMs: number | undefined;

    const runTemplates = async (): Promise<void> => {
      if (templates === undefined) return;
      ({ children } = await templates.reconcile(structuredClone(object), input.signal));
    };
    const runHooks = async (): Promise<void> => {
      if (hooks === undefined) return;
      const generation = object.metadata?.generation;
      const previous = this.reconciledGeneration.get(input.key) ?? observedGeneration(object);
      const steps: Array<keyof Hooks> = [];
      if (isNew) steps.push('onCreate');
      else if (generation !== undefined && previous !== undefined && generation > previous) steps.push('onUpdate');
      steps.push('onReconcile');
      for (const step of steps) {
        const hook = hooks[step] as ((ctx: HookContext) => unknown) | undefined;
        if (hook === undefined) continue;
        const ctx = hookContext(deps, input.key, structuredClone(object), input.signal, steps.length > 1 ? structuredClone(children) : children);
        const result = await hook.call(hooks, ctx);
        requeueAfterMs = soonest(requeueAfterMs, requeueAfterOf(result, `${this.hooksLabel}.${step}`));
      }
    };

    if (this.options.runHooksFirst) {
      if (templates !== undefined) children = templates.observed(object);
      await runHooks();
      await runTemplates();
    } else {
      await runTemplates();
      await runHooks();
    }
    const generation = object.metadata?.generation;
    if (generation !== undefined) this.reconciledGeneration.set(input.key, generation);
    return { desired: NO_DESIRED, requeueAfterMs, writeStatus: true, object };
  }

  async delete(input: BoxInput): Promise<DeleteOutput> {
    const { deps, hooks, templates } = this.options;
    const present = input.object.metadata?.finalizers ?? [];
    if (!this.finalizers.some((finalizer) => present.includes(finalizer))) return {};
    let requeueAfterMs: number | undefined;
    if (hooks?.onDelete !== undefined) {
      const children = templates === undefined ? {} : templates.observed(input.object);
      const result = await hooks.onDelete.call(hooks, hookContext(deps, input.key, structuredClone(input.object), input.signal, children));
      requeueAfterMs = requeueAfterOf(result, `${this.hooksLabel}.onDelete`);
    } else if (templates !== undefined) {
      const finished = await templates.runDelete(structuredClone(input.object), input.signal);
      if (!finished) return { requeueAfterMs: this.options.deleteRecheckMs ?? 2000 };
    }
    await templates?.cleanup(structuredClone(input.object), input.signal);
    await updateFinalizers(deps.client, deps.crd.resource, input.object, (current) => withoutFinalizers(current, this.finalizers), input.signal);
    this.reconciledGeneration.delete(input.key);
    return { requeueAfterMs };
  }

  async notFound(key: string, signal: AbortSignal): Promise<DeleteOutput> {
    this.reconciledGeneration.delete(key);
    const hook = this.options.hooks?.onNotFound;
    if (hook === undefined) return {};
    const result = await hook.call(this.options.hooks, notFoundContext(this.options.deps, key, signal));
    return { requeueAfterMs: requeueAfterOf(result, `${this.hooksLabel}.onNotFound`) };
  }

  private get hooksLabel(): string {
    return `hooks ${this.options.hooksName ?? this.options.deps.crd.name}`;
  }
}

function observedGeneration(object: KubeObject): number | undefined {
  const status = object['status'] as { observedGeneration?: unknown } | undefined;
  return typeof status?.observedGeneration === 'number' ? status.observedGeneration : undefined;
}
