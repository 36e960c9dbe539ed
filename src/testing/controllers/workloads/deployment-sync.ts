/**
 * One sync of kube-controller-manager's Deployment controller (`syncDeployment`), planned on copies: the paused
 * conditions, a scaling (proportional across the ReplicaSets that run), a rolling update (the new ReplicaSet grows
 * within `maxSurge`, old ones shrink within `maxUnavailable`, unhealthy replicas first), a recreate (old ReplicaSets
 * to 0, then the new one once their Pods are gone), the cleanup of old ReplicaSets past `revisionHistoryLimit`, and
 * the status. The simulator carries the plan out (creates, writes, deletes, then the Deployment's annotations and
 * status). What a cluster does with time is left to the simulation: a rollout is past its progress deadline when the
 * simulator says it is stuck. Pure.
 */
import { asObject } from '../../patch/json-value.js';
import type { KubeObject } from '../../store/record.js';
import {
  annotationCount,
  DESIRED_REPLICAS_ANNOTATION,
  hasProgressDeadline,
  isRollingUpdate,
  isSaturated,
  maxSurge,
  maxUnavailable,
  newReplicaSetReplicas,
  replicaSetProportion,
  revisionHistoryLimit,
  specTotal,
  statusTotal,
} from './deployment-replicas.js';
import { deploymentComplete, findCondition, newCondition, plainStatus, rolloutStatus, setCondition } from './deployment-status.js';
import { annotationsOf, count, replicasOf, specOf, statusOf, type Json } from './object-fields.js';
import { podTemplateHash } from './pod-template-hash.js';
import {
  active,
  byCreation,
  byRevision,
  equalIgnoringHash,
  findNewReplicaSet,
  isDeletingState,
  maxRevision,
  nameOf,
  newReplicaSetState,
  REVISION_ANNOTATION,
  scaleReplicaSet,
  setNewReplicaSetAnnotations,
  specReplicas,
  stateOf,
  statusCount,
  uidOf,
  type ReplicaSetState,
} from './replica-sets.js';

/** What the simulator knows that the objects do not say. */
export interface SyncContext {
  readonly now: string;
  /** Pods of this ReplicaSet (by uid) that have not ended (Recreate waits for them). */
  readonly runningPods: (uid: string) => number;
  /** Whether this rollout is stuck, so past its progress deadline (the simulation's crashing Pods). */
  readonly stuck: (newRS: ReplicaSetState) => boolean;
  /** A ReplicaSet of this name in the namespace, controlled by anyone (a name taken makes a hash collision). */
  readonly replicaSetNamed: (name: string) => KubeObject | undefined;
}

/** The outcome: ReplicaSets to create, write and delete, then the Deployment's annotations and status. */
export interface DeploymentPlan {
  readonly replicaSets: readonly ReplicaSetState[];
  readonly annotations: Record<string, string>;
  readonly status: Json;
  /** The sync stopped early (a hash collision bumped `collisionCount`) and is to run again. */
  readonly retry: boolean;
}

class DeploymentSync {
  private readonly status: Json;
  private readonly annotations: Record<string, string>;
  private readonly created: ReplicaSetState[] = [];
  private retry = false;

  constructor(
    private readonly deployment: KubeObject,
    private readonly owned: ReplicaSetState[],
    private readonly context: SyncContext,
  ) {
    this.status = { ...statusOf(deployment) };
    this.annotations = { ...annotationsOf(deployment) };
  }

  run(): DeploymentPlan {
    const finalStatus = this.sync();
    return { replicaSets: [...this.owned, ...this.created], annotations: this.annotations, status: finalStatus ?? this.status, retry: this.retry };
  }

  private sync(): Json | undefined {
    const spec = specOf(this.deployment);
    this.checkPausedConditions();
    if (spec['paused'] === true || this.isScalingEvent()) return this.scaleOnly();
    return isRollingUpdate(this.deployment) ? this.rolloutRolling() : this.rolloutRecreate();
  }

