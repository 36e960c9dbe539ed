/**
 * Simulated workload controllers, after kwok's model: no container runs, but objects move through the stages a
 * cluster would take them through, each after a delay on the server's clock. A StatefulSet, DaemonSet or ReplicaSet
 * whose generation is not yet observed gets its Pods (Pending) and a status that counts them; after `readyAfterMs`
 * its Pods run and are Ready (or crash, when told to fail) and the status says so. A Deployment rolls out through
 * ReplicaSets (deployment-controller.ts), moving on whenever one of them changes. A Job runs its Pods, which end
 * after `jobDurationMs` (job-controller.ts). A workload's Pod deleted by someone else is replaced (a ReplicaSet's at once,
 * under a new name; a StatefulSet's or DaemonSet's once it is gone). A bound Pod deleted gracefully is removed by
 * the simulated kubelet once it has stopped (pod-terminations.ts). PodDisruptionBudgets' statuses follow their Pods
 * (disruption-controller.ts). Everything runs as controller work of the
 * cluster (after the request that caused it), so it is deterministic under a fake clock.
 */
import type { Cluster } from '../../cluster.js';
import { createObject } from '../../operations/create.js';
import { deleteObject } from '../../operations/delete.js';
import { isDeleting } from '../../operations/object-rules.js';
import { systemUpdate } from '../../operations/system-write.js';
import type { ResourceType } from '../../resources/resource-type.js';
import { jsonEqual } from '../../patch/json-value.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../../store/record.js';
import { EventRecorder } from '../event-recorder.js';
import { BUDGETS_KEY } from '../../kinds/builtin/disruption-budgets.js';
import { NAMESPACES_KEY } from '../../resources/builtin-resources.js';
import { DeferredTimers } from './deferred-timers.js';
import { DeploymentController, DEPLOYMENTS_KEY, REPLICA_SETS_KEY } from './deployment-controller.js';
import { DisruptionController } from './disruption-controller.js';
import { CronJobController, CRONJOBS_KEY } from './cronjob-controller.js';
import { JobController, JOBS_KEY } from './job-controller.js';
import { desiredReplicas, podManifest, podNames, runningPodStatus } from './pod-manifests.js';
import { podRefusal, podView } from './pod-refusal.js';
import { PodTerminations } from './pod-terminations.js';
import { statusOf, unobserved } from './object-fields.js';
import { dependentsOf, KUBELET, liveObject, MANAGER, PODS_KEY } from './owned-objects.js';
import { shouldFail, type Simulation } from './simulation-options.js';
import { workloadStatus, type PodSync } from './workload-status.js';

/** The kinds whose Pods the simulation keeps. */
const WORKLOAD_KINDS: Readonly<Record<string, string>> = {
  'apps/statefulsets': 'StatefulSet',
  'apps/daemonsets': 'DaemonSet',
  [REPLICA_SETS_KEY]: 'ReplicaSet',
};

/** The running simulation; `cancel()` drops every pending stage (reset, stop). */
export interface WorkloadSimulator {
  cancel(): void;
}

class Simulator implements WorkloadSimulator {
  private readonly timers: DeferredTimers;
  private readonly deployments: DeploymentController;
  private readonly terminations: PodTerminations;
  private readonly disruptions: DisruptionController;
  private readonly jobs: JobController;
  private readonly cronJobs: CronJobController;
  private readonly events: EventRecorder;

  constructor(
    private readonly cluster: Cluster,
    private readonly simulation: Simulation,
  ) {
    this.timers = new DeferredTimers(cluster);
    this.events = new EventRecorder(cluster, MANAGER);
    this.deployments = new DeploymentController(cluster, simulation, this.events);
    this.terminations = new PodTerminations(cluster, simulation);
    this.disruptions = new DisruptionController(cluster, this.events);
    this.jobs = new JobController(cluster, simulation, this.events);
    this.cronJobs = new CronJobController(cluster, this.events);
  }

  cancel(): void {
    this.timers.cancel();
    this.deployments.cancel();
    this.terminations.cancel();
    this.disruptions.cancel();
    this.jobs.cancel();
    this.cronJobs.cancel();
  }

