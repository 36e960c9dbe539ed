/**
 * The simulated StatefulSet controller, after kube-controller-manager's (pkg/controller/statefulset; checked against
 * it, a probe acting as the kubelet). A sync of a set:
 *
 * - the Pods in its ordinal range (`spec.ordinals.start`, `spec.replicas`) are made where missing, each after its
 *   PersistentVolumeClaims (`<template>-<set>-<ordinal>` from `volumeClaimTemplates`, labelled with the selector's
 *   labels), with their identity (`hostname`, `subdomain`, the pod-name and pod-index labels) and the claims as
 *   volumes; a Pod that ended (Failed, Succeeded) is deleted, to be made again;
 * - the Pods past the range are deleted, the highest ordinal first;
 * - a Pod not at the update revision is deleted (highest first, down to `partition`), to be made at it, within
 *   `maxUnavailable` (1);
 * - under `podManagementPolicy: OrderedReady` (the default) each step waits for the Pods before it to be Running and
 *   Ready and for a terminating one to be gone; `Parallel` does not wait;
 * - `persistentVolumeClaimRetentionPolicy` Delete makes the set (`whenDeleted`) or the scaled-down Pod (`whenScaled`)
 *   the claim's controller, so the garbage collector deletes it with them;
 * - the status counts the Pods (`replicas`, `readyReplicas`, `currentReplicas`, `updatedReplicas`,
 *   `availableReplicas`) and the revisions; `currentRevision` becomes the update revision once every Pod is at it and
 *   Ready.
 *
 * Creates and deletes go through admission (controller-writes.ts); the first refusal ends the sync, which is retried
 * after the controller's backoff. The simulated kubelet (the caller's `podsMade`) runs the Pods made.
 */
import type { Cluster } from '../../cluster.js';
import { isDeleting } from '../../operations/object-rules.js';
import { systemUpdate } from '../../operations/system-write.js';
import { asObject } from '../../patch/json-value.js';
import { isNotFound, StatusError } from '../../status-errors.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../../store/record.js';
import { controllerCreate, controllerDelete } from '../controller-writes.js';
import type { EventRecorder } from '../event-recorder.js';
import type { SyncOutcome } from '../keyed-work.js';
import { storageViewOf } from '../storage-view.js';
import { scaledValue } from './deployment-replicas.js';
import { count, specOf, statusOf, withoutZeros, type Json } from './object-fields.js';
import { dependentsOf, MANAGER, podView, PODS_KEY } from './owned-objects.js';
import { podEnded, podManifest, podReady, templateHash } from './pod-manifests.js';

export const STATEFULSETS_KEY = 'apps/statefulsets';
const CLAIMS_KEY = '/persistentvolumeclaims';
const CONTROLLER = 'statefulset-controller';
const REVISION_LABEL = 'controller-revision-hash';

/** One sync's view of a set: its revisions, its Pods by slot, those past its range. */
interface SetState {
  readonly record: StoredRecord;
  readonly monotonic: boolean;
  readonly start: number;
  readonly replicas: number;
  readonly currentRevision: string;
  readonly updateRevision: string;
  /** The Pod of each ordinal in range, or undefined where there is none yet. */
  readonly slots: (StoredRecord | undefined)[];
  /** The Pods past the range, the highest ordinal first. */
  readonly condemned: StoredRecord[];
}

/** Why a sync stops: it waits (for a Pod to run or go), or a write failed (retried after backoff). */
type Stop = 'wait' | 'failed';

export class StatefulSetController {
  /** The templates of the revisions seen, to make a Pod below the partition at the current one. */
  private readonly templates = new Map<string, unknown>();

  constructor(
    private readonly cluster: Cluster,
    private readonly events: EventRecorder,
    private readonly podsMade: (uid: string) => void,
  ) {}

  async sync(record: StoredRecord): Promise<SyncOutcome> {
    const state = this.stateOf(record);
    const stop = (await this.replicas(state)) ?? (await this.scaleDown(state)) ?? (await this.rollingUpdate(state));
    this.writeStatus(record.uid);
    return stop === 'failed' ? 'retry' : 'done';
  }

