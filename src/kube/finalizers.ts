/**
 * Adding and removing finalizers on an object without trampling anyone else's: a merge patch of
 * `metadata.finalizers` guarded by the object's resourceVersion, re-read and retried on 409 Conflict.
 */
import { KubeError } from '../errors.js';
import type { KubeClient } from './client.js';
import type { KubeObject, ResourceRef } from './resource.js';

const ATTEMPTS = 5;

/** Applies `change` to the object's finalizer list and writes it back when it differs. Returns the latest object. */
export async function updateFinalizers(
  client: KubeClient,
  ref: ResourceRef,
  object: KubeObject,
  change: (current: readonly string[]) => string[],
  signal?: AbortSignal,
): Promise<KubeObject | undefined> {
  let current: KubeObject | undefined = object;
  for (let attempt = 1; ; attempt++) {
    if (current === undefined) return undefined;
    const before = current.metadata?.finalizers ?? [];
    const after = change(before);
    if (after.length === before.length && after.every((value, index) => value === before[index])) return current;
    const meta = current.metadata ?? {};
    try {
      return await client.patch(
        ref,
        meta.name ?? '',
        meta.namespace,
        { metadata: { finalizers: after, resourceVersion: meta.resourceVersion } },
        { type: 'merge', signal },
      );
    } catch (error) {
      if (error instanceof KubeError && error.status === 404) return undefined;
      if (!(error instanceof KubeError) || error.status !== 409 || attempt >= ATTEMPTS) throw error;
      current = await client.get(ref, meta.name ?? '', meta.namespace, signal);
    }
  }
}

/** Adds the finalizers that are missing, in the given order, after the ones already there. */
export function withFinalizers(current: readonly string[], wanted: readonly string[]): string[] {
  const result = [...current];
  for (const finalizer of wanted) if (!result.includes(finalizer)) result.push(finalizer);
  return result;
}

/** Removes the given finalizers, keeping everyone else's. */
export function withoutFinalizers(current: readonly string[], ours: readonly string[]): string[] {
  return current.filter((finalizer) => !ours.includes(finalizer));
}
