/**
 * The operatorBox stage as the pipeline sees it. Two boxes implement it: the generic box (templates, hooks and
 * finalizers) and the constructor box (`operatorBox.default: false`, a custom reconciler owns everything).
 */
import type { KubeObject } from '../kube/resource.js';

/** One child resource the box wants to exist, rendered and ready for the registry. */
export interface DesiredChild {
  /** The template entry's document path, for messages (`spec.crds.website.operatorBox.onCreate.deployments[0]`). */
  readonly source: string;
  /** The full manifest. */
  readonly manifest: KubeObject;
  /** true: kept in line with server-side apply on every reconcile; false: created when missing, else left alone. */
  readonly reconcile: boolean;
}

export interface BoxInput {
  readonly key: string;
  /** The custom resource at the internal version: a private copy the box may read freely. */
  readonly object: KubeObject;
  readonly signal: AbortSignal;
}

export interface BoxOutput {
  /** Children declared by templates for this cycle (empty for code-only boxes). */
  readonly desired: readonly DesiredChild[];
  /** Sooner of the delays hooks asked for, in ms. */
  readonly requeueAfterMs?: number | undefined;
  /** Whether the runtime writes the Ready condition and observedGeneration after this reconcile. */
  readonly writeStatus: boolean;
  /** The latest state of the object when the box wrote to it (finalizers), so later writes start from it. */
  readonly object?: KubeObject | undefined;
}

/** The result of the delete path. */
export interface DeleteOutput {
  readonly requeueAfterMs?: number | undefined;
}

export interface OperatorBoxStage {
  /** Reconciles a live object (no `deletionTimestamp`). */
  reconcile(input: BoxInput): Promise<BoxOutput>;
  /** Runs the delete path of an object being deleted. */
  delete(input: BoxInput): Promise<DeleteOutput>;
  /** The key is no longer in the cache. */
  notFound(key: string, signal: AbortSignal): Promise<DeleteOutput>;
}

/**
 * `inner` with a step of its own before each reconcile of a live object (`before`, which calls `inner` when it is
 * done; default: straight to `inner`), and what it keeps for a key dropped once the key is gone from the cache.
 */
export function wrapStage(
  inner: OperatorBoxStage,
  steps: { readonly before?: (input: BoxInput) => Promise<BoxOutput>; readonly forget: (key: string) => void },
): OperatorBoxStage {
  return {
    reconcile: steps.before ?? ((input) => inner.reconcile(input)),
    delete: (input) => inner.delete(input),
    notFound: (key, signal) => {
      steps.forget(key);
      return inner.notFound(key, signal);
    },
  };
}
