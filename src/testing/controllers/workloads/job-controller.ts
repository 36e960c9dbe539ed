/**
 * The simulated Job controller, after kube-controller-manager's (checked against it, the probe acting as the
 * kubelet): a Job that is not suspended starts and makes its Pods (`<job>-<suffix>`, its template's labels, the
 * `batch.kubernetes.io/job-tracking` finalizer), `active` counting them. After `readyAfterMs` they run and are Ready
 * (`ready`); after `jobDurationMs` they end, Succeeded or, when told to fail, Failed. The Job then lists them in
 * `uncountedTerminatedPods` with the first condition of its end, takes its finalizer off each, and counts them:
 * `Complete` with `succeeded`, or `Failed` with `failed`. What kube spaces out, the simulation does at once: the Pods a
 * Job needs beyond its parallelism (its completions, or a failing Job's retries up to `backoffLimit` + 1, which kube
 * makes after a backoff of 10 s doubling) are made when the first end, and end with them.
 *
 * A Pod deleted while it runs is counted failed (`podReplacementPolicy: TerminatingOrFailed`, the default) or, with
 * `Failed`, once the kubelet has stopped it (Failed); the Job lists it, releases it, counts it and makes its
 * replacement at once (kube's after the same backoff), `terminating` counting the deleted Pods until they are gone.
 * Past `backoffLimit`, the Job deletes its other Pods and fails once they are gone.
 *
 * A Pod whose PodSecurity is refused is not made: the Job waits, started with nothing active, until its namespace's
 * labels change. A Job suspended deletes its Pods and says so (`Suspended`, no start time); resumed, it starts again
 * (`Suspended` False, `JobResumed`). A Pod of a Job that is gone, finished or suspended loses the finalizer, as kube's
 * controller releases it.
 */
import type { Cluster } from '../../cluster.js';
import { createObject } from '../../operations/create.js';
import { deleteObject } from '../../operations/delete.js';
import { finalizersOf, isDeleting } from '../../operations/object-rules.js';
import { removeFinalizer, systemUpdate } from '../../operations/system-write.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../../store/record.js';
import type { EventRecorder } from '../event-recorder.js';
import { DeferredTimers } from './deferred-timers.js';
import {
  BACKOFF_LIMIT,
  countedJobStatus,
  endingJobStatus,
  failingJobStatus,
  finishedJobStatus,
  jobFailedCount,
  jobEnding,
  jobFinished,
  jobSuspended,
  jobSuspendedCondition,
  lostPodsJobStatus,
  type PodCounts,
  runningJobStatus,
  suspendedJobStatus,
  terminatingJobStatus,
  waitingJobStatus,
} from './job-status.js';
import { statusOf } from './object-fields.js';
import { dependentsOf, KUBELET, liveObject, MANAGER, podView, PODS_KEY } from './owned-objects.js';
import { JOB_TRACKING, jobPodManifest } from './job-pod-manifest.js';
import { backoffLimitOf, completionIndexOf, countsFailed, indexedJob, indexesText, nextIndexes, parallelPods, parsedIndexes, podsToEnd } from './job-spec.js';
import { endedPodStatus, podEnded, podReady, runningPodStatus } from './pod-manifests.js';
import { controllerCreate } from '../controller-writes.js';
import { KeyedWork, type Backoff, type SyncOutcome } from '../keyed-work.js';
import { shouldFail, type Simulation } from './simulation-options.js';

export const JOBS_KEY = 'batch/jobs';


/** The controller's name: its Events' component, and the service account it writes as. */
const CONTROLLER = 'job-controller';

/** The Job controller's own backoff after a failed sync (DefaultJobApiBackOff, MaxJobApiBackOff). */
const JOB_BACKOFF: Backoff = { firstMs: 1000, longestMs: 60_000 };

export class JobController {
  private readonly timers: DeferredTimers;
  /** The Jobs starting: each makes its first Pods, one sync at a time, retried after a refusal. */
  private readonly starts: KeyedWork;

