/**
 * Simulated workload controllers, after kwok's model: no container runs, but objects move through the stages a
 * cluster would take them through, each after a delay on the server's clock. A DaemonSet or ReplicaSet whose
 * generation is not yet observed gets its Pods (Pending) and a status that counts them; after `readyAfterMs` its Pods
 * run and are Ready (or crash, when told to fail) and the status says so. A StatefulSet's Pods are made, updated and
 * removed in kube's order (statefulset-controller.ts), run by the same stages. A Deployment rolls out through
 * ReplicaSets (deployment-controller.ts), moving on whenever one of them changes. A Job runs its Pods, which end
 * after `jobDurationMs` (job-controller.ts). A workload's Pod deleted by someone else is replaced (a ReplicaSet's at once,
 * under a new name; a DaemonSet's once it is gone). A bound Pod deleted gracefully is removed by
 * the simulated kubelet once it has stopped (pod-terminations.ts). PodDisruptionBudgets' statuses follow their Pods
 * (disruption-controller.ts). Everything runs as controller work of the
 * cluster (after the request that caused it), so it is deterministic under a fake clock.
 */
import type { Cluster } from '../../cluster.js';
import { isNotFound } from '../../status-errors.js';
import { controllerCreate, controllerDelete } from '../controller-writes.js';
import { KeyedWork, type SyncOutcome } from '../keyed-work.js';
import { isDeleting } from '../../operations/object-rules.js';
import { systemUpdate } from '../../operations/system-write.js';
import type { ResourceType } from '../../resources/resource-type.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../../store/record.js';
import { EventRecorder } from '../event-recorder.js';
import { BUDGETS_KEY } from '../../kinds/builtin/disruption-budgets.js';
import { DeferredTimers } from './deferred-timers.js';
import { DeploymentController, DEPLOYMENTS_KEY, REPLICA_SETS_KEY } from './deployment-controller.js';
import { DisruptionController } from './disruption-controller.js';
import { CronJobController, CRONJOBS_KEY } from './cronjob-controller.js';
import { JobController, JOBS_KEY } from './job-controller.js';
import { StatefulSetController } from './statefulset-controller.js';
import { podEnded, podManifest, podNames, runningPodStatus } from './pod-manifests.js';
import { PodTerminations } from './pod-terminations.js';
import { statusOf, unobserved } from './object-fields.js';
import { dependentsOf, KUBELET, liveObject, MANAGER, podView, PODS_KEY } from './owned-objects.js';
import { shouldFail, type Simulation } from './simulation-options.js';
import { workloadStatus, type PodSync } from './workload-status.js';

/** The kinds whose Pods the simulation keeps. */
const WORKLOAD_KINDS: Readonly<Record<string, string>> = {
  'apps/statefulsets': 'StatefulSet',
  'apps/daemonsets': 'DaemonSet',
  [REPLICA_SETS_KEY]: 'ReplicaSet',
};

/** The service account each kind's controller in kube-controller-manager writes as (the StatefulSet's: its own). */
const CONTROLLERS: Readonly<Record<string, string>> = {
  DaemonSet: 'daemon-set-controller',
  ReplicaSet: 'replicaset-controller',
};

/** The running simulation; `cancel()` drops every pending stage (reset, stop). */
export interface WorkloadSimulator {
  cancel(): void;
}