  private checkPausedConditions(): void {
    if (!hasProgressDeadline(this.deployment)) return;
    const condition = findCondition(this.status, 'Progressing');
    if (condition?.['reason'] === 'ProgressDeadlineExceeded') return;
    const paused = specOf(this.deployment)['paused'] === true;
    const pausedBefore = condition?.['reason'] === 'DeploymentPaused';
    if (paused && !pausedBefore) setCondition(this.status, newCondition('Progressing', 'Unknown', 'DeploymentPaused', 'Deployment is paused', this.context.now));
    else if (!paused && pausedBefore) setCondition(this.status, newCondition('Progressing', 'Unknown', 'DeploymentResumed', 'Deployment is resumed', this.context.now));
  }

  private isScalingEvent(): boolean {
    const { newRS, oldRSs } = this.replicaSets(false);
    return active([...oldRSs, newRS]).some((rs) => {
      const desired = annotationCount(rs.object, DESIRED_REPLICAS_ANNOTATION);
      return desired !== undefined && desired !== replicasOf(this.deployment);
    });
  }

  /** `sync`: a paused Deployment or a scaling: sizes only, no rollout. */
  private scaleOnly(): Json {
    const found = this.replicaSets(false);
    this.scale(found.newRS, found.oldRSs);
    if (specOf(this.deployment)['paused'] === true) this.cleanup(found.oldRSs);
    return plainStatus(this.statusInput(found.newRS, found.oldRSs));
  }

  private rolloutRolling(): Json | undefined {
    const { newRS, oldRSs } = this.replicaSets(true);
    if (this.retry || newRS === undefined) return undefined;
    const all = [...oldRSs, newRS];
    if (!this.reconcileNewReplicaSet(all, newRS) && !this.reconcileOldReplicaSets(all, active(oldRSs), newRS) && deploymentComplete(this.deployment, this.status)) {
      this.cleanup(oldRSs);
    }
    return this.rolloutStatus(newRS, oldRSs);
  }

  private rolloutRecreate(): Json | undefined {
    let { newRS, oldRSs } = this.replicaSets(false);
    let scaledDown = false;
    for (const rs of active(oldRSs)) if (scaleReplicaSet(rs, 0, this.deployment, false)) scaledDown = true;
    if (scaledDown || this.oldPodsRunning(newRS, oldRSs)) return this.rolloutStatus(newRS, oldRSs);
    if (newRS === undefined) {
      ({ newRS, oldRSs } = this.replicaSets(true));
      if (this.retry || newRS === undefined) return undefined;
    }
    scaleReplicaSet(newRS, replicasOf(this.deployment), this.deployment, false);
    if (deploymentComplete(this.deployment, this.status)) this.cleanup(oldRSs);
    return this.rolloutStatus(newRS, oldRSs);
  }

  private oldPodsRunning(newRS: ReplicaSetState | undefined, oldRSs: readonly ReplicaSetState[]): boolean {
    if (statusTotal(oldRSs.map((rs) => rs.object), 'replicas') > 0) return true;
    return this.owned.some((rs) => rs !== newRS && this.context.runningPods(uidOf(rs)) > 0);
  }

