/**
 * The simulated CronJob controller, after kube-controller-manager's (checked against it, the probe acting as the
 * kubelet), on the server's clock: when the schedule is due it makes the Job `<cronjob>-<minutes since the epoch>`
 * from the template (its labels and annotations, `batch.kubernetes.io/cronjob-scheduled-timestamp`, owned by the
 * CronJob; `SuccessfulCreate`), lists it in `status.active` and sets `lastScheduleTime`. A Job that finishes leaves
 * `active` (`SawCompletedJob`; a Complete one sets `lastSuccessfulTime`), and the finished Jobs past the history
 * limits are deleted, oldest first (`SuccessfulDelete`). `concurrencyPolicy` Forbid skips a run while one is active
 * (`JobAlreadyActive`), Replace deletes the active ones first; `suspend` stops new runs; `startingDeadlineSeconds`
 * skips a run that is too late (`MissSchedule`). One run is made for many missed ones, the latest, as kube's does.
 */
import { rfc3339, type Cluster } from '../../cluster.js';
import { StatusError } from '../../status-errors.js';
import { controllerCreate, controllerDelete } from '../controller-writes.js';
import { KeyedWork, type SyncOutcome } from '../keyed-work.js';
import { isDeleting } from '../../operations/object-rules.js';
import { systemUpdate } from '../../operations/system-write.js';
import { asObject } from '../../patch/json-value.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../../store/record.js';
import type { EventRecorder } from '../event-recorder.js';
import { storageViewOf } from '../storage-view.js';
import type { ResourceView } from '../../resources/resource-type.js';
import { cronTimes, MANY_MISSED, mostRecentDue, zonedRfc3339, type CronTimes } from './cronjob-schedule.js';
import { DeferredTimers } from './deferred-timers.js';
import { JOBS_KEY } from './job-controller.js';
import { jobEnd } from './job-status.js';
import { count, statusOf } from './object-fields.js';
import { dependentsOf, liveObject, MANAGER } from './owned-objects.js';

export const CRONJOBS_KEY = 'batch/cronjobs';

/** The controller's name: its Events' component, and the service account it writes as. */
const CONTROLLER = 'cronjob-controller';

/** The annotation with the time a CronJob's Job was due, in the CronJob's zone. */
export const SCHEDULED_TIMESTAMP = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

/** A CronJob's reference to one of its Jobs in `status.active` (an ObjectReference, Go's field order). */
interface JobReference {
  readonly kind: 'Job';
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly apiVersion: 'batch/v1';
  readonly resourceVersion: string;
}

function referenceOf(job: StoredRecord): JobReference {
  return { kind: 'Job', namespace: job.namespace, name: job.name, uid: job.uid, apiVersion: 'batch/v1', resourceVersion: String(metadataOf(job.object)['resourceVersion']) };
}

/** What a sync knows of a CronJob's status, changed as it goes. */
interface CronJobState {
  active: JobReference[];
  lastSchedule: string | undefined;
  lastSuccessful: string | undefined;
}

export class CronJobController {
  private readonly timers: DeferredTimers;
  private readonly work: KeyedWork;

  constructor(
    private readonly cluster: Cluster,
    private readonly events: EventRecorder,
  ) {
    this.timers = new DeferredTimers(cluster);
    this.work = new KeyedWork(cluster, (uid) => this.sync(uid));
  }

  cancel(): void {
    this.timers.cancel();
    this.work.cancel();
  }

  /** A CronJob's commit: it is synced (its schedule read again); one gone has its timers dropped. */
  observe(record: StoredRecord, deleted: boolean): void {
    const uid = record.uid;
    if (deleted || isDeleting(record.object)) {
      this.timers.clear(uid);
      this.work.forget(uid);
      return;
    }
    this.cluster.defer(() => this.work.run(uid));
  }

  /** A Job's commit: its CronJob, if it has one, is synced (a Job finished or gone leaves `active`). */
  observeJob(job: StoredRecord): void {
    for (const ref of (metadataOf(job.object)['ownerReferences'] as { uid?: unknown; kind?: unknown; controller?: unknown }[] | undefined) ?? []) {
      if (ref.kind !== 'CronJob' || ref.controller !== true || typeof ref.uid !== 'string') continue;
      const uid = ref.uid;
      this.cluster.defer(() => this.work.run(uid));
    }
  }