  /** Reacts to one commit: schedules the next stage of the object it concerns, if any. */
  observe(type: ResourceType, record: StoredRecord, deleted: boolean, prev: StoredRecord | undefined): void {
    const object = record.object;
    if (type.key === NAMESPACES_KEY) {
      if (!deleted && prev !== undefined && !sameLabels(prev.object, object)) this.relabelled(record.name);
      return;
    }
    this.disruptions.observe(type, record, deleted, prev);
    if (type.key === BUDGETS_KEY) return;
    if (type.key === PODS_KEY) {
      this.terminations.observe(record, deleted);
      this.jobs.observePod(record, deleted);
      // A Pod that goes, or starts going, moves its workload on: a ReplicaSet replaces it at once, a StatefulSet or
      // a DaemonSet once it is gone; the counts change.
      const startsGoing = isDeleting(object) && (prev === undefined || !isDeleting(prev.object));
      if (!deleted && !startsGoing) return;
      for (const ref of (metadataOf(object)['ownerReferences'] as { uid?: unknown }[] | undefined) ?? []) {
        const owner = typeof ref.uid === 'string' ? this.cluster.store.byUid(ref.uid) : undefined;
        if (owner !== undefined && WORKLOAD_KINDS[owner.key] !== undefined && !isDeleting(owner.record.object)) {
          const uid = owner.record.uid;
          this.cluster.defer(() => this.progress(uid));
        }
      }
      return;
    }
    if (type.key === JOBS_KEY) {
      this.jobs.observe(record, deleted);
      this.cronJobs.observeJob(record);
      return;
    }
    if (type.key === CRONJOBS_KEY) {
      this.cronJobs.observe(record, deleted);
      return;
    }
    // A ReplicaSet's change, its deletion included, moves its Deployment's rollout on.
    if (type.key === REPLICA_SETS_KEY) this.deployments.requestOwner(object);
    if (deleted || isDeleting(object)) {
      this.timers.clear(record.uid);
      return;
    }
    const uid = record.uid;
    if (type.key === DEPLOYMENTS_KEY) {
      if (unobserved(object)) this.deployments.request(uid);
      return;
    }
    if (WORKLOAD_KINDS[type.key] !== undefined && unobserved(object)) this.cluster.defer(() => this.progress(uid));
  }

  private live(uid: string): { key: string; record: StoredRecord } | undefined {
    return liveObject(this.cluster, uid);
  }

  private pods(uid: string): StoredRecord[] {
    return dependentsOf(this.cluster, uid, PODS_KEY);
  }

  /** Stage 1: the workload's Pods exist (Pending), its status counts them; stage 2 is scheduled. */
  private progress(uid: string): void {
    const located = this.live(uid);
    const kind = located === undefined ? undefined : WORKLOAD_KINDS[located.key];
    const view = podView(this.cluster);
    if (located === undefined || kind === undefined || view === undefined) return;
    const owner = located.record.object;
    const pods = this.pods(uid);
    const wanted = podNames(kind, owner, pods, String(this.cluster.store.currentRevision));
    for (const pod of pods) {
      if (wanted.includes(pod.name) || isDeleting(pod.object)) continue;
      deleteObject(this.cluster, view, pod.namespace, pod.name, {});
      this.podEvent(kind, owner, 'Delete', pod.name);
    }
    // kube's DaemonSet controller makes a node's Pod once the one there is gone.
    const waits = kind === 'DaemonSet' && this.pods(uid).some((pod) => isDeleting(pod.object));
    const apiVersion = String(owner['apiVersion']);
    let refused: string | undefined;
    for (const name of waits ? [] : wanted) {
      const namespace = located.record.namespace;
      if (this.cluster.store.get(PODS_KEY, namespace, name) !== undefined) continue;
      const refusal = podRefusal(this.cluster, owner, podManifest(kind, apiVersion, owner, name));
      if (refusal !== undefined) {
        this.failedCreate(kind, owner, name, refusal);
        refused ??= refusal;
        continue;
      }
      createObject(this.cluster, view, podManifest(kind, apiVersion, owner, name), namespace, { manager: MANAGER, dryRun: false });
      this.podEvent(kind, owner, 'Create', name);
    }
    const pending = this.pods(uid).some((pod) => statusOf(pod.object)['phase'] === 'Pending');
    this.writeStatus(uid, kind, { refused, now: this.cluster.now() });
    if (pending) this.timers.schedule(uid, this.simulation.readyAfterMs, () => this.settle(uid));
  }

