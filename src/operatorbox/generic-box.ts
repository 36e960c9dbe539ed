/**
 * The generic box (`operatorBox.default: true`): finalizers, templates and hooks.
 *
 * The finalizer rule (docs/reliability.md): `katalog.dev/cleanup` (with the declared finalizers) is put on an object
 * only when its deletion needs work that owner-reference garbage collection cannot do: an `onDelete` hook or onDelete
 * templates, declared finalizers, or a rendered child out of the collector's reach (cluster-scoped under a
 * namespaced parent, or in another namespace). Otherwise deleting the object (or its CRD, or the operator) leaves
 * nothing behind that waits for katalog: the garbage collector takes the children.
 *
 * Live object: add the finalizers when the rule asks for them (before any child is created), then templates and
 * hooks in the declared order (templates first unless `runHooksFirst`); the first error stops the cycle. A cleanup
 * finalizer no longer needed (the cluster-scoped child went away) is removed at the end of a successful cycle.
 * Object being deleted: `onDelete` (the hook, else the onDelete templates, whose Jobs block until they succeed),
 * then the children the garbage collector cannot reach are deleted, then the finalizers are removed. A failing
 * delete path keeps the finalizers, so the deletion is retried with backoff.
 *
 * `onCreate` runs on the first reconcile of an object: the one that adds the finalizer when the rule puts one;
 * otherwise the first one that finds no status of katalog's on the object (no `observedGeneration`, no `Ready`
 * condition) and that this process has not attempted before.
 */
import { updateFinalizers, withFinalizers, withoutFinalizers } from '../kube/finalizers.js';
import type { KubeObject } from '../kube/resource.js';
import { jsonClone } from '../util/json-clone.js';
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
  /**
   * Renders onCreate and onReconcile for a live object and carries out the children; returns the children after.
   * `beforeApply` is awaited after rendering and before the first write, told whether a rendered child is out of
   * the garbage collector's reach. `children()` makes a private copy of the children after, each time it is called.
   */
  reconcile(
    object: KubeObject,
    signal: AbortSignal,
    beforeApply?: (uncollectable: boolean) => Promise<void>,
  ): Promise<{ children: () => HookContext['children']; requeueAfterMs?: number | undefined; object?: KubeObject | undefined }>;
  /** The children observed now (a private copy), for hooks that run before the templates. */
  observed(object: KubeObject): HookContext['children'];
  /** Whether there are onDelete templates (their deletion work needs the finalizer). */
  readonly hasOnDelete: boolean;
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
  /** Whether every object needs the finalizers, whatever it renders (onDelete work, declared finalizers). */
  private readonly alwaysFinalize: boolean;
  /** Last generation reconciled successfully per key: what tells `onUpdate` apart from a resync. */
  private readonly reconciledGeneration = new Map<string, number>();
  /** Keys whose first reconcile (`onCreate`) this process attempted, for objects that carry no finalizer. */
  private readonly attempted = new Set<string>();

  constructor(private readonly options: GenericBoxOptions) {
    this.finalizers = withFinalizers([CLEANUP_FINALIZER], options.finalizers);
    this.alwaysFinalize = options.finalizers.length > 0 || options.hooks?.onDelete !== undefined || options.templates?.hasOnDelete === true;
  }

  async reconcile(input: BoxInput): Promise<BoxOutput> {
    const { deps, hooks, templates } = this.options;
    const hadFinalizer = (input.object.metadata?.finalizers ?? []).includes(CLEANUP_FINALIZER);
    const isNew = this.alwaysFinalize ? !hadFinalizer : !hadFinalizer && !this.attempted.has(input.key) && !hasOwnStatus(input.object);
    this.attempted.add(input.key);
    let object = input.object;
    let wrote = false;
    let needed = this.alwaysFinalize;
    const setFinalizers = async (change: (current: readonly string[]) => string[]): Promise<void> => {
      const latest = await updateFinalizers(deps.client, deps.crd.resource, object, change, input.signal);
      if (latest?.metadata === undefined || latest.metadata.resourceVersion === object.metadata?.resourceVersion) return;
      // Keep the converted body; take only the metadata (finalizers, resourceVersion) from the API server's answer.
      object = { ...object, metadata: latest.metadata };
      wrote = true;
    };
    if (this.alwaysFinalize) await setFinalizers((current) => withFinalizers(current, this.finalizers));
    let children: HookContext['children'] = {};
    let requeueAfterMs: number | undefined;

    const runTemplates = async (): Promise<void> => {
      if (templates === undefined) return;
      const result = await templates.reconcile(jsonClone(object), input.signal, async (uncollectable) => {
        if (!uncollectable || this.alwaysFinalize) return;
        needed = true;
        await setFinalizers((current) => withFinalizers(current, this.finalizers));
      });
      // Only hooks read the children: without hooks no copy of them is made.
      if (hooks !== undefined) children = result.children();
      requeueAfterMs = soonest(requeueAfterMs, result.requeueAfterMs); // rotations due later
      if (result.object?.metadata !== undefined) {
        // The CRD's labels were written: later writes start from the answer's metadata (resourceVersion).
        object = { ...object, metadata: result.object.metadata };
        wrote = true;
      }
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
    // Nothing left that the garbage collector cannot do: the cleanup finalizer (of an earlier cycle, or an earlier
    // version of katalog) would only make deleting the object, its CRD or the operator wait for katalog.
    if (!needed && (object.metadata?.finalizers ?? []).includes(CLEANUP_FINALIZER)) await setFinalizers((current) => withoutFinalizers(current, [CLEANUP_FINALIZER]));
    const generation = object.metadata?.generation;
    if (generation !== undefined) this.reconciledGeneration.set(input.key, generation);
    return { desired: NO_DESIRED, requeueAfterMs, writeStatus: true, ...(wrote ? { object } : {}) };
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
    this.attempted.delete(input.key);
    return { requeueAfterMs };
  }

  async notFound(key: string, signal: AbortSignal): Promise<DeleteOutput> {
    this.reconciledGeneration.delete(key);
    this.attempted.delete(key);
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

/** Whether katalog wrote status to the object before: an `observedGeneration` or a `Ready` condition. */
function hasOwnStatus(object: KubeObject): boolean {
  const status = object['status'] as { observedGeneration?: unknown; conditions?: unknown } | undefined;
  if (status?.observedGeneration !== undefined) return true;
  return Array.isArray(status?.conditions) && status.conditions.some((condition: { type?: unknown }) => condition?.type === 'Ready');
}
