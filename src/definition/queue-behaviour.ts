/**
 * `queue.behaviour` and `queue.retryBackoff` (both dialects; Orkestra's are lifted in orkestra-lift-queue.ts) → the
 * model. The rules, as Orkestra documents them (documentation/reference/schema/02-katalog/14-queue.md):
 * - `onLimit: {drop: true}` drops new keys at `maxDepth`: katalog's bound as it is;
 * - `onThreshold: {value: N}` drops from N% of `maxDepth` on (`drop` is always true there): the bound becomes
 *   ceil(maxDepth × N / 100), and nothing else matters since that bound is the lowest;
 * - a rule with `when` / `anyOf` drops a new key only when they hold over its custom resource; a key they do not
 *   hold for is admitted, past `maxDepth` too unless an unconditional `onLimit` still bounds the queue;
 * - `onLimit` without `drop: true` and without conditions does not drop: keys wait past `maxDepth`.
 * Unconditional rules fold into the bound; what is left is the model's {@link QueueBehaviour}.
 */
import type { Field } from './crd-entries.js';
import { normalizeConditions } from './conditions.js';
import { formatPath } from './path.js';
import type { ProblemList } from './problems.js';
import type { QueueBehaviour, QueueDrop, RetryBackoff } from './queue-types.js';
import type { ConditionInput } from './schema-operator-box.js';
import { isMap } from './schema-check.js';
import { checkTemplates } from './template-check.js';
import { parseDuration } from '../util/duration.js';

type Rule = { drop?: unknown; value?: unknown; when?: unknown; anyOf?: unknown };
type Conditions = readonly (Partial<ConditionInput> | undefined)[];

/** What `queue.behaviour` makes of a CRD's queue: a lower bound, rules beyond it, or nothing (`{}`). */
export interface QueueBehaviourResult {
  /** The hard bound when an unconditional `onThreshold` lowers `maxDepth`. */
  readonly bound?: number;
  readonly behaviour?: QueueBehaviour;
}

/** Reads `queue.behaviour` against the CRD's `maxDepth` (required: the depth its rules refer to). */
export function readQueueBehaviour(field: Field | undefined, maxDepth: number | undefined, problems: ProblemList): QueueBehaviourResult {
  if (field === undefined || !isMap(field.value)) return {};
  const { origin, path } = field;
  if (maxDepth === undefined) {
    problems.add(origin, path, 'invalid-value', 'queue.behaviour needs queue.maxDepth (the depth its rules refer to)', { at: 'key' });
    return {};
  }
  checkTemplates(field.value, path, origin, problems);
  const limit = isMap(field.value.onLimit) ? (field.value.onLimit as Rule) : undefined;
  const threshold = isMap(field.value.onThreshold) ? (field.value.onThreshold as Rule) : undefined;
  const percent = threshold !== undefined && typeof threshold.value === 'number' && Number.isInteger(threshold.value) && threshold.value >= 1 && threshold.value <= 100 ? threshold.value : undefined;
  const drop = (rule: Rule, name: QueueDrop['rule'], at: number): QueueDrop | undefined => {
    const rulePath = [...path, name];
    const when = normalizeConditions(Array.isArray(rule.when) ? (rule.when as Conditions) : undefined, origin, [...rulePath, 'when'], problems);
    const anyOf = normalizeConditions(Array.isArray(rule.anyOf) ? (rule.anyOf as Conditions) : undefined, origin, [...rulePath, 'anyOf'], problems);
    return when.length + anyOf.length === 0 ? undefined : { rule: name, percent: at, when, anyOf, path: formatPath(rulePath) };
  };
  const drops: QueueDrop[] = [];
  if (threshold !== undefined && percent !== undefined) {
    const conditional = drop(threshold, 'onThreshold', percent);
    // Unconditional: the lowest bound of all, so the other rule cannot act.
    if (conditional === undefined) return { bound: Math.max(1, Math.ceil((maxDepth * percent) / 100)) };
    drops.push(conditional);
  }
  let unbounded = drops.length > 0;
  if (limit !== undefined) {
    const conditional = drop(limit, 'onLimit', 100);
    if (conditional !== undefined) drops.push(conditional);
    unbounded = conditional !== undefined || limit.drop !== true;
  }
  if (drops.length === 0 && !unbounded) return {};
  return { behaviour: { unbounded, drops } };
}

/** `queue.retryBackoff` ({initial, max, multiplier, maxAttempts}; the schema checked the shapes): delays in ms; max ≥ initial. */
export function readRetryBackoff(field: Field | undefined, problems: ProblemList): RetryBackoff | undefined {
  const value = field?.value;
  if (field === undefined || !isMap(value)) return undefined;
  const { initial, max, multiplier, maxAttempts } = value;
  const baseDelayMs = typeof initial === 'string' ? parseDuration(initial) : undefined;
  const maxDelayMs = typeof max === 'string' ? parseDuration(max) : undefined;
  if (maxDelayMs !== undefined && baseDelayMs !== undefined && maxDelayMs < baseDelayMs) {
    problems.add(field.origin, [...field.path, 'max'], 'invalid-value', `retryBackoff.max (${String(max)}) must not be shorter than initial (${String(initial)})`);
    return undefined;
  }
  const retry = {
    ...(baseDelayMs === undefined ? {} : { baseDelayMs }),
    ...(maxDelayMs === undefined ? {} : { maxDelayMs }),
    ...(typeof multiplier === 'number' ? { multiplier } : {}),
    ...(typeof maxAttempts === 'number' && Number.isInteger(maxAttempts) && maxAttempts >= 1 ? { maxAttempts } : {}),
  };
  return Object.keys(retry).length === 0 ? undefined : retry;
}
