/**
 * Orkestra's `queue.behaviour` (current Orkestra, documentation/reference/schema/02-katalog/14-queue.md): what the
 * queue does when it reaches `maxDepth` (`onLimit`) or `value` percent of it (`onThreshold`). katalog's queue always
 * refuses new keys at its bound, so the unconditional forms map onto that bound:
 * - `onLimit: {drop: true}` is katalog's own rule: the bound stays `maxDepth`;
 * - `onThreshold: {value: N}` drops from N% of `maxDepth` on (Orkestra: `drop` is always true there): the bound
 *   becomes ceil(maxDepth × N / 100). With both, the lower bound wins, as the threshold fires first.
 * What katalog cannot do is refused by name: drops decided by conditions (`when`/`or`, evaluated per event with the
 * object in Orkestra), and `onLimit` without `drop: true` (a queue that keeps accepting past its bound).
 * `behaviour` needs `maxDepth`, as `ork validate` says.
 */
import type { Path } from './path.js';
import { isMap } from './schema-check.js';
import { refuse, type Lift } from './orkestra-lift-steps.js';

type Map = Record<string, unknown>;

const ANCHOR = 'queue';
const CONDITIONS = ['when', 'or', 'anyOf'];

/** Lifts `queue.behaviour` of the queue map at `at`; the queue's `maxDepth` is lowered for `onThreshold`. */
export function liftQueueBehaviour(lift: Lift, queue: Map, at: Path): void {
  if (!Object.hasOwn(queue, 'behaviour')) return;
  const behaviour = queue.behaviour;
  const path = [...at, 'behaviour'];
  if (!isMap(behaviour)) {
    lift.problems.add(lift.origin, path, 'invalid-type', 'must be a map (onLimit, onThreshold)');
    delete queue.behaviour;
    return;
  }
  const depthKey = Object.hasOwn(queue, 'maxDepth') ? 'maxDepth' : 'maxQueueDepth';
  const maxDepth = queue[depthKey];
  if (maxDepth === undefined) {
    lift.problems.add(lift.origin, path, 'invalid-value', 'queue.behaviour needs queue.maxDepth (the depth its rules refer to)', { at: 'key' });
    delete queue.behaviour;
    return;
  }
  let bound = typeof maxDepth === 'number' && Number.isInteger(maxDepth) && maxDepth > 0 ? maxDepth : undefined;
  for (const key of Object.keys(behaviour)) {
    const rule = behaviour[key];
    const rulePath = [...path, key];
    if (key !== 'onLimit' && key !== 'onThreshold') {
      refuse(lift, behaviour, key, path, { feature: `queue.behaviour.${key}`, reason: 'Orkestra defines onLimit and onThreshold only', anchor: ANCHOR });
      continue;
    }
    if (!isMap(rule)) {
      lift.problems.add(lift.origin, rulePath, 'invalid-type', 'must be a map');
      continue;
    }
    for (const condition of CONDITIONS) {
      if (Object.hasOwn(rule, condition)) {
        refuse(lift, rule, condition, rulePath, { feature: `conditional queue drops (queue.behaviour.${key}.${condition})`, reason: 'katalog\'s queue holds keys and decides at its bound without looking at the object; drop unconditionally or not at all', anchor: ANCHOR });
      }
    }
    if (key === 'onLimit') {
      if (rule.drop !== true) {
        lift.problems.add(lift.origin, rulePath, 'orkestra-unsupported', `queue.behaviour.onLimit without drop: true is not supported by katalog: its queue always refuses new keys at maxDepth (resync brings them back); see docs/orkestra-compatibility.md#${ANCHOR}`, { at: 'key' });
      }
      continue;
    }
    const value = rule.value;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 100) {
      lift.problems.add(lift.origin, [...rulePath, 'value'], 'invalid-value', 'onThreshold.value must be a whole percentage from 1 to 100');
      continue;
    }
    if (bound !== undefined) bound = Math.min(bound, Math.max(1, Math.ceil((bound * value) / 100)));
  }
  delete queue.behaviour;
  if (bound !== undefined) queue[depthKey] = bound;
}

/**
 * `queue.retryBackoff` (Orkestra: "delay before re-enqueuing a failed reconcile"): the shorthand `5s` sets `initial`
 * only; the full form is `{initial, max, multiplier, maxAttempts}`. katalog reads `{initial, max, multiplier}` as this
 * CRD's backoff of failed reconciles; `maxAttempts` is refused by name: katalog never stops retrying a failure.
 */
export function liftRetryBackoff(lift: Lift, queue: Map, at: Path): void {
  const retry = queue.retryBackoff;
  if (typeof retry === 'string') {
    queue.retryBackoff = { initial: retry };
    lift.origin.positions?.alias([...at, 'retryBackoff'], [...at, 'retryBackoff', 'initial']);
    return;
  }
  if (isMap(retry) && Object.hasOwn(retry, 'maxAttempts')) {
    refuse(lift, retry, 'maxAttempts', [...at, 'retryBackoff'], {
      feature: 'queue.retryBackoff.maxAttempts',
      reason: 'katalog retries a failed reconcile until it succeeds (its delay capped by max), it never gives up on one',
      anchor: ANCHOR,
    });
  }
}
