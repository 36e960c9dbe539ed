/**
 * The queue parts of the normalised model that are more than a number: a CRD's own backoff of failed reconciles
 * (`queue.retryBackoff`) and the `queue.behaviour` rules the queue bound alone cannot express. Both dialects write
 * the same shape (docs/settings.md#queue-behaviour, docs/orkestra-compatibility.md#queue).
 */
import type { Condition as TemplateCondition } from '../template/index.js';

/**
 * `queue.retryBackoff`: this CRD's backoff of failed reconciles (per key, `baseDelayMs × multiplier^(n-1)` capped
 * at `maxDelayMs`), instead of the runtime's `rateLimiter` delays; absent fields keep the runtime's.
 */
export interface RetryBackoff {
  /** Absent: the runtime's `rateLimiter.baseDelay` (a `retryBackoff` that only sets `maxAttempts`). */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  readonly multiplier?: number;
  /**
   * Attempts of one failing streak, the first included (Orkestra's meaning): after that many failures in a row the
   * key is no longer retried with backoff; the give-up is reported (Warning Event, metric, log, inspection) and the
   * key runs again with its next change or the resync. Absent: retried until it succeeds.
   */
  readonly maxAttempts?: number;
}

/** One conditional drop of `queue.behaviour` (`onLimit` or `onThreshold` with `when` / `anyOf`). */
export interface QueueDrop {
  readonly rule: 'onLimit' | 'onThreshold';
  /** Percentage of the queue bound (`maxDepth`, or the autoscaler's) from which the rule applies; 100 for onLimit. */
  readonly percent: number;
  /** The drop happens only when these hold over the custom resource the key names (an empty list holds). */
  readonly when: readonly Readonly<TemplateCondition>[];
  readonly anyOf: readonly Readonly<TemplateCondition>[];
  /** The rule's document path, for messages (`spec.crds.app.queue.behaviour.onLimit`). */
  readonly path: string;
}

/**
 * `queue.behaviour` beyond the bound. Unconditional rules are folded into `settings.maxDepth` by the loader and
 * never appear here; this is present only when a rule has conditions or `onLimit` does not drop.
 */
export interface QueueBehaviour {
  /**
   * No hard bound: a key that no rule drops waits even past `maxDepth` (`onLimit` without `drop: true`, or with
   * conditions). The queue holds one entry per custom resource at most, so it stays bounded by the informer cache.
   */
  readonly unbounded: boolean;
  /** Conditional drops, lowest percentage first. */
  readonly drops: readonly QueueDrop[];
}