  /**
   * kube's sync: cleanupFinishedJobs, then syncCronJob, then one status write when anything changed. `retry` when a
   * create or a Replace's delete failed (kube's sync returns the error, and the key is retried after its backoff).
   */
  private async sync(uid: string): Promise<SyncOutcome> {
    const record = liveObject(this.cluster, uid)?.record;
    if (record === undefined) return 'done';
    const cronJob = record.object;
    const status = asObject(cronJob['status']);
    const jobs = dependentsOf(this.cluster, uid, JOBS_KEY);
    const state: CronJobState = {
      active: ((Array.isArray(status['active']) ? status['active'] : []) as JobReference[]).filter((ref) => typeof ref.uid === 'string'),
      lastSchedule: typeof status['lastScheduleTime'] === 'string' ? status['lastScheduleTime'] : undefined,
      lastSuccessful: typeof status['lastSuccessfulTime'] === 'string' ? status['lastSuccessfulTime'] : undefined,
    };
    await this.cleanUp(record, jobs, state);
    this.observeJobs(cronJob, jobs, state);
    const outcome = asObject(cronJob['spec'])['suspend'] === true ? 'done' : await this.runDue(record, state);
    const next: Record<string, unknown> = {
      ...(state.active.length > 0 ? { active: state.active } : {}),
      ...(state.lastSchedule === undefined ? {} : { lastScheduleTime: state.lastSchedule }),
      ...(state.lastSuccessful === undefined ? {} : { lastSuccessfulTime: state.lastSuccessful }),
    };
    const current = liveObject(this.cluster, uid)?.record;
    if (current !== undefined) systemUpdate(this.cluster, CRONJOBS_KEY, current, (object) => void (object['status'] = next), MANAGER);
    return outcome;
  }