  /** `getAllReplicaSetsAndSyncRevision`: the new ReplicaSet (made when `create` and missing) and all the others. */
  private replicaSets(create: boolean): { newRS: ReplicaSetState | undefined; oldRSs: ReplicaSetState[] } {
    const all = [...this.owned, ...this.created];
    const existing = findNewReplicaSet(this.deployment, all);
    const oldRSs = all.filter((rs) => rs !== existing);
    const newRevision = maxRevision(oldRSs) + 1;
    if (existing !== undefined) {
      const minReady = count(specOf(this.deployment)['minReadySeconds'], 0);
      const annotationsChanged = setNewReplicaSetAnnotations(this.deployment, existing, newRevision);
      if (annotationsChanged || count(specOf(existing.object)['minReadySeconds'], 0) !== minReady) {
        const { minReadySeconds: _, ...spec } = specOf(existing.object);
        existing.object['spec'] = minReady > 0 ? { ...spec, minReadySeconds: minReady } : spec;
        existing.changed = true;
        return { newRS: existing, oldRSs };
      }
      const revision = annotationsOf(existing.object)[REVISION_ANNOTATION];
      if (revision !== undefined) this.annotations[REVISION_ANNOTATION] = revision;
      if (hasProgressDeadline(this.deployment) && findCondition(this.status, 'Progressing') === undefined) {
        setCondition(this.status, newCondition('Progressing', 'True', 'FoundNewReplicaSet', `Found new replica set "${nameOf(existing)}"`, this.context.now));
      }
      return { newRS: existing, oldRSs };
    }
    if (!create) return { newRS: undefined, oldRSs };
    const collisionCount = this.status['collisionCount'];
    const hash = podTemplateHash(specOf(this.deployment)['template'], typeof collisionCount === 'number' ? collisionCount : undefined);
    const made = newReplicaSetState(this.deployment, hash, this.context.now);
    const taken = this.context.replicaSetNamed(nameOf(made));
    if (taken !== undefined) {
      const mine = this.owned.find((rs) => nameOf(rs) === nameOf(made));
      if (mine !== undefined && equalIgnoringHash(specOf(mine.object)['template'], specOf(this.deployment)['template'])) return { newRS: mine, oldRSs };
      this.status['collisionCount'] = (typeof collisionCount === 'number' ? collisionCount : 0) + 1;
      this.retry = true;
      return { newRS: undefined, oldRSs };
    }
    made.object['spec'] = { ...specOf(made.object), replicas: newReplicaSetReplicas(this.deployment, [...oldRSs, made].map((rs) => rs.object), made.object) };
    setNewReplicaSetAnnotations(this.deployment, made, newRevision);
    this.created.push(made);
    this.annotations[REVISION_ANNOTATION] = String(newRevision);
    if (hasProgressDeadline(this.deployment)) {
      setCondition(this.status, newCondition('Progressing', 'True', 'NewReplicaSetCreated', `Created new replica set "${nameOf(made)}"`, this.context.now));
    }
    return { newRS: made, oldRSs };
  }

  /** `scale`: a Deployment whose size changed, with one ReplicaSet running or several (proportionally). */
  private scale(newRS: ReplicaSetState | undefined, oldRSs: ReplicaSetState[]): void {
    const replicas = replicasOf(this.deployment);
    const running = active([...oldRSs, newRS]);
    if (running.length <= 1) {
      const target = running[0] ?? newRS ?? [...oldRSs].sort(byCreation).at(-1);
      if (target !== undefined && specReplicas(target) !== replicas) scaleReplicaSet(target, replicas, this.deployment, false);
      return;
    }
    if (isSaturated(this.deployment, newRS?.object)) {
      for (const old of active(oldRSs)) scaleReplicaSet(old, 0, this.deployment, false);
      return;
    }
    if (!isRollingUpdate(this.deployment)) return;
    const allowed = replicas > 0 ? replicas + maxSurge(this.deployment) : 0;
    const toAdd = allowed - specTotal(running.map((rs) => rs.object));
    // Largest first; among equals the newest when growing, the oldest when shrinking.
    running.sort((a, b) => specReplicas(b) - specReplicas(a) || (toAdd > 0 ? byCreation(b, a) : byCreation(a, b)));
    let added = 0;
    const sizes = running.map((rs) => {
      if (toAdd === 0) return specReplicas(rs);
      const share = replicaSetProportion(rs.object, this.deployment, toAdd, added);
      added += share;
      return specReplicas(rs) + share;
    });
    running.forEach((rs, index) => {
      const size = index === 0 && toAdd !== 0 ? Math.max(0, (sizes[index] ?? 0) + toAdd - added) : (sizes[index] ?? 0);
      scaleReplicaSet(rs, size, this.deployment, true);
    });
  }