  private stateOf(record: StoredRecord): SetState {
    const set = record.object;
    const spec = specOf(set);
    const start = count(asObject(spec['ordinals'])['start'], 0);
    const replicas = count(spec['replicas'], 1);
    const updateRevision = `${record.name}-${templateHash(set)}`;
    this.templates.set(updateRevision, spec['template']);
    const current = statusOf(set)['currentRevision'];
    const slots: (StoredRecord | undefined)[] = Array.from({ length: replicas }, () => undefined);
    const condemned: StoredRecord[] = [];
    for (const pod of dependentsOf(this.cluster, record.uid, PODS_KEY)) {
      const ordinal = ordinalOf(record.name, pod.name);
      if (ordinal === undefined) continue;
      if (ordinal >= start && ordinal < start + replicas) slots[ordinal - start] = pod;
      else condemned.push(pod);
    }
    condemned.sort((a, b) => (ordinalOf(record.name, b.name) ?? 0) - (ordinalOf(record.name, a.name) ?? 0));
    return {
      record,
      monotonic: spec['podManagementPolicy'] !== 'Parallel',
      start,
      replicas,
      currentRevision: typeof current === 'string' ? current : updateRevision,
      updateRevision,
      slots,
      condemned,
    };
  }

  /** kube's processReplica for each slot, in order: made, remade when it ended, waited for under OrderedReady. */
  private async replicas(state: SetState): Promise<Stop | undefined> {
    let made = false;
    try {
      for (const [index, pod] of state.slots.entries()) {
        if (pod !== undefined && podEnded(pod.object)) {
          if (!isDeleting(pod.object) && !(await this.deletePod(state, pod))) return 'failed';
          if (state.monotonic) return 'wait';
          continue;
        }
        if (pod === undefined) {
          if (!(await this.createPod(state, state.start + index))) return 'failed';
          made = true;
          if (state.monotonic) return 'wait';
          continue;
        }
        if (state.monotonic && (isDeleting(pod.object) || !runningAndReady(pod.object))) return 'wait';
      }
      return undefined;
    } finally {
      if (made) this.podsMade(state.record.uid);
    }
  }

  /** kube's processCondemned: the Pods past the range go, the highest first (one at a time under OrderedReady). */
  private async scaleDown(state: SetState): Promise<Stop | undefined> {
    for (const pod of state.condemned) this.claimsForScaledDown(state, pod);
    const firstUnhealthy = [...state.slots, ...[...state.condemned].reverse()].find((pod) => pod === undefined || unavailable(pod.object));
    for (const pod of state.condemned) {
      if (isDeleting(pod.object)) {
        if (state.monotonic) return 'wait';
        continue;
      }
      if (state.monotonic && !runningAndReady(pod.object) && pod !== firstUnhealthy) return 'wait';
      if (!(await this.deletePod(state, pod))) return 'failed';
      if (state.monotonic) return 'wait';
    }
    return undefined;
  }

  /**
   * kube's rolling update (updateStatefulSetAfterInvariantEstablished): the Pods not at the update revision are
   * deleted from the highest ordinal down to the partition, as many as `maxUnavailable` leaves room for.
   */
  private async rollingUpdate(state: SetState): Promise<Stop | undefined> {
    const strategy = asObject(specOf(state.record.object)['updateStrategy']);
    if (strategy['type'] === 'OnDelete') return undefined;
    const rolling = asObject(strategy['rollingUpdate']);
    const partition = count(rolling['partition'], 0);
    // kube's getStatefulSetMaxUnavailable: 1 when unset, a percentage rounded down, never below 1.
    const maxUnavailable = Math.max(1, scaledValue(rolling['maxUnavailable'] ?? 1, state.replicas, false));
    const slots = state.slots.filter((pod): pod is StoredRecord => pod !== undefined);
    const old = (pod: StoredRecord): boolean => revisionOf(pod.object) !== state.updateRevision && !isDeleting(pod.object);
    const unavailableCount = state.slots.filter((pod) => pod === undefined || unavailable(pod.object)).length;
    const targets = [...state.slots.entries()].filter(([index]) => index >= partition).reverse();
    let budget = maxUnavailable - unavailableCount;
    if (!state.monotonic) {
      // Parallel: the old Pods that are unavailable anyway go first, without spending the budget.
      for (const [, pod] of targets) {
        if (pod !== undefined && old(pod) && !runningAndReady(pod.object) && !(await this.deletePod(state, pod))) return 'failed';
      }
    }
    const needing = !state.monotonic && slots.some((pod) => unavailable(pod.object) && old(pod));
    if (budget <= 0 && !needing) return undefined;
    for (const [, pod] of targets) {
      if (budget <= 0) break;
      if (pod === undefined || !old(pod) || (!state.monotonic && unavailable(pod.object))) continue;
      if (!(await this.deletePod(state, pod))) return 'failed';
      budget -= 1;
    }
    return undefined;
  }