class Simulator implements WorkloadSimulator {
  private readonly timers: DeferredTimers;
  private readonly work: KeyedWork;
  private readonly statefulSets: StatefulSetController;
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
    this.work = new KeyedWork(cluster, (uid) => this.progress(uid));
    this.events = new EventRecorder(cluster, MANAGER);
    this.statefulSets = new StatefulSetController(cluster, this.events, (uid) => this.timers.schedule(uid, simulation.readyAfterMs, () => this.settle(uid)));
    this.deployments = new DeploymentController(cluster, simulation, this.events);
    this.terminations = new PodTerminations(cluster, simulation);
    this.disruptions = new DisruptionController(cluster, this.events);
    this.jobs = new JobController(cluster, simulation, this.events);
    this.cronJobs = new CronJobController(cluster, this.events);
  }

  cancel(): void {
    this.timers.cancel();
    this.work.cancel();
    this.deployments.cancel();
    this.terminations.cancel();
    this.disruptions.cancel();
    this.jobs.cancel();
    this.cronJobs.cancel();
  }

  /** Reacts to one commit: schedules the next stage of the object it concerns, if any. */
  observe(type: ResourceType, record: StoredRecord, deleted: boolean, prev: StoredRecord | undefined): void {
    const object = record.object;
    this.disruptions.observe(type, record, deleted, prev);
    if (type.key === BUDGETS_KEY) return;
    if (type.key === PODS_KEY) {
      this.terminations.observe(record, deleted);
      this.jobs.observePod(record, deleted);
      // A Pod that goes, starts going or ends moves its workload on: a ReplicaSet replaces it at once, a StatefulSet
      // or a DaemonSet once it is gone (a StatefulSet deletes one that ended); the counts change.
      const startsGoing = isDeleting(object) && (prev === undefined || !isDeleting(prev.object));
      const ends = podEnded(object) && (prev === undefined || !podEnded(prev.object));
      if (!deleted && !startsGoing && !ends) return;
      for (const ref of (metadataOf(object)['ownerReferences'] as { uid?: unknown }[] | undefined) ?? []) {
        const owner = typeof ref.uid === 'string' ? this.cluster.store.byUid(ref.uid) : undefined;
        if (owner !== undefined && WORKLOAD_KINDS[owner.key] !== undefined && !isDeleting(owner.record.object)) {
          const uid = owner.record.uid;
          this.cluster.defer(() => this.work.run(uid));
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
      this.work.forget(record.uid);
      return;
    }
    const uid = record.uid;
    if (type.key === DEPLOYMENTS_KEY) {
      if (unobserved(object)) this.deployments.request(uid);
      return;
    }
    if (WORKLOAD_KINDS[type.key] !== undefined && unobserved(object)) this.cluster.defer(() => this.work.run(uid));
  }

  private live(uid: string): { key: string; record: StoredRecord } | undefined {
    return liveObject(this.cluster, uid);
  }

  private pods(uid: string): StoredRecord[] {
    return dependentsOf(this.cluster, uid, PODS_KEY);
  }

  /**
   * Stage 1: the workload's Pods exist (Pending), its status counts them; stage 2 is scheduled. Its Pods are made and
   * deleted through admission, as its controller's: the first create refused stops the sync (as kube's slow start
   * and a StatefulSet's one-at-a-time do), which is tried again after the controller's backoff.
   */
  private async progress(uid: string): Promise<SyncOutcome> {
    const located = this.live(uid);
    const kind = located === undefined ? undefined : WORKLOAD_KINDS[located.key];
    const view = podView(this.cluster);
    if (located === undefined || kind === undefined || view === undefined) return 'done';
    if (kind === 'StatefulSet') return this.statefulSets.sync(located.record);
    const owner = located.record.object;
    const controller = CONTROLLERS[kind] ?? MANAGER;
    const pods = this.pods(uid);
    const wanted = podNames(kind, owner, pods, String(this.cluster.store.currentRevision));
    let deleteFailed = false;
    for (const pod of pods) {
      // A ReplicaSet leaves a Pod that ended for the Pod garbage collector, as kube's does.
      if (wanted.includes(pod.name) || isDeleting(pod.object) || (kind === 'ReplicaSet' && podEnded(pod.object))) continue;
      try {
        await controllerDelete(this.cluster, controller, view, pod);
      } catch (error) {
        // Gone meanwhile is what the delete wanted (kube's controllers ignore NotFound here too).
        if (isNotFound(error)) continue;
        this.failedPodWrite(kind, owner, 'Delete', pod.name, (error as Error).message);
        deleteFailed = true;
        continue;
      }
      this.podEvent(kind, owner, 'Delete', pod.name);
    }
    // kube's DaemonSet controller makes a node's Pod once the one there is gone.
    const waits = kind === 'DaemonSet' && this.pods(uid).some((pod) => isDeleting(pod.object));
    const apiVersion = String(owner['apiVersion']);
    const namespace = located.record.namespace;
    let refused: string | undefined;
    for (const name of waits ? [] : wanted) {
      if (this.cluster.store.get(PODS_KEY, namespace, name) !== undefined) continue;
      try {
        await controllerCreate(this.cluster, controller, view, podManifest(kind, apiVersion, owner, name), namespace);
      } catch (error) {
        refused = (error as Error).message;
        this.failedPodWrite(kind, owner, 'Create', name, refused);
        break;
      }
      this.podEvent(kind, owner, 'Create', name);
    }
    const pending = this.pods(uid).some((pod) => statusOf(pod.object)['phase'] === 'Pending');
    this.writeStatus(uid, kind, { refused, now: this.cluster.now() });
    if (pending) this.timers.schedule(uid, this.simulation.readyAfterMs, () => this.settle(uid));
    return refused === undefined && !deleteFailed ? 'done' : 'retry';
  }

  /** The Event of a Pod made or deleted, in its controller's words. */
  private podEvent(kind: string, owner: KubeObject, verb: 'Create' | 'Delete', pod: string): void {
    const involved = { apiVersion: 'apps/v1', kind, object: owner };
    this.events.record(`${kind.toLowerCase()}-controller`, involved, 'Normal', `Successful${verb}`, `${verb === 'Create' ? 'Created' : 'Deleted'} pod: ${pod}`);
  }

  /** The Warning Event of a Pod create or delete the API server refused, in its controller's words. */
  private failedPodWrite(kind: string, owner: KubeObject, verb: 'Create' | 'Delete', pod: string, error: string): void {
    const involved = { apiVersion: String(owner['apiVersion']), kind, object: owner };
    this.events.record(`${kind.toLowerCase()}-controller`, involved, 'Warning', `Failed${verb}`, `Error ${verb === 'Create' ? 'creating' : 'deleting'}: ${error}`);
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
    // A StatefulSet's sync writes its status, and makes its next Pod once this one is Ready.
    if (kind === 'StatefulSet') this.work.run(uid);
    else this.writeStatus(uid, kind);
    // Pods that crash change no count, so the Deployment is told: its rollout is now stuck.
    this.deployments.requestOwner(located.record.object);
  }

  private writeStatus(uid: string, kind: string, sync?: PodSync): void {
    const located = this.live(uid);
    if (located === undefined) return;
    const object = located.record.object;
    // kube's controllers count the active Pods, and the terminating ones that have not ended.
    const all = this.pods(uid).filter((pod) => !podEnded(pod.object));
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

/** Subscribes the simulated workload controllers to the cluster's commits. */
export function runWorkloadSimulation(cluster: Cluster, simulation: Simulation): WorkloadSimulator {
  const simulator = new Simulator(cluster, simulation);
  cluster.onCommit((type, event) => {
    if (type.key === PODS_KEY || type.key === BUDGETS_KEY || type.key === JOBS_KEY || type.key === CRONJOBS_KEY || type.key === DEPLOYMENTS_KEY || WORKLOAD_KINDS[type.key] !== undefined) simulator.observe(type, event.record, event.type === 'DELETED', event.prev);
  });
  return simulator;
}
