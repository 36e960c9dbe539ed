/**
 * The simulated kubelet's part in a Pod's graceful deletion: a Pod bound to a node and marked with a grace period
 * stops (its containers are not real: it takes `podTerminationMs`, or its grace period when that is shorter), then
 * the kubelet removes it as a kubelet does, with a DELETE of grace period 0 and the Pod's uid as precondition (its
 * finalizers, if any, still hold it then). A later DELETE that shortens the period brings the end forward. A Pod
 * that is not restarted (`restartPolicy` Never or OnFailure, a Job's) says `Failed` first, its containers stopped
 * by the SIGTERM (exit code 143), as the kubelet writes a deleted Pod's end (a Job that replaces only failed Pods
 * waits for it); the stopped containers of other Pods are not written.
 */
import type { Cluster } from '../../cluster.js';
import { deleteObject } from '../../operations/delete.js';
import { isDeleting } from '../../operations/object-rules.js';
import { metadataOf, type StoredRecord } from '../../store/record.js';
import type { TimerHandle } from '../../../util/clock.js';
import { storageViewOf } from '../storage-view.js';
import { asObject } from '../../patch/json-value.js';
import { systemUpdate } from '../../operations/system-write.js';
import { KUBELET, PODS_KEY } from './owned-objects.js';
import { endedPodStatus } from './pod-manifests.js';
import type { Simulation } from './simulation-options.js';

/** The exit code of a container that ended on the SIGTERM of its Pod's deletion (128 + 15). */
const SIGTERM_EXIT = 143;

export class PodTerminations {
  private readonly pending = new Map<string, { readonly handle: TimerHandle; readonly at: number }>();

  constructor(
    private readonly cluster: Cluster,
    private readonly simulation: Simulation,
  ) {}

  cancel(): void {
    for (const { handle } of this.pending.values()) this.cluster.clock.clearTimeout(handle);
    this.pending.clear();
  }

  /** Reacts to a Pod's commit: schedules the end of a graceful deletion, or forgets a Pod that is gone. */
  observe(pod: StoredRecord, deleted: boolean): void {
    const uid = pod.uid;
    const period = metadataOf(pod.object)['deletionGracePeriodSeconds'];
    const nodeName = asObject(pod.object['spec'])['nodeName'];
    const bound = typeof nodeName === 'string' && nodeName !== '';
    if (deleted || !isDeleting(pod.object) || typeof period !== 'number' || period <= 0 || !bound) {
      if (deleted) this.forget(uid);
      return;
    }
    const delay = Math.min(this.simulation.podTerminationMs, period * 1000);
    const at = this.cluster.clock.now() + delay;
    const scheduled = this.pending.get(uid);
    if (scheduled !== undefined && scheduled.at <= at) return;
    this.forget(uid);
    if (delay === 0) {
      this.cluster.defer(() => this.finish(uid));
      return;
    }
    const handle = this.cluster.clock.setTimeout(() => {
      if (this.pending.get(uid)?.handle !== handle) return;
      this.pending.delete(uid);
      this.cluster.defer(() => this.finish(uid));
    }, delay);
    this.pending.set(uid, { handle, at });
  }

  private forget(uid: string): void {
    const scheduled = this.pending.get(uid);
    if (scheduled !== undefined) this.cluster.clock.clearTimeout(scheduled.handle);
    this.pending.delete(uid);
  }

  private finish(uid: string): void {
    const located = this.cluster.store.byUid(uid);
    const view = storageViewOf(this.cluster, PODS_KEY);
    if (located === undefined || located.key !== PODS_KEY || view === undefined || !isDeleting(located.record.object)) return;
    const pod = located.record.object;
    const phase = asObject(pod['status'])['phase'];
    if (asObject(pod['spec'])['restartPolicy'] !== 'Always' && phase !== 'Succeeded' && phase !== 'Failed') {
      const now = this.cluster.now();
      systemUpdate(this.cluster, PODS_KEY, located.record, (next) => void (next['status'] = endedPodStatus(pod, now, true, SIGTERM_EXIT)), KUBELET);
    }
    deleteObject(this.cluster, view, located.record.namespace, located.record.name, { gracePeriodSeconds: 0, preconditions: { uid } });
  }
}