  /** The Pod of `ordinal`, after its claims; false when the API server refused one. */
  private async createPod(state: SetState, ordinal: number): Promise<boolean> {
    const { record } = state;
    const name = `${record.name}-${ordinal}`;
    const partition = count(asObject(asObject(specOf(record.object)['updateStrategy'])['rollingUpdate'])['partition'], 0);
    const below = ordinal - state.start < partition && this.templates.has(state.currentRevision);
    const revision = below ? state.currentRevision : state.updateRevision;
    const template = below ? this.templates.get(state.currentRevision) : specOf(record.object)['template'];
    const claims = claimsOf(record.object, ordinal);
    for (const claim of claims) if (!(await this.createClaim(state, name, claim))) return false;
    const view = podView(this.cluster);
    if (view === undefined) return false;
    const pod = statefulPod(record.object, template, name, ordinal, revision, claims);
    try {
      await controllerCreate(this.cluster, CONTROLLER, view, pod, record.namespace);
    } catch (error) {
      if (error instanceof StatusError && error.body.reason === 'AlreadyExists') return true;
      this.podEvent(record.object, 'Create', name, error);
      return false;
    }
    this.claimsForPolicy(state, claims);
    this.podEvent(record.object, 'Create', name);
    return true;
  }

  /** A claim of the Pod `pod`, made when missing; false when it could not be (refused, or being deleted). */
  private async createClaim(state: SetState, pod: string, claim: KubeObject): Promise<boolean> {
    const { record } = state;
    const name = String(metadataOf(claim)['name']);
    const existing = this.cluster.store.get(CLAIMS_KEY, record.namespace, name);
    if (existing !== undefined) return !isDeleting(existing.object);
    const view = storageViewOf(this.cluster, CLAIMS_KEY);
    if (view === undefined) return false;
    try {
      await controllerCreate(this.cluster, CONTROLLER, view, claim, record.namespace);
    } catch (error) {
      if (error instanceof StatusError && error.body.reason === 'AlreadyExists') return true;
      this.claimEvent(record.object, name, pod, error);
      // kube's controller says the Pod's create failed too.
      this.podEvent(record.object, 'Create', pod, new Error(`failed to create PVC ${name}: ${(error as Error).message}`));
      return false;
    }
    this.claimEvent(record.object, name, pod);
    return true;
  }

  /** A Pod deleted (kube's DeleteStatefulPod: default options); false when the API server refused it. */
  private async deletePod(state: SetState, pod: StoredRecord): Promise<boolean> {
    const view = podView(this.cluster);
    if (view === undefined) return false;
    try {
      await controllerDelete(this.cluster, CONTROLLER, view, pod);
    } catch (error) {
      if (isNotFound(error)) return true;
      this.podEvent(state.record.object, 'Delete', pod.name, error);
      return false;
    }
    this.podEvent(state.record.object, 'Delete', pod.name);
    return true;
  }

  /** After a Pod is made in range: with `whenDeleted: Delete`, its claims are the set's (the collector deletes them with it). */
  private claimsForPolicy(state: SetState, claims: readonly KubeObject[]): void {
    if (retentionOf(state.record.object).whenDeleted !== 'Delete') return;
    for (const claim of claims) this.ownClaim(state, String(metadataOf(claim)['name']), setReference(state.record));
  }

