/**
 * The status a reconcile leaves behind (SPEC §4.6): `observedGeneration`, a `Ready` condition (unless
 * `status.conditions: false`) and the declarative `status.fields`, written to the status subresource with a merge
 * patch. `lastTransitionTime` moves only when the condition's status changes; no write is made when nothing would
 * change; conditions of other writers, and status fields nobody declared, are kept.
 */
import { KubeError } from '../errors.js';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject, ResourceRef } from '../kube/resource.js';

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

const MESSAGE_LIMIT = 256;
const ATTEMPTS = 4;

/**
 * The status fields a reconcile wants, besides the ones it leaves alone. Pure. `fields` are the evaluated
 * `status.fields` (merged in; the runtime's own keys win); `options.conditions: false` leaves the Ready condition out.
 * `options.observedGeneration: false` writes no `observedGeneration` (status or condition).
 * `options.extraConditions` are conditions of the runtime's besides Ready (reconcile-time validation's), written
 * after it; each keeps its previous `lastTransitionTime` while its status stays.
 * `options.generation` is the generation the reconcile worked on (default: the object's): when `object` is a fresher
 * read (after a 409), its newer spec has not been reconciled yet, and `observedGeneration` must not claim it.
 */
export function desiredStatus(
  object: KubeObject,
  outcome: { readonly ok: true } | { readonly ok: false; readonly message: string },
  now: string,
  fields: Readonly<Record<string, unknown>> = {},
  options: {
    readonly conditions?: boolean;
    readonly generation?: number | undefined;
    readonly observedGeneration?: boolean;
    readonly extraConditions?: readonly Condition[] | undefined;
  } = {},
): Record<string, unknown> {
  // `observedGeneration: false` (Orkestra's ignoreObservedGeneration): no generation is claimed anywhere.
  const generation = options.observedGeneration === false ? undefined : (options.generation ?? object.metadata?.generation);
  if (options.conditions === false) {
    const next: Record<string, unknown> = { ...fields };
    delete next['conditions'];
    if (generation !== undefined && outcome.ok) next['observedGeneration'] = generation;
    return next;
  }
  const status = (object['status'] ?? {}) as Record<string, unknown>;
  const conditions = Array.isArray(status['conditions']) ? (status['conditions'] as Condition[]) : [];
  const previous = conditions.find((condition) => condition.type === 'Ready');
  const ready: Condition = outcome.ok
    ? { type: 'Ready', status: 'True', reason: 'ReconcileSucceeded', message: '', lastTransitionTime: now }
    : { type: 'Ready', status: 'False', reason: 'ReconcileError', message: truncate(outcome.message), lastTransitionTime: now };
  if (previous !== undefined && previous.status === ready.status) ready.lastTransitionTime = previous.lastTransitionTime;
  if (generation !== undefined) ready.observedGeneration = generation;
  const extra = (options.extraConditions ?? []).map((condition) => {
    const before = conditions.find((existing) => existing.type === condition.type);
    return before !== undefined && before.status === condition.status ? { ...condition, lastTransitionTime: before.lastTransitionTime } : condition;
  });
  const ours = new Set(['Ready', ...extra.map((condition) => condition.type)]);
  const next: Record<string, unknown> = {
    ...fields,
    conditions: [...conditions.filter((condition) => !ours.has(condition.type)), ready, ...extra],
  };
  if (generation !== undefined && outcome.ok) next['observedGeneration'] = generation;
  return next;
}

/**
 * True when merge-patching `wanted` into `current` would change nothing. `conditions` and `observedGeneration` must
 * be equal (lastTransitionTime of an unchanged condition included); other fields follow merge-patch rules: a map
 * needs only the keys it sets, and `null` (delete) matches a missing field.
 */
export function statusUnchanged(current: unknown, wanted: Readonly<Record<string, unknown>>): boolean {
  const status = (current ?? {}) as Record<string, unknown>;
  return Object.entries(wanted).every(([field, value]) =>
    field === 'conditions' || field === 'observedGeneration' ? sameJson(status[field], value) : mergeHolds(value, status[field]),
  );
}

/** Whether merge-patching `patch` onto `current` leaves it as it is. */
function mergeHolds(patch: unknown, current: unknown): boolean {
  if (patch === null) return current === undefined || current === null;
  if (typeof patch === 'object' && !Array.isArray(patch)) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return false;
    return Object.entries(patch as Record<string, unknown>).every(([key, value]) => mergeHolds(value, (current as Record<string, unknown>)[key]));
  }
  return sameJson(current, patch);
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a).filter((key) => (a as Record<string, unknown>)[key] !== undefined);
  const keysB = Object.keys(b).filter((key) => (b as Record<string, unknown>)[key] !== undefined);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

function truncate(message: string): string {
  return message.length <= MESSAGE_LIMIT ? message : `${message.slice(0, MESSAGE_LIMIT - 3)}...`;
}

/**
 * Writes the status when it differs: a merge patch of the status subresource guarded by the resourceVersion of
 * `object` (so that conditions other writers added meanwhile are never overwritten); on 409 it re-reads the object
 * and recomputes. `compute` gets the freshest object and returns the wanted status fields. Resolves with the API
 * server's answer (parsed without its `managedFields`, which the runtime only drops), or `'unchanged'` (no request) or `'gone'` (404); rejects on any other failure.
 *
 * Pass the latest object the runtime knows (see reconcile/own-writes.ts): then a 409 only happens when someone else
 * wrote in between, never because of the runtime's own earlier write.
 */
export async function writeStatus(
  client: KubeClient,
  ref: ResourceRef,
  object: KubeObject,
  compute: (fresh: KubeObject) => Record<string, unknown>,
  signal?: AbortSignal,
): Promise<KubeObject | 'unchanged' | 'gone'> {
  let current: KubeObject | undefined = object;
  for (let attempt = 1; ; attempt++) {
    if (current === undefined) return 'gone';
    const wanted = compute(current);
    if (statusUnchanged(current['status'], wanted)) return 'unchanged';
    const meta = current.metadata ?? {};
    try {
      return await client.patch(ref, meta.name ?? '', meta.namespace, { metadata: { resourceVersion: meta.resourceVersion }, status: wanted }, { type: 'merge', subresource: 'status', signal, withoutManagedFields: true });
    } catch (error) {
      if (error instanceof KubeError && error.status === 404) return 'gone';
      if (!(error instanceof KubeError) || error.status !== 409 || attempt >= ATTEMPTS) throw error;
      current = await client.get(ref, meta.name ?? '', meta.namespace, signal);
    }
  }
}