  constructor(
    private readonly cluster: Cluster,
    private readonly simulation: Simulation,
    private readonly events: EventRecorder,
  ) {
    this.timers = new DeferredTimers(cluster);
    this.starts = new KeyedWork(cluster, (uid) => this.run(uid), JOB_BACKOFF);
  }

  cancel(): void {
    this.timers.cancel();
    this.starts.cancel();
  }

  /**
   * A Job's commit: one not started (nor suspended) starts; one suspended that runs Pods or does not say so yet is
   * suspended; one going or gone has its stages dropped.
   */
  observe(record: StoredRecord, deleted: boolean): void {
    const uid = record.uid;
    const job = record.object;
    if (deleted || isDeleting(job)) {
      this.timers.clear(uid);
      this.timers.clear(`${uid}/ready`);
      this.starts.forget(uid);
      return;
    }
    if (jobFinished(job)) return;
    if (jobSuspended(job)) {
      if (!jobSuspendedCondition(job) || this.pods(uid).length > 0) this.cluster.defer(() => this.suspend(uid));
      return;
    }
    if (statusOf(job)['startTime'] === undefined) this.cluster.defer(() => this.start(uid));
  }

  /**
   * A Pod's commit: a running Job's Pod deleted, or gone, moves the Job on (counted, replaced; `terminating`); the Pod
   * of a Job that is gone, finished or suspended, being deleted, loses the tracking finalizer; a suspended Job's Pod
   * gone is no longer terminating.
   */
  observePod(pod: StoredRecord, deleted: boolean): void {
    const owner = this.ownerOf(pod);
    const running = owner !== undefined && !jobFinished(owner.object) && !jobSuspended(owner.object) && !isDeleting(owner.object);
    if (owner !== undefined && (deleted || isDeleting(pod.object))) {
      const uid = owner.uid;
      if (running) this.cluster.defer(() => this.podsChanged(uid));
      else if (deleted && jobSuspended(owner.object)) this.cluster.defer(() => this.suspend(uid));
    }
    if (deleted || running || !finalizersOf(pod.object).includes(JOB_TRACKING)) return;
    if (owner !== undefined && !isDeleting(pod.object)) return;
    const uid = pod.uid;
    this.cluster.defer(() => removeFinalizer(this.cluster, uid, JOB_TRACKING));
  }

  private ownerOf(pod: StoredRecord): StoredRecord | undefined {
    for (const ref of (metadataOf(pod.object)['ownerReferences'] as { uid?: unknown; controller?: unknown }[] | undefined) ?? []) {
      const owner = ref.controller === true && typeof ref.uid === 'string' ? this.cluster.store.byUid(ref.uid) : undefined;
      if (owner?.key === JOBS_KEY) return owner.record;
    }
    return undefined;
  }

  /** The Job, when it runs: not finished, failing, suspended or going. */
  private live(uid: string): StoredRecord | undefined {
    const job = liveObject(this.cluster, uid)?.record;
    return job === undefined || jobFinished(job.object) || jobEnding(job.object) !== undefined || jobSuspended(job.object) ? undefined : job;
  }

  /** The Job's Pods that are not being deleted. */
  private pods(uid: string): StoredRecord[] {
    return dependentsOf(this.cluster, uid, PODS_KEY).filter((pod) => !isDeleting(pod.object));
  }

  private start(uid: string): void {
    const job = this.live(uid);
    if (job !== undefined && statusOf(job.object)['startTime'] === undefined) this.starts.run(uid);
  }