  /** A Pod past the range, with `whenScaled: Delete`: its claims become the Pod's, so they go with it. */
  private claimsForScaledDown(state: SetState, pod: StoredRecord): void {
    if (retentionOf(state.record.object).whenScaled !== 'Delete') return;
    const ordinal = ordinalOf(state.record.name, pod.name) ?? 0;
    for (const claim of claimsOf(state.record.object, ordinal)) this.ownClaim(state, String(metadataOf(claim)['name']), podReference(pod));
  }

  /** The claim's controller becomes `owner` (the set's and Pod's references replaced), unless it is already. */
  private ownClaim(state: SetState, name: string, owner: Json): void {
    const claim = this.cluster.store.get(CLAIMS_KEY, state.record.namespace, name);
    if (claim === undefined || isDeleting(claim.object)) return;
    const refs = ((metadataOf(claim.object)['ownerReferences'] as Json[] | undefined) ?? []);
    if (refs.some((ref) => ref['uid'] === owner['uid'] && ref['controller'] === true)) return;
    if (refs.some((ref) => ref['controller'] === true && ref['uid'] !== state.record.uid && ref['kind'] !== 'Pod')) return;
    const kept = refs.filter((ref) => ref['uid'] !== state.record.uid && ref['kind'] !== 'Pod');
    systemUpdate(this.cluster, CLAIMS_KEY, claim, (next) => void (metadataOf(next)['ownerReferences'] = [...kept, owner]), MANAGER);
  }

  /** The status kube's controller writes, from the Pods as they are now; the rollout completes when all are updated and Ready. */
  private writeStatus(uid: string): void {
    const located = this.cluster.store.byUid(uid);
    if (located === undefined || isDeleting(located.record.object)) return;
    const state = this.stateOf(located.record);
    const pods = [...state.slots, ...state.condemned].filter((pod): pod is StoredRecord => pod !== undefined);
    const live = pods.filter((pod) => !isDeleting(pod.object));
    const ready = pods.filter((pod) => runningAndReady(pod.object)).length;
    let currentRevision = state.currentRevision;
    let current = live.filter((pod) => revisionOf(pod.object) === currentRevision).length;
    const updated = live.filter((pod) => revisionOf(pod.object) === state.updateRevision).length;
    if (updated === state.replicas && ready === state.replicas && pods.length === state.replicas) {
      currentRevision = state.updateRevision;
      current = updated;
    }
    const status = withoutZeros(
      {
        observedGeneration: metadataOf(located.record.object)['generation'],
        replicas: pods.length,
        readyReplicas: ready,
        currentReplicas: current,
        updatedReplicas: updated,
        currentRevision,
        updateRevision: state.updateRevision,
        collisionCount: 0,
        availableReplicas: ready,
      },
      ['observedGeneration', 'readyReplicas', 'currentReplicas', 'updatedReplicas'],
    );
    systemUpdate(this.cluster, STATEFULSETS_KEY, located.record, (next) => void (next['status'] = status), MANAGER);
  }

  /** kube's recordPodEvent: `Create Pod db-0 in StatefulSet db successful`, or its failure with the error. */
  private podEvent(set: KubeObject, verb: 'Create' | 'Delete', pod: string, error?: unknown): void {
    const name = String(metadataOf(set)['name']);
    if (error === undefined) this.record(set, 'Normal', `Successful${verb}`, `${verb} Pod ${pod} in StatefulSet ${name} successful`);
    else this.record(set, 'Warning', `Failed${verb}`, `${verb} Pod ${pod} in StatefulSet ${name} failed error: ${(error as Error).message}`);
  }

  /** kube's recordClaimEvent: `Create Claim data-db-0 Pod db-0 in StatefulSet db success`, or its failure. */
  private claimEvent(set: KubeObject, claim: string, pod: string, error?: unknown): void {
    const name = String(metadataOf(set)['name']);
    if (error === undefined) this.record(set, 'Normal', 'SuccessfulCreate', `Create Claim ${claim} Pod ${pod} in StatefulSet ${name} success`);
    else this.record(set, 'Warning', 'FailedCreate', `Create Claim ${claim} for Pod ${pod} in StatefulSet ${name} failed error: ${(error as Error).message}`);
  }

  private record(set: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.events.record(CONTROLLER, { apiVersion: 'apps/v1', kind: 'StatefulSet', object: set }, type, reason, message);
  }
}

