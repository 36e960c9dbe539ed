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
import { createObject } from '../../operations/create.js';
import { deleteObject } from '../../operations/delete.js';
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

export class CronJobController {
  private readonly timers: DeferredTimers;

  constructor(
    private readonly cluster: Cluster,
    private readonly events: EventRecorder,
  ) {
    this.timers = new DeferredTimers(cluster);
  }

  cancel(): void {
    this.timers.cancel();
  }

  /** A CronJob's commit: it is synced (its schedule read again); one gone has its timer dropped. */
  observe(record: StoredRecord, deleted: boolean): void {
    const uid = record.uid;
    if (deleted || isDeleting(record.object)) return this.timers.clear(uid);
    this.cluster.defer(() => this.sync(uid));
  }

  /** A Job's commit: its CronJob, if it has one, is synced (a Job finished or gone leaves `active`). */
  observeJob(job: StoredRecord): void {
    for (const ref of (metadataOf(job.object)['ownerReferences'] as { uid?: unknown; kind?: unknown; controller?: unknown }[] | undefined) ?? []) {
      if (ref.kind !== 'CronJob' || ref.controller !== true || typeof ref.uid !== 'string') continue;
      const uid = ref.uid;
      this.cluster.defer(() => this.sync(uid));
    }
  }

  /** kube's syncCronJob, then cleanupFinishedJobs, then one status write when anything changed. */
  private sync(uid: string): void {
    const record = liveObject(this.cluster, uid)?.record;
    if (record === undefined) return;
    const cronJob = record.object;
    const spec = asObject(cronJob['spec']);
    const status = asObject(cronJob['status']);
    const jobs = dependentsOf(this.cluster, uid, JOBS_KEY);
    let active = ((Array.isArray(status['active']) ? status['active'] : []) as JobReference[]).filter((ref) => typeof ref.uid === 'string');
    let lastSuccessful = typeof status['lastSuccessfulTime'] === 'string' ? status['lastSuccessfulTime'] : undefined;
    let lastSchedule = typeof status['lastScheduleTime'] === 'string' ? status['lastScheduleTime'] : undefined;
    for (const job of jobs) {
      const listed = active.some((ref) => ref.uid === job.uid);
      const end = jobEnd(job.object);
      if (end === undefined) {
        if (!listed && !isDeleting(job.object)) this.event(cronJob, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${job.name}`);
        continue;
      }
      if (listed) {
        active = active.filter((ref) => ref.uid !== job.uid);
        this.event(cronJob, 'Normal', 'SawCompletedJob', `Saw completed job: ${job.name}, condition: ${end}`);
      }
      const completed = statusOf(job.object)['completionTime'];
      if (end === 'Complete' && typeof completed === 'string' && (lastSuccessful === undefined || Date.parse(completed) > Date.parse(lastSuccessful))) lastSuccessful = completed;
    }
    for (const ref of active) {
      if (jobs.some((job) => job.uid === ref.uid)) continue;
      this.event(cronJob, 'Normal', 'MissingJob', `Active job went missing: ${ref.name}`);
      active = active.filter((other) => other.uid !== ref.uid);
    }
    const run = spec['suspend'] === true ? undefined : this.due(record, active, lastSchedule);
    if (run !== undefined) {
      const made = this.run(record, run, active);
      active = made.active;
      if (made.scheduled !== undefined) lastSchedule = made.scheduled;
    }
    active = this.cleanUp(record, active);
    const next: Record<string, unknown> = {
      ...(active.length > 0 ? { active } : {}),
      ...(lastSchedule === undefined ? {} : { lastScheduleTime: lastSchedule }),
      ...(lastSuccessful === undefined ? {} : { lastSuccessfulTime: lastSuccessful }),
    };
    const current = liveObject(this.cluster, uid)?.record;
    if (current !== undefined) systemUpdate(this.cluster, CRONJOBS_KEY, current, (object) => void (object['status'] = next), MANAGER);
  }

  /**
   * The time a run is due now, if one is and it may start (not too late, not made already, not forbidden by an
   * active run); the timer is set for the next one either way.
   */
  private due(record: StoredRecord, active: readonly JobReference[], lastSchedule: string | undefined): { time: number; times: CronTimes } | undefined {
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
    return { time, times };
  }

  /** The run due at `time`: Replace deletes the active Jobs first; the Job is made and listed. */
  private run(record: StoredRecord, due: { time: number }, active: JobReference[]): { active: JobReference[]; scheduled: string | undefined } {
    const cronJob = record.object;
    const spec = asObject(cronJob['spec']);
    const view = this.jobView();
    if (view === undefined) return { active, scheduled: undefined };
    let listed = active;
    if (spec['concurrencyPolicy'] === 'Replace') {
      for (const ref of active) {
        if (this.deleteJob(cronJob, ref.namespace, ref.name)) listed = listed.filter((other) => other.uid !== ref.uid);
      }
    }
    const manifest = jobManifest(record, due.time);
    const name = String(metadataOf(manifest)['name']);
    const existing = this.cluster.store.get(JOBS_KEY, record.namespace, name);
    let job: StoredRecord;
    if (existing !== undefined) {
      // Made already (kube: AlreadyExists): listed again when it is this CronJob's, else left to whoever made it.
      const owned = ((metadataOf(existing.object)['ownerReferences'] as { uid?: unknown; controller?: unknown }[] | undefined) ?? []).some((ref) => ref.uid === record.uid && ref.controller === true);
      if (!owned || listed.some((ref) => ref.uid === existing.uid)) return { active: listed, scheduled: undefined };
      job = existing;
    } else {
      try {
        job = createObject(this.cluster, view, manifest, record.namespace, { manager: MANAGER, dryRun: false });
      } catch (error) {
        // kube's controller says so and tries again at its next sync: the next commit or the next due time here.
        this.event(cronJob, 'Warning', 'FailedCreate', `Error creating job: ${(error as Error).message}`);
        return { active: listed, scheduled: undefined };
      }
      this.event(cronJob, 'Normal', 'SuccessfulCreate', `Created job ${job.name}`);
    }
    return { active: [...listed, referenceOf(job)], scheduled: rfc3339(due.time) };
  }

  /** Deletes the finished Jobs past the history limits, the oldest first (by start time, then name). */
  private cleanUp(record: StoredRecord, active: JobReference[]): JobReference[] {
    const spec = asObject(record.object['spec']);
    let listed = active;
    for (const [end, limitField] of [['Complete', 'successfulJobsHistoryLimit'], ['Failed', 'failedJobsHistoryLimit']] as const) {
      const limit = spec[limitField];
      if (typeof limit !== 'number') continue;
      const finished = dependentsOf(this.cluster, record.uid, JOBS_KEY).filter((job) => !isDeleting(job.object) && jobEnd(job.object) === end);
      finished.sort(byStartTime);
      for (const job of finished.slice(0, Math.max(0, finished.length - count(limit, 0)))) {
        if (this.deleteJob(record.object, job.namespace, job.name)) listed = listed.filter((ref) => ref.uid !== job.uid);
      }
    }
    return listed;
  }

  /** Deletes one Job, its Pods after it (background propagation); false when it could not be deleted. */
  private deleteJob(cronJob: KubeObject, namespace: string, name: string): boolean {
    const view = this.jobView();
    if (view === undefined) return false;
    try {
      deleteObject(this.cluster, view, namespace, name, { propagationPolicy: 'Background' });
    } catch (error) {
      this.event(cronJob, 'Warning', 'FailedDelete', `Deleted job: ${(error as Error).message}`);
      return false;
    }
    this.event(cronJob, 'Normal', 'SuccessfulDelete', `Deleted job ${name}`);
    return true;
  }

  /** The CronJob is synced again at its next due time. */
  private schedule(uid: string, times: CronTimes, now: number): void {
    const next = times.next(now);
    if (next === undefined) this.timers.clear(uid);
    else this.timers.schedule(uid, next - now, () => this.sync(uid));
  }

  private jobView(): ResourceView | undefined {
    return storageViewOf(this.cluster, JOBS_KEY);
  }

  private event(cronJob: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.events.record('cronjob-controller', { apiVersion: 'batch/v1', kind: 'CronJob', object: cronJob }, type, reason, message);
  }
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