  private reconcileNewReplicaSet(all: ReplicaSetState[], newRS: ReplicaSetState): boolean {
    const replicas = replicasOf(this.deployment);
    if (specReplicas(newRS) === replicas) return false;
    if (specReplicas(newRS) > replicas) return scaleReplicaSet(newRS, replicas, this.deployment, false);
    return scaleReplicaSet(newRS, newReplicaSetReplicas(this.deployment, all.map((rs) => rs.object), newRS.object), this.deployment, false);
  }

  private reconcileOldReplicaSets(all: ReplicaSetState[], oldRSs: ReplicaSetState[], newRS: ReplicaSetState): boolean {
    if (specTotal(oldRSs.map((rs) => rs.object)) === 0) return false;
    const minAvailable = replicasOf(this.deployment) - maxUnavailable(this.deployment);
    const newUnavailable = specReplicas(newRS) - statusCount(newRS, 'availableReplicas');
    const maxScaledDown = specTotal(all.map((rs) => rs.object)) - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return false;
    oldRSs.sort(byCreation);
    // Unhealthy replicas of old ReplicaSets go first, as far as the allowance goes.
    let cleaned = 0;
    for (const rs of oldRSs) {
      if (cleaned >= maxScaledDown) break;
      const unhealthy = specReplicas(rs) - statusCount(rs, 'availableReplicas');
      if (specReplicas(rs) === 0 || unhealthy <= 0) continue;
      const down = Math.min(maxScaledDown - cleaned, unhealthy);
      scaleReplicaSet(rs, specReplicas(rs) - down, this.deployment, false);
      cleaned += down;
    }
    // Then available ones, oldest ReplicaSet first, while enough stay available.
    const availableNow = statusTotal([...oldRSs, newRS].map((rs) => rs.object), 'availableReplicas');
    let scaled = 0;
    if (availableNow > minAvailable) {
      const total = availableNow - minAvailable;
      for (const rs of oldRSs) {
        if (scaled >= total) break;
        if (specReplicas(rs) === 0) continue;
        const down = Math.min(specReplicas(rs), total - scaled);
        scaleReplicaSet(rs, specReplicas(rs) - down, this.deployment, false);
        scaled += down;
      }
    }
    return cleaned + scaled > 0;
  }

  /** `cleanupDeployment`: deletes the oldest idle ReplicaSets past `revisionHistoryLimit`. */
  private cleanup(oldRSs: readonly ReplicaSetState[]): void {
    const limit = revisionHistoryLimit(this.deployment);
    if (limit === undefined) return;
    const cleanable = oldRSs.filter((rs) => !isDeletingState(rs) && !rs.isNew).sort(byRevision);
    for (const rs of cleanable.slice(0, Math.max(0, cleanable.length - limit))) {
      const generation = count(asObject(rs.object['metadata'])['generation'], 0);
      if (statusCount(rs, 'replicas') !== 0 || specReplicas(rs) !== 0 || generation > statusCount(rs, 'observedGeneration')) continue;
      rs.deleted = true;
    }
  }

  private statusInput(newRS: ReplicaSetState | undefined, oldRSs: readonly ReplicaSetState[]) {
    return { deployment: this.deployment, current: this.status, replicaSets: [...oldRSs, ...(newRS === undefined ? [] : [newRS])], newRS, now: this.context.now };
  }

  private rolloutStatus(newRS: ReplicaSetState | undefined, oldRSs: readonly ReplicaSetState[]): Json {
    return rolloutStatus(this.statusInput(newRS, oldRSs), () => newRS !== undefined && this.context.stuck(newRS));
  }
}

/** Plans one sync of `deployment` over the ReplicaSets it controls. */
export function planDeploymentSync(deployment: KubeObject, replicaSets: readonly KubeObject[], context: SyncContext): DeploymentPlan {
  return new DeploymentSync(deployment, replicaSets.map(stateOf), context).run();
}