/** The ordinal of the set's Pod `pod` (`<set>-<ordinal>`), or undefined for another name. */
function ordinalOf(set: string, pod: string): number | undefined {
  if (!pod.startsWith(`${set}-`)) return undefined;
  const text = pod.slice(set.length + 1);
  return /^(0|[1-9]\d*)$/.test(text) ? Number(text) : undefined;
}

function revisionOf(pod: KubeObject): string | undefined {
  const labels = asObject(metadataOf(pod)['labels']);
  return typeof labels[REVISION_LABEL] === 'string' ? labels[REVISION_LABEL] : undefined;
}

function runningAndReady(pod: KubeObject): boolean {
  return statusOf(pod)['phase'] === 'Running' && podReady(pod);
}

/** kube's isUnavailable (minReadySeconds aside): not Running and Ready, or terminating. */
function unavailable(pod: KubeObject): boolean {
  return !runningAndReady(pod) || isDeleting(pod);
}

function retentionOf(set: KubeObject): { whenDeleted: unknown; whenScaled: unknown } {
  const policy = asObject(specOf(set)['persistentVolumeClaimRetentionPolicy']);
  return { whenDeleted: policy['whenDeleted'] ?? 'Retain', whenScaled: policy['whenScaled'] ?? 'Retain' };
}

/** The claims of the Pod `ordinal`: each template named `<template>-<set>-<ordinal>`, with the selector's labels. */
function claimsOf(set: KubeObject, ordinal: number): KubeObject[] {
  const spec = specOf(set);
  const name = String(metadataOf(set)['name']);
  const selector = asObject(asObject(spec['selector'])['matchLabels']);
  const templates = Array.isArray(spec['volumeClaimTemplates']) ? (spec['volumeClaimTemplates'] as unknown[]).map(asObject) : [];
  return templates.map((template) => {
    const metadata = asObject(template['metadata']);
    const { name: templateName, ...rest } = metadata;
    return {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { ...structuredClone(rest), name: `${String(templateName)}-${name}-${ordinal}`, labels: { ...asObject(metadata['labels']), ...selector } },
      spec: structuredClone(asObject(template['spec'])),
    };
  });
}

/** The set's Pod `name`: its template at `revision`, its identity, its claims as volumes (kube's newStatefulSetPod). */
function statefulPod(set: KubeObject, template: unknown, name: string, ordinal: number, revision: string, claims: readonly KubeObject[]): KubeObject {
  const spec = specOf(set);
  const pod = podManifest('StatefulSet', 'apps/v1', { ...set, spec: { ...spec, template } }, name);
  const metadata = metadataOf(pod);
  metadata['labels'] = { ...asObject(metadata['labels']), [REVISION_LABEL]: revision, 'statefulset.kubernetes.io/pod-name': name, 'apps.kubernetes.io/pod-index': String(ordinal) };
  const podSpec = asObject(pod['spec']);
  const templates = Array.isArray(spec['volumeClaimTemplates']) ? (spec['volumeClaimTemplates'] as unknown[]).map(asObject) : [];
  const claimed = new Set(templates.map((claimTemplate) => String(asObject(claimTemplate['metadata'])['name'])));
  const volumes = templates.map((claimTemplate, index) => ({
    name: String(asObject(claimTemplate['metadata'])['name']),
    persistentVolumeClaim: { claimName: String(metadataOf(claims[index] ?? {})['name']) },
  }));
  const others = (Array.isArray(podSpec['volumes']) ? (podSpec['volumes'] as unknown[]) : []).filter((volume) => !claimed.has(String(asObject(volume)['name'])));
  return { ...pod, spec: { ...podSpec, ...(volumes.length + others.length > 0 ? { volumes: [...volumes, ...others] } : {}), hostname: name, subdomain: spec['serviceName'] } };
}

function setReference(record: StoredRecord): Json {
  return { apiVersion: 'apps/v1', kind: 'StatefulSet', name: record.name, uid: record.uid, controller: true, blockOwnerDeletion: true };
}

function podReference(pod: StoredRecord): Json {
  return { apiVersion: 'v1', kind: 'Pod', name: pod.name, uid: pod.uid, controller: true, blockOwnerDeletion: true };
}
