/**
 * The simulated Deployment controller: plans a sync of a Deployment over the ReplicaSets it controls
 * (deployment-sync.ts) and carries it out through the server's own write paths, as kube-controller-manager's
 * requests would be (ReplicaSets created, updated and deleted with validation, generation and managedFields; the
 * Deployment's revision annotation and status written last), with its `ScalingReplicaSet` Events. The ReplicaSets'
 * Pods are the ReplicaSet simulation's. A sync runs after the request that asked for it, once however often it was asked for meanwhile.
 */
import type { Cluster } from '../../cluster.js';
import { createObject } from '../../operations/create.js';
import { deleteObject } from '../../operations/delete.js';
import { isDeleting } from '../../operations/object-rules.js';
import { systemUpdate } from '../../operations/system-write.js';
import { updateObject } from '../../operations/update.js';
import type { EventRecorder } from '../event-recorder.js';
import { storageViewOf } from '../storage-view.js';
import { planDeploymentSync, type DeploymentPlan } from './deployment-sync.js';
import { controllerUid, replicasOf, statusOf } from './object-fields.js';
import { dependentsOf, liveObject, MANAGER, PODS_KEY } from './owned-objects.js';
import { nameOf, specReplicas, uidOf, type ReplicaSetState } from './replica-sets.js';
import { shouldFail, type Simulation } from './simulation-options.js';

export const DEPLOYMENTS_KEY = 'apps/deployments';
export const REPLICA_SETS_KEY = 'apps/replicasets';
const ENDED = new Set(['Succeeded', 'Failed']);

export class DeploymentController {
  private readonly pending = new Set<string>();

  constructor(
    private readonly cluster: Cluster,
    private readonly simulation: Simulation,
    private readonly events: EventRecorder,
  ) {}

  /** Asks for a sync of the Deployment with this uid. */
  request(uid: string): void {
    if (this.pending.has(uid)) return;
    this.pending.add(uid);
    this.cluster.defer(() => {
      this.pending.delete(uid);
      this.sync(uid);
    });
  }

  /** Forgets the syncs asked for (the cluster dropped its pending work: reset). */
  cancel(): void {
    this.pending.clear();
  }

  /** Asks for a sync of the Deployment controlling this ReplicaSet, if one does. */
  requestOwner(replicaSet: Record<string, unknown>): void {
    const owner = controllerUid(replicaSet, 'Deployment');
    if (owner !== undefined && liveObject(this.cluster, owner)?.key === DEPLOYMENTS_KEY) this.request(owner);
  }

  private sync(uid: string): void {
    const located = liveObject(this.cluster, uid);
    if (located === undefined || located.key !== DEPLOYMENTS_KEY) return;
    const deployment = located.record.object;
    const namespace = located.record.namespace;
    const replicaSets = dependentsOf(this.cluster, uid, REPLICA_SETS_KEY)
      .map((r) => r.object)
      .filter((rs) => controllerUid(rs, 'Deployment') === uid);
    const plan = planDeploymentSync(deployment, replicaSets, {
      now: this.cluster.now(),
      runningPods: (rsUid) => dependentsOf(this.cluster, rsUid, PODS_KEY).filter((pod) => !ENDED.has(String(statusOf(pod.object)['phase']))).length,
      stuck: (rs) => this.stuck(rs),
      replicaSetNamed: (name) => this.cluster.store.get(REPLICA_SETS_KEY, namespace, name)?.object,
    });
    this.carryOut(uid, namespace, plan);
  }

  /** The simulation's stuck rollout: the new ReplicaSet's Pods all run, crashing. */
  private stuck(rs: ReplicaSetState): boolean {
    if (rs.isNew || specReplicas(rs) === 0 || !shouldFail(rs.object, this.simulation)) return false;
    const pods = dependentsOf(this.cluster, uidOf(rs), PODS_KEY).filter((pod) => !isDeleting(pod.object));
    return pods.length >= specReplicas(rs) && pods.every((pod) => statusOf(pod.object)['phase'] !== 'Pending');
  }

  private carryOut(uid: string, namespace: string, plan: DeploymentPlan): void {
    const view = storageViewOf(this.cluster, REPLICA_SETS_KEY);
    if (view === undefined) return;
    const options = { manager: MANAGER, dryRun: false };
    const deployment = liveObject(this.cluster, uid)?.record.object;
    for (const rs of plan.replicaSets) {
      const before = rs.isNew ? 0 : replicasOf(this.cluster.store.get(REPLICA_SETS_KEY, namespace, nameOf(rs))?.object ?? rs.object);
      if (rs.deleted) deleteObject(this.cluster, view, namespace, nameOf(rs), {});
      // The creation time the plan ordered a new ReplicaSet by is replaced by the server's.
      else if (rs.isNew) createObject(this.cluster, view, rs.object, namespace, options);
      else if (rs.changed) updateObject(this.cluster, view, rs.object, { namespace, name: nameOf(rs), subresource: undefined }, options);
      const after = specReplicas(rs);
      if (!rs.deleted && after !== before && deployment !== undefined) {
        const message = `Scaled ${after > before ? 'up' : 'down'} replica set ${nameOf(rs)} from ${before} to ${after}`;
        this.events.record('deployment-controller', { apiVersion: 'apps/v1', kind: 'Deployment', object: deployment }, 'Normal', 'ScalingReplicaSet', message);
      }
    }
    const located = liveObject(this.cluster, uid);
    if (located === undefined) return;
    // One status write, the revision annotations with it, as kube-controller-manager's UpdateStatus sends them.
    const written = systemUpdate(
      this.cluster,
      DEPLOYMENTS_KEY,
      located.record,
      (next, metadata) => {
        if (Object.keys(plan.annotations).length > 0) metadata['annotations'] = plan.annotations;
        next['status'] = plan.status;
      },
      MANAGER,
    );
    // kube-controller-manager sees its own write as an update and syncs again (a rollout just completed cleans up
    // its old ReplicaSets then); a collision is retried the same way.
    if (written !== located.record || plan.retry) this.request(uid);
  }
}
