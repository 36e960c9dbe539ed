/**
 * `queue.retryBackoff.maxAttempts`: when a key has failed that many times in a row, the workers stop retrying it
 * (controller/workers.ts). katalog never lets that happen silently (docs/reliability.md#giving-up):
 * - a Warning Event `RetriesExhausted` on the custom resource (`kubectl describe` shows it), recorded here, where
 *   the client and the cache are;
 * - the metric `controller_reconcile_retries_exhausted_total{crd}`, a warning log line, and the count and time on
 *   the CRD's inspection entry (`retries` in `/katalog/{crd}`), recorded by the lifecycle's observer.
 * The key runs again with its next change (spec, labels, a child) or the next resync, with a fresh count.
 */
import type { ControllerObserver } from '../controller/controller.js';
import { eventRecorderFor } from '../kube/event-recorder.js';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';

/** The Event's reason. */
export const RETRIES_EXHAUSTED = 'RetriesExhausted';

/** What a CRD's inspection entry shows of its give-ups (counts and times only, nothing of the objects). */
export interface RetriesRecord {
  readonly maxAttempts: number;
  exhausted: number;
  /** Epoch ms of the last give-up. */
  lastExhaustedAt: number | undefined;
}

export interface GiveUpEventOptions {
  readonly client: KubeClient;
  readonly logger: Logger;
  readonly now: () => number;
  readonly maxAttempts: number;
  /** The custom resource a key names, from the informer's cache. */
  readonly objectOf: (key: string) => KubeObject | undefined;
}

/** `observer`, plus the Warning Event of each give-up; the give-up is passed on to `observer.gaveUp`. */
export function withGiveUpEvents(observer: ControllerObserver, options: GiveUpEventOptions): ControllerObserver {
  const { client, logger, now, maxAttempts, objectOf } = options;
  return {
    ...observer,
    gaveUp: (key, attempts, error) => {
      observer.gaveUp?.(key, attempts, error);
      const object = objectOf(key);
      // Gone from the cache (deleted meanwhile): there is nothing left to describe; the log line and metric remain.
      if (object === undefined) return;
      const message = `reconcile failed ${attempts} times in a row (queue.retryBackoff.maxAttempts: ${maxAttempts}); not retried until the object changes or the next resync. Last error: ${error.message}`;
      // Best effort: the recorder reports its own failure, which is logged (the metric and log line already count the give-up).
      void eventRecorderFor(client, object, { component: 'katalog', now, onError: (failure) => logger.warn('could not record the RetriesExhausted Event', { key, error: failure }) }).warning(RETRIES_EXHAUSTED, message);
    },
  };
}
