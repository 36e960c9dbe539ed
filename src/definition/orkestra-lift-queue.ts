/**
 * Orkestra's `queue.behaviour` (current Orkestra, documentation/reference/schema/02-katalog/14-queue.md) and
 * `queue.retryBackoff`, lifted into katalog's shape, which is the same fields (queue-behaviour.ts reads both
 * dialects): `or` becomes `anyOf` and the condition shorthand is lifted, as in every other condition block. What
 * stays Orkestra-only is checked here: a rule other than onLimit / onThreshold is refused by name, `behaviour` needs
 * `maxDepth` (as `ork validate` says), and `onThreshold.value` is a whole percentage.
 */
import type { Path } from './path.js';
import { isMap } from './schema-check.js';
import { refuse, type Lift } from './orkestra-lift-steps.js';
import { liftConditionBlocks } from './orkestra-lift-box.js';

type Map = Record<string, unknown>;

const ANCHOR = 'queue';

/** Lifts `queue.behaviour` of the queue map at `at` (a rule it cannot read is removed, with its problem). */
export function liftQueueBehaviour(lift: Lift, queue: Map, at: Path): void {
  if (!Object.hasOwn(queue, 'behaviour')) return;
  const behaviour = queue.behaviour;
  const path = [...at, 'behaviour'];
  if (!isMap(behaviour)) {
    lift.problems.add(lift.origin, path, 'invalid-type', 'must be a map (onLimit, onThreshold)');
    delete queue.behaviour;
    return;
  }
  if (queue.maxDepth === undefined && queue.maxQueueDepth === undefined) {
    lift.problems.add(lift.origin, path, 'invalid-value', 'queue.behaviour needs queue.maxDepth (the depth its rules refer to)', { at: 'key' });
    delete queue.behaviour;
    return;
  }
  for (const key of Object.keys(behaviour)) {
    const rule = behaviour[key];
    const rulePath = [...path, key];
    if (key !== 'onLimit' && key !== 'onThreshold') {
      refuse(lift, behaviour, key, path, { feature: `queue.behaviour.${key}`, reason: 'Orkestra defines onLimit and onThreshold only', anchor: ANCHOR });
      continue;
    }
    if (!isMap(rule)) {
      lift.problems.add(lift.origin, rulePath, 'invalid-type', 'must be a map');
      delete behaviour[key];
      continue;
    }
    liftConditionBlocks(lift, rule, rulePath);
    if (key === 'onThreshold') {
      const value = rule.value;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 100) {
        lift.problems.add(lift.origin, [...rulePath, 'value'], 'invalid-value', 'onThreshold.value must be a whole percentage from 1 to 100');
        delete behaviour[key];
      }
    }
  }
}

/** `queue.retryBackoff`: the shorthand `5s` sets `initial` only; the full form is katalog's own. */
export function liftRetryBackoff(lift: Lift, queue: Map, at: Path): void {
  const retry = queue.retryBackoff;
  if (typeof retry === 'string') {
    queue.retryBackoff = { initial: retry };
    lift.origin.positions?.alias([...at, 'retryBackoff'], [...at, 'retryBackoff', 'initial']);
  }
}
