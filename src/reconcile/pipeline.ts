/**
 * The reconcile of one key, stage by stage. This file alone knows the order (SPEC §3.2):
 * fetch → convert → operatorBox (or the delete path) → registry operations → status → outcome.
 * The outcome is a value; the worker maps it to the queue (reconcile/outcome.ts).
 */
import { toError } from '../errors.js';
import type { KubeObject } from '../kube/resource.js';
import type { DesiredChild, OperatorBoxStage } from '../operatorbox/stage.js';
import type { ReconcileOutcome } from './outcome.js';

/** Carries out the children a box declared (create, apply, prune). Empty until templates exist. */
export interface RegistryStage {
  apply(owner: KubeObject, desired: readonly DesiredChild[], signal: AbortSignal): Promise<void>;
}

/** Writes the status after a reconcile of a live object. */
export interface StatusStage {
  write(object: KubeObject, outcome: { readonly ok: true } | { readonly ok: false; readonly message: string }, signal: AbortSignal): Promise<void>;
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
  /** Reports a failure to write status (which never fails the reconcile). */
  readonly onStatusError: (error: Error) => void;
}

/** Reconciles one key. Never throws: every failure, including one thrown by user code, becomes an error outcome. */
export async function reconcileKey(stages: PipelineStages, key: string, signal: AbortSignal): Promise<ReconcileOutcome> {
  let object: KubeObject | undefined;
  try {
    const cached = stages.fetch(key);
    if (cached === undefined) {
      const { requeueAfterMs } = await stages.box.notFound(key, signal);
      return { result: 'success', requeueAfterMs };
    }
    // Kept before conversion too, so that an object that fails to convert (or to validate) still gets its status.
    object = structuredClone(cached);
    object = stages.convert(object);
    if (object.metadata?.deletionTimestamp !== undefined) {
      const { requeueAfterMs } = await stages.box.delete({ key, object, signal });
      return { result: 'success', requeueAfterMs };
    }
    const output = await stages.box.reconcile({ key, object, signal });
    object = output.object ?? object;
    await stages.registry.apply(object, output.desired, signal);
    if (output.writeStatus) await writeStatusQuietly(stages, object, { ok: true }, signal);
    return { result: 'success', requeueAfterMs: output.requeueAfterMs };
  } catch (thrown) {
    const error = signal.aborted ? abortError(signal, thrown) : toError(thrown);
    if (object !== undefined && object.metadata?.deletionTimestamp === undefined && !signal.aborted) {
      await writeStatusQuietly(stages, object, { ok: false, message: error.message }, signal);
    }
    return { result: 'error', error };
  }
}

async function writeStatusQuietly(
  stages: PipelineStages,
  object: KubeObject,
  outcome: { readonly ok: true } | { readonly ok: false; readonly message: string },
  signal: AbortSignal,
): Promise<void> {
  if (stages.status === undefined) return;
  try {
    await stages.status.write(object, outcome, signal);
  } catch (error) {
    stages.onStatusError(toError(error));
  }
}

function abortError(signal: AbortSignal, thrown: unknown): Error {
  const reason = signal.reason instanceof Error ? signal.reason.message : 'aborted';
  return new Error(`reconcile aborted: ${reason}`, { cause: thrown });
}