  /**
   * The Job makes its Pods, through admission as kube's Job controller does, and counts them active; when the API
   * server refuses one (a policy, a webhook, PodSecurity), it stops there and waits (started, nothing active) with
   * the FailedCreate Event, and tries again after the Job controller's backoff (1 s, doubling, at most 60 s).
   */
  private async run(uid: string): Promise<SyncOutcome> {
    const record = this.live(uid);
    const view = podView(this.cluster);
    if (record === undefined || view === undefined || this.pods(uid).length > 0) return 'done';
    const job = record.object;
    const wanted = parallelPods(job);
    let made = 0;
    let refused = false;
    for (let i = 0; i < wanted && !refused; i++) {
      const manifest = this.manifest(job, uid, i);
      try {
        const pod = await controllerCreate(this.cluster, CONTROLLER, view, manifest, String(metadataOf(job)['namespace']));
        this.event(job, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.name}`);
        made += 1;
      } catch (error) {
        this.event(job, 'Warning', 'FailedCreate', `Error creating: ${(error as Error).message}`);
        refused = true;
      }
    }
    const current = this.live(uid);
    if (current === undefined) return 'done';
    const now = this.cluster.now();
    if (made === 0 && wanted > 0) {
      this.writeStatus(current, waitingJobStatus(current.object, now));
      return 'retry';
    }
    this.writeStatus(current, runningJobStatus(current.object, now, { active: made }));
    if (jobSuspendedCondition(job)) this.event(job, 'Normal', 'Resumed', 'Job resumed');
    // A Job without Pods to run (parallelism 0) waits, as kube's does.
    if (wanted > 0) this.schedule(uid);
    return refused ? 'retry' : 'done';
  }

  /**
   * A suspended Job deletes its Pods (their finalizer taken off first) and says so: `Suspended`, no start time (a
   * resumed Job starts again), `terminating` counting the Pods until they are gone.
   */
  private suspend(uid: string): void {
    const located = liveObject(this.cluster, uid);
    if (located === undefined || jobFinished(located.record.object) || !jobSuspended(located.record.object)) return;
    this.timers.clear(uid);
    this.timers.clear(`${uid}/ready`);
    const job = located.record.object;
    const view = podView(this.cluster);
    if (view !== undefined) {
      for (const pod of this.pods(uid)) {
        removeFinalizer(this.cluster, pod.uid, JOB_TRACKING);
        deleteObject(this.cluster, view, pod.namespace, pod.name, {});
        this.event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.name}`);
      }
    }
    const terminating = dependentsOf(this.cluster, uid, PODS_KEY).length;
    const record = liveObject(this.cluster, uid)?.record;
    if (record === undefined) return;
    this.writeStatus(record, suspendedJobStatus(job, this.cluster.now(), terminating));
    if (!jobSuspendedCondition(job)) this.event(job, 'Normal', 'Suspended', 'Job suspended');
  }

  /**
   * A running Job's Pods changed: those deleted that it counts failed are listed, released, counted and replaced
   * (past `backoffLimit`, the Job fails instead); otherwise `terminating` follows those still going. A failing Job
   * says `Failed` once its Pods are gone.
   */
  private podsChanged(uid: string): void {
    const record = liveObject(this.cluster, uid)?.record;
    if (record === undefined || jobFinished(record.object) || jobSuspended(record.object)) return;
    const job = record.object;
    if (jobEnding(job) !== undefined) return this.endWhenGone(record);
    if (statusOf(job)['startTime'] === undefined) return;
    const now = this.cluster.now();
    const lost = dependentsOf(this.cluster, uid, PODS_KEY).filter((pod) => isDeleting(pod.object) && finalizersOf(pod.object).includes(JOB_TRACKING) && countsFailed(job, pod.object));
    if (lost.length === 0) return void this.writeStatus(record, runningJobStatus(job, now, this.countsOf(uid)));
    if (jobFailedCount(job) + lost.length > backoffLimitOf(job)) return this.failLost(record, lost);
    this.writeStatus(record, lostPodsJobStatus(job, now, this.countsOf(uid), lost.map((pod) => pod.uid)));
    for (const pod of lost) removeFinalizer(this.cluster, pod.uid, JOB_TRACKING);
    const listed = this.live(uid);
    if (listed === undefined) return;
    this.writeStatus(listed, countedJobStatus(listed.object, now, this.countsOf(uid), { failed: lost.length }));
    // The replacements, at once (kube makes them after a backoff of 10 s, doubling): they run from now.
    const missing = parallelPods(listed.object) - this.countsOf(uid).active;
    if (missing <= 0) return;
    // An Indexed Job's replacements take the indexes of the Pods lost.
    const indexes = lost.map((pod) => completionIndexOf(pod.object) ?? 0);
    for (let i = 0; i < missing; i++) this.makePod(listed.object, this.manifest(listed.object, uid, indexes[i] ?? i));
    const counted = this.live(uid);
    if (counted === undefined) return;
    this.writeStatus(counted, runningJobStatus(counted.object, now, this.countsOf(uid)));
    this.schedule(uid);
  }

  /**
   * The Job's deleted Pods took it past its backoffLimit: it deletes its other Pods, lists them all failed with
   * `FailureTarget`, releases and counts them, and fails once they are gone.
   */
  private failLost(record: StoredRecord, lost: readonly StoredRecord[]): void {
    const uid = record.uid;
    const job = record.object;
    this.timers.clear(uid);
    this.timers.clear(`${uid}/ready`);
    const active = this.pods(uid).filter((pod) => !podEnded(pod.object));
    const view = podView(this.cluster);
    if (view !== undefined) {
      for (const pod of active) {
        deleteObject(this.cluster, view, pod.namespace, pod.name, {});
        this.event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.name}`);
      }
    }
    const listed = [...lost, ...active];
    const now = this.cluster.now();
    this.writeStatus(record, failingJobStatus(job, now, this.countsOf(uid).terminating, listed.map((pod) => pod.uid)));
    for (const pod of listed) removeFinalizer(this.cluster, pod.uid, JOB_TRACKING);
    const failing = liveObject(this.cluster, uid)?.record;
    if (failing === undefined) return;
    this.writeStatus(failing, countedJobStatus(failing.object, now, this.countsOf(uid), { failed: listed.length }));
    this.endWhenGone(liveObject(this.cluster, uid)?.record ?? failing);
  }

  /**
   * An ending Job (`FailureTarget` or `SuccessCriteriaMet`, its Pods counted): `terminating` follows its Pods still
   * going; once none is, it says `Failed` or `Complete`, as kube's Job controller waits for them.
   */
  private endWhenGone(record: StoredRecord): void {
    const failed = jobEnding(record.object) === 'failed';
    const terminating = this.countsOf(record.uid).terminating;
    const now = this.cluster.now();
    const written = systemUpdate(this.cluster, JOBS_KEY, record, (next) => void (next['status'] = terminatingJobStatus(record.object, now, terminating)), MANAGER);
    if (terminating > 0) return;
    this.writeStatus(written, finishedJobStatus(written.object, now, failed, 0));
    this.ended(written.object, failed);
  }

  /** The Job controller's Event of a Job's end: its Failed condition's reason and message as a Warning, or Completed. */
  private ended(job: KubeObject, failed: boolean): void {
    if (failed) this.event(job, 'Warning', BACKOFF_LIMIT.reason, BACKOFF_LIMIT.message);
    else this.event(job, 'Normal', 'Completed', 'Job completed');
  }

  /** The Job's Pods, counted for its status. */
  private countsOf(uid: string): Required<PodCounts> {
    let active = 0;
    let ready = 0;
    let terminating = 0;
    for (const pod of dependentsOf(this.cluster, uid, PODS_KEY)) {
      if (podEnded(pod.object)) continue;
      if (isDeleting(pod.object)) terminating += 1;
      else {
        active += 1;
        if (podReady(pod.object)) ready += 1;
      }
    }
    return { active, ready, terminating };
  }

  /** The Job's Pods are Ready after `readyAfterMs` and end after `jobDurationMs`, from now. */
  private schedule(uid: string): void {
    if (this.simulation.readyAfterMs < this.simulation.jobDurationMs) this.timers.schedule(`${uid}/ready`, this.simulation.readyAfterMs, () => this.ready(uid));
    this.timers.schedule(uid, this.simulation.jobDurationMs, () => this.finish(uid));
  }

  /** The Job's Pods run and are Ready; `ready` counts them. */
  private ready(uid: string): void {
    const now = this.cluster.now();
    this.pods(uid).forEach((pod, index) => {
      if (statusOf(pod.object)['phase'] !== 'Pending') return;
      systemUpdate(this.cluster, PODS_KEY, pod, (next) => void (next['status'] = runningPodStatus(pod.object, index, now, false)), KUBELET);
    });
    const record = this.live(uid);
    if (record === undefined) return;
    this.writeStatus(record, runningJobStatus(record.object, now, this.countsOf(uid)));
  }

  /**
   * The Job's Pods end (with those it needs beyond them, made now), Succeeded or Failed; the Job lists them, releases
   * them, then counts them and ends.
   */
  private finish(uid: string): void {
    this.timers.clear(`${uid}/ready`);
    const record = this.live(uid);
    if (record === undefined) return;
    const job = record.object;
    const failed = shouldFail(job, this.simulation);
    const pods = this.pods(uid).filter((pod) => !podEnded(pod.object));
    const needed = podsToEnd(job, failed, pods.length);
    const completed = parsedIndexes(statusOf(job)['completedIndexes']);
    const indexes = nextIndexes(job, pods.map((pod) => completionIndexOf(pod.object) ?? 0), completed, Math.max(0, needed - pods.length));
    for (let i = pods.length; i < needed; i++) {
      const made = this.makePod(job, this.manifest(job, uid, indexedJob(job) ? (indexes[i - pods.length] ?? 0) : i));
      if (made !== undefined) pods.push(made);
    }
    // An Indexed Job that succeeds has completed the indexes of its Pods.
    const completedIndexes = indexedJob(job) && !failed ? indexesText([...completed, ...pods.map((pod) => completionIndexOf(pod.object) ?? 0)]) : undefined;
    const now = this.cluster.now();
    for (const pod of pods) systemUpdate(this.cluster, PODS_KEY, pod, (next) => void (next['status'] = endedPodStatus(pod.object, now, failed)), KUBELET);
    const listed = this.live(uid);
    if (listed === undefined) return;
    // An Indexed Job counts its succeeded Pods by index at once (kube lists no uid of them in uncountedTerminatedPods).
    const byIndex = completedIndexes !== undefined;
    this.writeStatus(listed, endingJobStatus(listed.object, now, failed, byIndex ? [] : pods.map((pod) => pod.uid), byIndex ? { succeeded: pods.length, completedIndexes } : undefined));
    for (const pod of pods) removeFinalizer(this.cluster, pod.uid, JOB_TRACKING);
    // Listed, an ending Job is no longer `live`: it is counted all the same.
    const counted = liveObject(this.cluster, uid)?.record;
    if (counted === undefined) return;
    // Deleted Pods still going hold the end back until they are gone (endWhenGone).
    const terminating = this.countsOf(uid).terminating;
    const added = byIndex ? 0 : pods.length;
    if (terminating > 0) return void this.writeStatus(counted, countedJobStatus(counted.object, now, { active: 0, terminating }, failed ? { failed: added } : { succeeded: added }));
    this.writeStatus(counted, finishedJobStatus(counted.object, now, failed, added));
    this.ended(job, failed);
  }

  /** The manifest of the Job's Pod number `index` of this round (job-pod-manifest.ts). */
  private manifest(job: KubeObject, uid: string, index: number): KubeObject {
    return jobPodManifest(job, `${uid}/${this.cluster.store.currentRevision}/${index}`, index);
  }

  /** Makes a Pod of the Job, with the Job controller's Event; undefined when the Pod resource is gone. */
  private makePod(job: KubeObject, manifest: KubeObject): StoredRecord | undefined {
    const view = podView(this.cluster);
    if (view === undefined) return undefined;
    const made = createObject(this.cluster, view, manifest, String(metadataOf(job)['namespace']), { manager: MANAGER, dryRun: false });
    this.event(job, 'Normal', 'SuccessfulCreate', `Created pod: ${made.name}`);
    return made;
  }

  private writeStatus(record: StoredRecord, status: Record<string, unknown>): void {
    systemUpdate(this.cluster, JOBS_KEY, record, (next) => void (next['status'] = status), MANAGER);
  }

  private event(job: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.events.record(CONTROLLER, { apiVersion: 'batch/v1', kind: 'Job', object: job }, type, reason, message);
  }
}
