/**
 * The garbage collector's finalizers a DELETE sets (kube-apiserver's deletionFinalizersForGarbageCollection):
 * `orphan` when the dependents are to be orphaned first, `foregroundDeletion` when they are to be deleted first.
 * The request's `orphanDependents` or `propagationPolicy` decides; without either, a finalizer the object already
 * has keeps its policy; by default neither is set (the dependents are collected in the background). Pure.
 */
import type { DeleteOptions } from './delete-options.js';

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

function orphans(finalizers: readonly string[], options: DeleteOptions): boolean {
  if (options.orphanDependents !== undefined) return options.orphanDependents;
  if (options.propagationPolicy !== undefined) return options.propagationPolicy === 'Orphan';
  for (const finalizer of finalizers) {
    if (finalizer === ORPHAN_FINALIZER) return true;
    if (finalizer === FOREGROUND_FINALIZER) return false;
  }
  return false;
}

function deletesInForeground(finalizers: readonly string[], options: DeleteOptions): boolean {
  if (options.orphanDependents !== undefined) return false;
  if (options.propagationPolicy !== undefined) return options.propagationPolicy === 'Foreground';
  return finalizers.includes(FOREGROUND_FINALIZER);
}

/** The object's finalizers after a DELETE with these options, and whether they changed (as sets). */
export function deletionFinalizers(finalizers: readonly string[], options: DeleteOptions): { readonly changed: boolean; readonly finalizers: string[] } {
  const next = finalizers.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (orphans(finalizers, options)) next.push(ORPHAN_FINALIZER);
  if (deletesInForeground(finalizers, options)) next.push(FOREGROUND_FINALIZER);
  const before = new Set(finalizers);
  const after = new Set(next);
  const changed = before.size !== after.size || [...after].some((f) => !before.has(f));
  return { changed, finalizers: changed ? next : [...finalizers] };
}
