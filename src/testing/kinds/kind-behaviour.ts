/**
 * Per-kind write behaviour beyond the common rules: what a real server's registry strategies do on create and
 * update for Namespaces (spec.finalizers, phase), CustomResourceDefinitions (validation, status, cleanup finalizer)
 * and the built-in kinds of builtin/registry-behaviours.ts (first status, Pod admission, Service addresses...).
 */
import { asObject } from '../patch/json-value.js';
import { CRDS_KEY, NAMESPACES_KEY } from '../resources/builtin-resources.js';
import type { ResourceRegistry } from '../resources/registry.js';
import type { ObjectStore } from '../store/object-store.js';
import type { GracePeriodRule } from '../operations/graceful-deletion.js';
import type { KubeObject, StoredRecord } from '../store/record.js';
import { REGISTRY_BEHAVIOURS } from './builtin/registry-behaviours.js';
import { prepareCrdCreate, prepareCrdUpdate, refreshCrdStatus } from './crd-rules.js';

export interface KindContext {
  readonly registry: ResourceRegistry;
  /** The stored objects, for what a write depends on (the addresses other Services hold, a Pod's PriorityClass). */
  readonly store: ObjectStore;
  readonly now: string;
  /** Receives the warnings the write earns (a CRD schema kube-apiserver warns about), for the answer's headers. */
  readonly warn?: ((warning: string) => void) | undefined;
}

export interface KindBehaviour {
  /** Whether the kind's own validation reports a bad name, among its other problems, as kube-apiserver does for CRDs. */
  readonly checksName?: boolean;
  /** Adjusts a new object before it is stored; may throw a StatusError. */
  prepareCreate(next: KubeObject, ctx: KindContext): void;
  /** Adjusts an updated object before it is stored; may throw a StatusError. */
  prepareUpdate(next: KubeObject, prev: StoredRecord, ctx: KindContext): void;
  /**
   * Kinds that delete gracefully (kube's CheckGracefulDelete; Pods): the grace period a new deletion starts with,
   * given the one the request asked for (graceful-deletion.ts).
   */
  readonly gracePeriod?: GracePeriodRule;
  /** Adjusts an object that is being marked for deletion (deletionTimestamp already set). */
  prepareDelete?(next: KubeObject, prev: StoredRecord, ctx: KindContext): void;
  /**
   * The metadata fields a `/status` write keeps from the stored object, beside the system fields (its status
   * strategy's PrepareForUpdate: a Deployment's labels, a Pod's owner references); the rest comes from the request.
   */
  readonly statusKeeps?: readonly string[];
  /** Adjusts the status of a `/status` write from the stored object's (its status strategy's PrepareForUpdate). */
  prepareStatusUpdate?(next: KubeObject, prev: KubeObject): void;
}

/** The finalizer the namespace controller owns (in `spec.finalizers`). */
export const NAMESPACE_FINALIZER = 'kubernetes';

const namespaceBehaviour: KindBehaviour = {
  prepareCreate(next) {
    const spec = asObject(next['spec']);
    next['spec'] = { ...spec, finalizers: Array.isArray(spec['finalizers']) ? spec['finalizers'] : [NAMESPACE_FINALIZER] };
    next['status'] = { phase: 'Active' };
  },
  prepareUpdate(next, prev) {
    // spec.finalizers only changes through /finalize (here: the namespace controller).
    if (prev.object['spec'] === undefined) delete next['spec'];
    else next['spec'] = prev.object['spec'];
  },
};

const crdBehaviour: KindBehaviour = {
  checksName: true,
  prepareCreate(next, ctx) {
    prepareCrdCreate(next, ctx.registry, ctx.now, ctx.warn);
  },
  prepareUpdate(next, prev, ctx) {
    prepareCrdUpdate(next, prev, ctx.registry, ctx.now, ctx.warn);
  },
  prepareDelete(next, prev, ctx) {
    refreshCrdStatus(next, prev, ctx.registry, ctx.now);
  },
};

const BEHAVIOURS: ReadonlyMap<string, KindBehaviour> = new Map([...REGISTRY_BEHAVIOURS, [NAMESPACES_KEY, namespaceBehaviour], [CRDS_KEY, crdBehaviour]]);

/** The behaviour of a resource key, if it has one. */
export function behaviourOf(key: string): KindBehaviour | undefined {
  return BEHAVIOURS.get(key);
}
