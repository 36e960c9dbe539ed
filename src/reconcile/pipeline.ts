/**
 * The reconcile of one key, stage by stage. This file alone knows the order (SPEC §3.2):
 * fetch → convert → operatorBox (or the delete path) → registry operations → status → outcome.
 * The outcome is a value; the worker maps it to the queue (reconcile/outcome.ts).
 */
import { toError } from '../errors.js';
import { jsonClone } from '../util/json-clone.js';
import { carryFingerprint } from '../kube/cache-slim.js';
import type { KubeObject } from '../kube/resource.js';
import type { DesiredChild, OperatorBoxStage } from '../operatorbox/stage.js';
import type { ReconcileOutcome } from './outcome.js';
import type { OwnWrites } from './own-writes.js';

/** Carries out the children a box declared (create, apply, prune). Empty until templates exist. */
export interface RegistryStage {
  apply(owner: KubeObject, desired: readonly DesiredChild[], signal: AbortSignal): Promise<void>;
}

/**
 * Writes the status after a reconcile of a live object. Resolves with the API server's answer when it wrote, or
 * undefined when nothing changed (no request) or the object is gone; rejects when the write failed.
 */
export interface StatusStage {
  write(object: KubeObject, outcome: { readonly ok: true } | { readonly ok: false; readonly message: string }, signal: AbortSignal): Promise<KubeObject | undefined>;
}

export interface PipelineStages {
  /** The cached object for a key, or undefined when it is gone. */
  fetch(key: string): KubeObject | undefined;
  /** Converts a private copy of the object to the internal version. */
  convert(object: KubeObject): KubeObject;
  readonly box: OperatorBoxStage;
  readonly registry: RegistryStage;
  /** Absent when the CRD has no status subresource. */
  readonly status: StatusStage | undefined;
  /** What the runtime's own writes returned, until the cache shows them (one per controller). */
  readonly ownWrites: OwnWrites;
  /** Reports a failed write of the Ready=False status of a reconcile that failed anyway (and is requeued). */
  readonly onStatusError: (error: Error) => void;
}

/** A status write that failed: the reconcile fails with it (SPEC §4.6). */
class StatusWriteError extends Error {}

/**
 * Reconciles one key. Never throws: every failure, including one thrown by user code and a failed status write,
 * becomes an error outcome, which the worker requeues with backoff.
 */
export async function reconcileKey(stages: PipelineStages, key: string, signal: AbortSignal): Promise<ReconcileOutcome> {
  const { ownWrites } = stages;
  let object: KubeObject | undefined;
  try {
    const cached = ownWrites.resolve(key, stages.fetch(key));
    if (cached === undefined) {
      ownWrites.forget(key);
      const { requeueAfterMs } = await stages.box.notFound(key, signal);
      return { result: 'success', requeueAfterMs };
    }
    // Kept before conversion too, so that an object that fails to convert (or to validate) still gets its status.
    object = jsonClone(cached);
    carryFingerprint(cached, object); // what the managedFieldsChanged sentinel compares (kube/cache-slim.ts)
    object = stages.convert(object);
    if (object.metadata?.deletionTimestamp !== undefined) {
      const { requeueAfterMs } = await stages.box.delete({ key, object, signal });
      return { result: 'success', requeueAfterMs };
    }
    const output = await stages.box.reconcile({ key, object, signal });
    if (output.object !== undefined) {
      ownWrites.record(key, object, output.object, 'metadata', cachedVersionOf(stages, key));
      object = output.object;
    }
    await stages.registry.apply(object, output.desired, signal);
    if (output.writeStatus) await writeStatus(stages, key, object, { ok: true }, signal);
    return { result: 'success', requeueAfterMs: output.requeueAfterMs };
  } catch (thrown) {
    const error = signal.aborted ? abortError(signal, thrown) : toError(thrown);
    const statusFailed = thrown instanceof StatusWriteError;
    if (object !== undefined && object.metadata?.deletionTimestamp === undefined && !signal.aborted && !statusFailed) {
      try {
        await writeStatus(stages, key, object, { ok: false, message: error.message }, signal);
      } catch (statusError) {
        // The reconcile fails and is requeued with backoff whatever happens here; the next attempt writes it again.
        stages.onStatusError(toError(statusError));
      }
    }
    return { result: 'error', error };
  }
}

async function writeStatus(
  stages: PipelineStages,
  key: string,
  object: KubeObject,
  outcome: { readonly ok: true } | { readonly ok: false; readonly message: string },
  signal: AbortSignal,
): Promise<void> {
  if (stages.status === undefined) return;
  let answer: KubeObject | undefined;
  try {
    answer = await stages.status.write(object, outcome, signal);
  } catch (error) {
    const cause = toError(error);
    throw new StatusWriteError(`failed to write status: ${cause.message}`, { cause });
  }
  stages.ownWrites.record(key, object, answer, 'status', cachedVersionOf(stages, key));
}

/** The resourceVersion the cache holds for `key` now; null when it holds no object (what OwnWrites.record compares). */
function cachedVersionOf(stages: PipelineStages, key: string): string | null {
  const cached = stages.fetch(key);
  return cached === undefined ? null : (cached.metadata?.resourceVersion ?? null);
}

function abortError(signal: AbortSignal, thrown: unknown): Error {
  const reason = signal.reason instanceof Error ? signal.reason.message : 'aborted';
  return new Error(`reconcile aborted: ${reason}`, { cause: thrown });
}
