/**
 * The outcome of one reconcile, as a value, and the one place where it turns into a queue decision
 * (DESIGN.md habit 4): error → backoff; `requeueAfter` → forget the backoff, then add later; success → forget.
 */
export type ReconcileOutcome =
  | { readonly result: 'success'; readonly requeueAfterMs?: number | undefined }
  | { readonly result: 'error'; readonly error: Error };

export type RequeueDecision =
  | { readonly action: 'forget' }
  | { readonly action: 'forget-and-add-after'; readonly delayMs: number }
  | { readonly action: 'backoff' };

/** Maps an outcome to what the workqueue must do with the key. Pure. */
export function decideRequeue(outcome: ReconcileOutcome): RequeueDecision {
  if (outcome.result === 'error') return { action: 'backoff' };
  if (outcome.requeueAfterMs !== undefined && outcome.requeueAfterMs > 0) {
    return { action: 'forget-and-add-after', delayMs: outcome.requeueAfterMs };
  }
  return { action: 'forget' };
}
