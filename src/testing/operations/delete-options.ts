/** The parts of a DELETE's `DeleteOptions` the server honours (decoded by http/delete-options.ts). */

/** What a DELETE does with the object's dependents (deletion-finalizers.ts, the garbage collector). */
export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

export interface DeleteOptions {
  readonly propagationPolicy?: PropagationPolicy;
  readonly orphanDependents?: boolean;
  /** Seconds the object may take to go (a kind that deletes gracefully: Pods); negative is taken as 1. */
  readonly gracePeriodSeconds?: number;
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly dryRun?: boolean;
}
