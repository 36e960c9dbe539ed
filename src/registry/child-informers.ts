/**
 * The runtime's informers on children: one per child kind (and version) for all the CRDs of the runtime, shared by
 * every CRD whose templates make that kind, as controller-runtime's shared cache is. With 100 CRDs that each make
 * ConfigMaps the runtime opens one ConfigMap list and watch, not 100, and the API server offers each ConfigMap write
 * to one watch.
 *
 * - Selector: `app.kubernetes.io/managed-by=katalog,katalog.dev/crd in (<every CRD name of the runtime>)`, fixed when
 *   the runtime is created, so it never changes while the runtime runs and a CRD activated late finds its children
 *   already cached (no relist). Past 4,096 characters it is `...,katalog.dev/crd` (exists) instead
 *   (ownership.ts, `childrenSelector`): the cache then also holds other runtimes' children, which nothing reads.
 * - Lifetime: the informer of a kind lists and watches from the first CRD's subscription and stops with the last
 *   one's (kube/shared-informer.ts counts them).
 * - Routing: a change goes to the CRD named by its object's `katalog.dev/crd` label and, for an update that changed
 *   the label, to the CRD of the previous label too; one Map lookup, whatever the number of CRDs. Restarts and errors
 *   go to every subscribed CRD.
 * - Index: one OwnerIndex per informer, fed from its first list on, answers each CRD's `ownedBy`.
 * - Version: CRDs almost always name a kind at the same version and share its informer; one whose templates name it
 *   at another version gets an informer of that version (shared with the CRDs that name it so), its manifests are
 *   compared with objects read at the version they were rendered at, as before.
 */
import type { Clock } from '../util/clock.js';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject, ResourceRef } from '../kube/resource.js';
import { SharedInformer } from '../kube/shared-informer.js';
import { OwnerIndex } from './owner-index.js';
import { childrenSelector, CRD_LABEL } from './ownership.js';
import type { InformerTuning } from '../kube/informer.js';

/** How the informer of a kind is opened (the first CRD to ask for a kind gives them; every CRD gives the same). */
export interface ChildInformerOptions {
  readonly client: KubeClient;
  readonly clock: Clock;
  readonly tuning?: InformerTuning | undefined;
}

/** The shared informer of one child kind: its subscribers' routes are CRD names. */
export type ChildInformer = SharedInformer<OwnerIndex>;

/** The CRD a child belongs to: its `katalog.dev/crd` label. */
export function crdOfChild(object: KubeObject): string | undefined {
  return object.metadata?.labels?.[CRD_LABEL];
}

export class ChildInformers {
  /** The label selector of every informer of this table. */
  readonly selector: string;
  private readonly informers = new Map<string, ChildInformer>();

  /** `crds`: every CRD name of the runtime (the set the selector names). */
  constructor(crds: Iterable<string>) {
    this.selector = childrenSelector(crds);
  }

  /** The informer of `resource`'s kind at its version, created (not opened) on first use. */
  of(resource: ResourceRef, options: ChildInformerOptions): ChildInformer {
    const key = `${resource.group}/${resource.version}/${resource.kind}`;
    let found = this.informers.get(key);
    if (found === undefined) {
      found = new SharedInformer({
        client: options.client,
        resource,
        labelSelector: this.selector,
        clock: options.clock,
        tuning: options.tuning,
        routeOf: crdOfChild,
        index: () => new OwnerIndex(),
      });
      this.informers.set(key, found);
    }
    return found;
  }
}
