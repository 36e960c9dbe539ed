/**
 * What operator code sees: the hook context, hook sets, custom constructors and what they return.
 * New context fields may be added in minor versions; a hook that takes the context object never breaks.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject, ResourceRef } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import type { ExternalResult } from './external-calls.js';

/** The CRD a hook or constructor works for. */
export interface CrdInfo {
  /** The CRD's name in the Katalog (`website`). */
  readonly name: string;
  /** The resource at the internal version (what the runtime reads and hands to code). */
  readonly resource: ResourceRef;
  /** The version declared in the Katalog's `apiTypes`. */
  readonly declaredVersion: string;
}

/** Read access to the informer cache of a CRD. Objects are copies; changing them changes nothing. */
export interface CacheReader {
  get(key: string): KubeObject | undefined;
  list(namespace?: string): KubeObject[];
  readonly size: number;
}

/** Records Kubernetes Events about the object being reconciled. Failures to record are logged, never thrown. */
export interface EventRecorder {
  normal(reason: string, message: string): Promise<void>;
  warning(reason: string, message: string): Promise<void>;
}

/** The one argument every hook receives. */
export interface HookContext {
  /** The custom resource at the internal version: a private copy. */
  readonly object: KubeObject;
  readonly crd: CrdInfo;
  /** JSON client to the API server (the runtime's own; see docs/hooks-and-constructors.md). */
  readonly client: KubeClient;
  /** The KubeConfig in use, for client-node's typed APIs. */
  readonly kubeConfig: KubeConfig;
  readonly cache: CacheReader;
  readonly logger: Logger;
  /** Aborted when the reconcile times out or the runtime stops: pass it to every call that takes one. */
  readonly signal: AbortSignal;
  readonly events: EventRecorder;
  /** Children observed for this object, by template kind and name (filled by the operatorBox templates). */
  readonly children: Readonly<Record<string, Readonly<Record<string, KubeObject>>>>;
  /**
   * The definition's `hooks.args` (`constructor.args` for a reconciler): a private copy, `{}` when none are
   * declared. In a hook, texts containing `{{` are rendered against this object; in `onNotFound` and a
   * reconciler they are as written (docs/orkestra-compatibility.md#hook-and-constructor-args).
   */
  readonly args: Readonly<Record<string, unknown>>;
}

/** What a hook or a reconciler may return: nothing, or a request to run again later. */
export type ReconcileResult = void | undefined | { readonly requeueAfter?: string | number | undefined };

/** The context of `onNotFound`: the object is gone, only its key remains. */
export type NotFoundContext = Omit<HookContext, 'object' | 'children'> & { readonly key: string };

/**
 * A set of hooks, registered under a name the definition references (`hooks: { function: WebsiteHooks }`) or
 * for a CRD directly. Every hook is optional.
 */
export interface Hooks {
  /** Every reconcile of a live object (after `onCreate` / `onUpdate` when those apply). */
  onReconcile?(ctx: HookContext): ReconcileResult | Promise<ReconcileResult>;
  /** The first reconcile of an object by this operator (before the cleanup finalizer is added). */
  onCreate?(ctx: HookContext): ReconcileResult | Promise<ReconcileResult>;
  /** A reconcile where `metadata.generation` moved since the last successful reconcile. */
  onUpdate?(ctx: HookContext): ReconcileResult | Promise<ReconcileResult>;
  /** The object is being deleted; runs before the finalizers are removed. Throwing keeps them and retries. */
  onDelete?(ctx: HookContext): ReconcileResult | Promise<ReconcileResult>;
  /** The key is no longer in the cache (the object is gone). */
  onNotFound?(ctx: NotFoundContext): ReconcileResult | Promise<ReconcileResult>;
}

/** The request handed to a custom reconciler. */
export interface ReconcileRequest {
  readonly key: string;
  readonly namespace: string | undefined;
  readonly name: string;
}

/** What a constructor returns: the reconciler that owns reconcile entirely (`operatorBox.default: false`). */
export interface Reconciler {
  reconcile(request: ReconcileRequest, ctx: ReconcilerContext): ReconcileResult | Promise<ReconcileResult>;
}

/** The context of a custom reconciler: like a hook's, but the object may be absent (deleted). */
export type ReconcilerContext = Omit<HookContext, 'object' | 'children'> & {
  readonly object: KubeObject | undefined;
  /**
   * The results of the definition's `constructor.external` calls, made for this cycle before the reconciler
   * runs, by call name (`{status, body, headers, error, called}`, or `{result, raw, error, called}` for a
   * Prometheus query): a private copy. `{}` when none are declared, and on the delete path (an object being
   * deleted or gone), which makes no calls (docs/orkestra-compatibility.md#constructor-external-calls).
   */
  readonly external: Readonly<Record<string, ExternalResult>>;
};

/** What a constructor receives, once per CRD activation. */
export interface ConstructorDeps {
  readonly crd: CrdInfo;
  /** The definition's `constructor.args`, as written (`{}` when none); optional for hand-made deps in tests. */
  readonly args?: Readonly<Record<string, unknown>>;
  readonly client: KubeClient;
  readonly kubeConfig: KubeConfig;
  readonly cache: CacheReader;
  readonly logger: Logger;
}

/** A custom constructor: called once per CRD activation; its reconciler is shared by all workers of the CRD. */
export type ConstructorFactory = (deps: ConstructorDeps) => Reconciler | Promise<Reconciler>;
