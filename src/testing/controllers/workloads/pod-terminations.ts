/**
 * The simulated kubelet's part in a Pod's graceful deletion: a Pod bound to a node and marked with a grace period
 * stops (its containers are not real: it takes `podTerminationMs`, or its grace period when that is shorter), then
 * the kubelet removes it as a kubelet does, with a DELETE of grace period 0 and the Pod's uid as precondition (its
 * finalizers, if any, still hold it then). A later DELETE that shortens the period brings the end forward. It does
 * not write the stopped containers' statuses first.
 */
import type { Cluster } from '../../cluster.js';
import { deleteObject } from '../../operations/delete.js';
import { isDeleting } from '../../operations/object-rules.js';
import { metadataOf, type StoredRecord } from '../../store/record.js';
import type { TimerHandle } from '../../../util/clock.js';
import { storageView } from '../storage-view.js';
import { asObject } from '../../patch/json-value.js';
import { PODS_KEY } from './owned-objects.js';
import type { Simulation } from './simulation-options.js';

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
    const type = this.cluster.registry.byKey(PODS_KEY);
    const view = type === undefined ? undefined : storageView(type);
    if (located === undefined || located.key !== PODS_KEY || view === undefined || !isDeleting(located.record.object)) return;
    deleteObject(this.cluster, view, located.record.namespace, located.record.name, { gracePeriodSeconds: 0, preconditions: { uid } });
  }
}