  /**
   * A namespace's labels changed, PodSecurity's among them: its workloads that lack Pods, and its Jobs whose Pods were
   * refused, try again at once, as kube's controllers retry a refused create with backoff (retried here only when the
   * refusal may have changed).
   */
  private relabelled(namespace: string): void {
    for (const [key, kind] of Object.entries(WORKLOAD_KINDS)) {
      for (const record of this.cluster.store.list(key, namespace)) {
        const live = this.pods(record.uid).filter((pod) => !isDeleting(pod.object));
        if (isDeleting(record.object) || live.length >= desiredReplicas(kind, record.object)) continue;
        const uid = record.uid;
        this.cluster.defer(() => this.progress(uid));
      }
    }
    this.jobs.relabelled(namespace);
  }

  /** The Event of a Pod made or deleted, in its controller's words (a StatefulSet's differ from the others'). */
  private podEvent(kind: string, owner: KubeObject, verb: 'Create' | 'Delete', pod: string): void {
    const involved = { apiVersion: 'apps/v1', kind, object: owner };
    if (kind === 'StatefulSet') {
      const set = String(metadataOf(owner)['name']);
      this.events.record('statefulset-controller', involved, 'Normal', `Successful${verb}`, `${verb} Pod ${pod} in StatefulSet ${set} successful`);
      return;
    }
    this.events.record(`${kind.toLowerCase()}-controller`, involved, 'Normal', `Successful${verb}`, `${verb === 'Create' ? 'Created' : 'Deleted'} pod: ${pod}`);
  }

  /** The Warning Event of a Pod the API server refused, in its controller's words (a StatefulSet's differ). */
  private failedCreate(kind: string, owner: KubeObject, pod: string, error: string): void {
    const involved = { apiVersion: String(owner['apiVersion']), kind, object: owner };
    const message = kind === 'StatefulSet' ? `create Pod ${pod} in StatefulSet ${String(metadataOf(owner)['name'])} failed error: ${error}` : `Error creating: ${error}`;
    this.events.record(kind === 'StatefulSet' ? 'statefulset-controller' : `${kind.toLowerCase()}-controller`, involved, 'Warning', 'FailedCreate', message);
  }

  /** Stage 2: the Pending Pods run (Ready, or crashing); the status says so. */
  private settle(uid: string): void {
    const located = this.live(uid);
    const kind = located === undefined ? undefined : WORKLOAD_KINDS[located.key];
    if (located === undefined || kind === undefined) return;
    const crashing = shouldFail(located.record.object, this.simulation);
    const now = this.cluster.now();
    this.pods(uid).forEach((pod, index) => {
      if (statusOf(pod.object)['phase'] !== 'Pending' || isDeleting(pod.object)) return;
      systemUpdate(
        this.cluster,
        PODS_KEY,
        pod,
        (next) => {
          next['status'] = runningPodStatus(pod.object, index, now, crashing);
        },
        KUBELET,
      );
    });
    this.writeStatus(uid, kind);
    // Pods that crash change no count, so the Deployment is told: its rollout is now stuck.
    this.deployments.requestOwner(located.record.object);
  }

  private writeStatus(uid: string, kind: string, sync?: PodSync): void {
    const located = this.live(uid);
    if (located === undefined) return;
    const object = located.record.object;
    const all = this.pods(uid);
    const pods = all.filter((pod) => !isDeleting(pod.object)).map((pod) => pod.object);
    const status = workloadStatus(kind, object, pods, all.length - pods.length, sync);
    systemUpdate(
      this.cluster,
      located.key,
      located.record,
      (next) => {
        next['status'] = status;
      },
      MANAGER,
    );
  }
}

function sameLabels(a: KubeObject, b: KubeObject): boolean {
  return jsonEqual(metadataOf(a)['labels'] ?? {}, metadataOf(b)['labels'] ?? {});
}

/** Subscribes the simulated workload controllers to the cluster's commits. */
export function runWorkloadSimulation(cluster: Cluster, simulation: Simulation): WorkloadSimulator {
  const simulator = new Simulator(cluster, simulation);
  cluster.onCommit((type, event) => {
    if (type.key === PODS_KEY || type.key === NAMESPACES_KEY || type.key === BUDGETS_KEY || type.key === JOBS_KEY || type.key === CRONJOBS_KEY || type.key === DEPLOYMENTS_KEY || WORKLOAD_KINDS[type.key] !== undefined) simulator.observe(type, event.record, event.type === 'DELETED', event.prev);
  });
  return simulator;
}