  /**
   * syncCronJob's first part: a finished Job leaves `active` (a Complete one moves `lastSuccessfulTime`), an unfinished
   * one not listed is unexpected, and a listed one that is gone is missing.
   */
  private observeJobs(cronJob: KubeObject, jobs: readonly StoredRecord[], state: CronJobState): void {
    for (const job of jobs) {
      const listed = state.active.some((ref) => ref.uid === job.uid);
      const end = jobEnd(job.object);
      if (end === undefined) {
        if (!listed && !isDeleting(job.object)) this.event(cronJob, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${job.name}`);
        continue;
      }
      if (listed) {
        state.active = state.active.filter((ref) => ref.uid !== job.uid);
        this.event(cronJob, 'Normal', 'SawCompletedJob', `Saw completed job: ${job.name}, condition: ${end}`);
      }
      const completed = statusOf(job.object)['completionTime'];
      if (end === 'Complete' && typeof completed === 'string' && (state.lastSuccessful === undefined || Date.parse(completed) > Date.parse(state.lastSuccessful))) state.lastSuccessful = completed;
    }
    for (const ref of state.active) {
      // kube looks the Job up by name (not in its cache) before it calls it missing.
      if (this.cluster.store.get(JOBS_KEY, ref.namespace, ref.name) !== undefined) continue;
      this.event(cronJob, 'Normal', 'MissingJob', `Active job went missing: ${ref.name}`);
      state.active = state.active.filter((other) => other.uid !== ref.uid);
    }
  }

  /** The run due now, if one is and may start: Replace deletes the active Jobs first, then the Job is made and listed. */
  private async runDue(record: StoredRecord, state: CronJobState): Promise<SyncOutcome> {
    const due = this.due(record, state.active, state.lastSchedule);
    if (due === undefined) return 'done';
    const cronJob = record.object;
    if (asObject(cronJob['spec'])['concurrencyPolicy'] === 'Replace') {
      for (const ref of state.active) {
        const job = this.cluster.store.get(JOBS_KEY, ref.namespace, ref.name);
        // Nothing is made while an active Job stays (kube: "could not replace job").
        if (job !== undefined && !(await this.deleteJob(cronJob, job, state))) return 'retry';
      }
    }
    const view = this.jobView();
    if (view === undefined) return 'done';
    const manifest = jobManifest(record, due);
    let job: StoredRecord;
    try {
      job = await controllerCreate(this.cluster, CONTROLLER, view, manifest, record.namespace);
      this.event(cronJob, 'Normal', 'SuccessfulCreate', `Created job ${job.name}`);
    } catch (error) {
      const existing = alreadyMade(this.cluster, record, manifest, error);
      if (existing === undefined) {
        // A terminating namespace refuses every create, which kube's controller retries without an Event.
        if (!terminatingNamespace(error)) this.event(cronJob, 'Warning', 'FailedCreate', `Error creating job: ${(error as Error).message}`);
        return 'retry';
      }
      // Made already (by an earlier sync whose status write was lost): listed again; someone else's: left alone.
      if (existing === 'not ours' || state.active.some((ref) => ref.uid === existing.uid)) return 'done';
      job = existing;
    }
    state.active = [...state.active, referenceOf(job)];
    state.lastSchedule = rfc3339(due);
    return 'done';
  }

  /**
   * The time a run is due now, if one is and it may start (not too late, not made already, not forbidden by an
   * active run); the timer is set for the next one either way.
   */
  private due(record: StoredRecord, active: readonly JobReference[], lastSchedule: string | undefined): number | undefined {
    const cronJob = record.object;
    const spec = asObject(cronJob['spec']);
    const timeZone = typeof spec['timeZone'] === 'string' ? spec['timeZone'] : undefined;
    let times: CronTimes;
    try {
      times = cronTimes(String(spec['schedule'] ?? ''), timeZone);
    } catch (error) {
      // kube's controller leaves such a CronJob until its spec changes, saying why (the API server refuses most).
      this.event(cronJob, 'Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(spec['schedule'])} : ${(error as Error).message}`);
      return undefined;
    }
    const now = this.cluster.clock.now();
    const created = Date.parse(String(metadataOf(cronJob)['creationTimestamp']));
    const deadline = spec['startingDeadlineSeconds'];
    let earliest = lastSchedule === undefined ? created : Date.parse(lastSchedule);
    if (typeof deadline === 'number') earliest = Math.max(earliest, now - deadline * 1000);
    this.schedule(record.uid, times, now);
    const { time, missed } = mostRecentDue(times, earliest, now);
    if (time === undefined) return undefined;
    if (missed > MANY_MISSED) this.event(cronJob, 'Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew');
    if (typeof deadline === 'number' && time + deadline * 1000 < now) {
      this.event(cronJob, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(time)}`);
      return undefined;
    }
    const name = jobName(record.name, time);
    if (active.some((ref) => ref.name === name) || (lastSchedule !== undefined && Date.parse(lastSchedule) === time)) return undefined;
    if (spec['concurrencyPolicy'] === 'Forbid' && active.length > 0) {
      this.event(cronJob, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
      return undefined;
    }
    return time;
  }

  /** kube's cleanupFinishedJobs: the finished Jobs past the history limits are deleted, the oldest first (by start time, then name). */
  private async cleanUp(record: StoredRecord, jobs: readonly StoredRecord[], state: CronJobState): Promise<void> {
    const spec = asObject(record.object['spec']);
    for (const [end, limitField] of [['Complete', 'successfulJobsHistoryLimit'], ['Failed', 'failedJobsHistoryLimit']] as const) {
      const limit = spec[limitField];
      if (typeof limit !== 'number') continue;
      const finished = jobs.filter((job) => !isDeleting(job.object) && jobEnd(job.object) === end).sort(byStartTime);
      // A Job that could not be deleted is tried again at the next sync (kube's clean-up returns no error either).
      for (const job of finished.slice(0, Math.max(0, finished.length - count(limit, 0)))) await this.deleteJob(record.object, job, state);
    }
  }

  /** Deletes one Job, its Pods after it (background propagation), and unlists it; false when it could not be deleted. */
  private async deleteJob(cronJob: KubeObject, job: StoredRecord, state: CronJobState): Promise<boolean> {
    const view = this.jobView();
    if (view === undefined) return false;
    try {
      await controllerDelete(this.cluster, CONTROLLER, view, job, { propagationPolicy: 'Background' });
    } catch (error) {
      this.event(cronJob, 'Warning', 'FailedDelete', `Deleted job: ${(error as Error).message}`);
      return false;
    }
    state.active = state.active.filter((ref) => ref.uid !== job.uid);
    this.event(cronJob, 'Normal', 'SuccessfulDelete', `Deleted job ${job.name}`);
    return true;
  }

  /** The CronJob is synced again at its next due time. */
  private schedule(uid: string, times: CronTimes, now: number): void {
    const next = times.next(now);
    if (next === undefined) this.timers.clear(uid);
    else this.timers.schedule(uid, next - now, () => this.work.run(uid));
  }

  private jobView(): ResourceView | undefined {
    return storageViewOf(this.cluster, JOBS_KEY);
  }

  private event(cronJob: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.events.record(CONTROLLER, { apiVersion: 'batch/v1', kind: 'CronJob', object: cronJob }, type, reason, message);
  }
}

/**
 * The Job a create found made already (AlreadyExists), when this CronJob controls it; `not ours` when another does;
 * undefined when the create failed for another reason.
 */
function alreadyMade(cluster: Cluster, record: StoredRecord, manifest: KubeObject, error: unknown): StoredRecord | 'not ours' | undefined {
  if (!(error instanceof StatusError) || error.body.reason !== 'AlreadyExists') return undefined;
  const existing = cluster.store.get(JOBS_KEY, record.namespace, String(metadataOf(manifest)['name']));
  if (existing === undefined) return undefined;
  const owned = ((metadataOf(existing.object)['ownerReferences'] as { uid?: unknown; controller?: unknown }[] | undefined) ?? []).some((ref) => ref.uid === record.uid && ref.controller === true);
  return owned ? existing : 'not ours';
}

/** Whether a create was refused because its namespace is being deleted. */
function terminatingNamespace(error: unknown): boolean {
  return error instanceof StatusError && (error.body.details?.causes ?? []).some((cause) => cause.reason === 'NamespaceTerminating');
}

/** The name of a CronJob's Job due at `time`: `<cronjob>-<minutes since the epoch>`, the same for the same run. */
function jobName(cronJob: string, time: number): string {
  return `${cronJob}-${Math.floor(time / 60_000)}`;
}

/** The Job a CronJob makes for its run due at `time`: the template's labels, annotations and spec, owned by it. */
function jobManifest(record: StoredRecord, time: number): KubeObject {
  const cronJob = record.object;
  const spec = asObject(cronJob['spec']);
  const template = asObject(spec['jobTemplate']);
  const templateMetadata = asObject(template['metadata']);
  const timeZone = typeof spec['timeZone'] === 'string' ? spec['timeZone'] : undefined;
  const labels = asObject(templateMetadata['labels']);
  const annotations = { ...asObject(templateMetadata['annotations']), [SCHEDULED_TIMESTAMP]: zonedRfc3339(time, timeZone) };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobName(record.name, time),
      ...(Object.keys(labels).length > 0 ? { labels: { ...labels } } : {}),
      annotations,
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: record.name, uid: record.uid, controller: true, blockOwnerDeletion: true }],
    },
    spec: structuredClone(asObject(template['spec'])),
  };
}

/** kube's byJobStartTime: Jobs with a start time first, earliest first; then by name. */
function byStartTime(a: StoredRecord, b: StoredRecord): number {
  const startA = statusOf(a.object)['startTime'];
  const startB = statusOf(b.object)['startTime'];
  if (typeof startA !== 'string' && typeof startB === 'string') return 1;
  if (typeof startA === 'string' && typeof startB !== 'string') return -1;
  if (startA !== startB && typeof startA === 'string' && typeof startB === 'string') return Date.parse(startA) - Date.parse(startB);
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Go's time.RFC1123Z of `ms` in UTC: `Mon, 07 Dec 2026 12:01:00 +0000`. */
function rfc1123z(ms: number): string {
  return new Date(ms).toUTCString().replace('GMT', '+0000');
}
