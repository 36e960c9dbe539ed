/**
 * The control-flow blocks of an operatorBox: `preReconcile` (gates and their sentinels), `watch` (other kinds
 * whose changes reconcile the custom resources again) and `cross` (other CRDs' custom resources read into the
 * template data), checked and normalised into the model. What can be checked offline is: a gate's sentinels are
 * declared under `preReconcile.sentinels` (as Orkestra requires), a watch names a literal kind, `keyFrom` has
 * exactly one of `label` and `name`, a cross entry has exactly one selector and its own `.cross` key.
 */
import type { AutoscaleRule, CrossEntry, Gate, PreReconcile, RequeueRule, Sentinel, WatchEntry, WatchEvent } from './types.js';
import { formatPath, type Path } from './path.js';
import { SENTINELS } from './flow-types.js';
import type { Origin, ProblemList } from './problems.js';
import type { AutoscaleInput, CrossEntryInput, GateInput, OperatorBoxInput, PreReconcileInput, WatchEntryInput } from './schema-operator-box.js';
import { parseDuration } from '../util/duration.js';
import type { Loose } from './operator-box.js';
import { normalizeConditions } from './conditions.js';
import { checkTemplates } from './template-check.js';
import { normalizeExternalCalls } from './external-calls.js';
import { normalizeWindows } from './autoscale-windows.js';
import { normalizeCrossSource } from './cross-source.js';
import { crossTarget } from './cross-label-selector.js';
import { normalizeFigureSources } from './autoscale-sources.js';

const ALL_EVENTS: readonly WatchEvent[] = ['create', 'update', 'delete'];

function present<T>(list: readonly (T | undefined)[] | undefined): T[] {
  return (list ?? []).filter((item): item is T => item !== undefined);
}

function gate(input: Loose<GateInput> | undefined, declared: readonly Sentinel[], shared: readonly string[], origin: Origin, path: Path, problems: ProblemList): Gate | undefined {
  if (input === undefined) return undefined;
  checkTemplates({ when: input.when, anyOf: input.anyOf }, path, origin, problems);
  const external = normalizeExternalCalls(input.external, origin, [...path, 'external'], problems, new Set(shared));
  const sentinels = present(input.sentinels);
  sentinels.forEach((name, index) => {
    if (!declared.includes(name)) {
      problems.add(origin, [...path, 'sentinels', index], 'invalid-value', `sentinel "${name}" is not declared under preReconcile.sentinels; declare it there first`);
    }
  });
  return {
    when: normalizeConditions(input.when, origin, [...path, 'when'], problems),
    anyOf: normalizeConditions(input.anyOf, origin, [...path, 'anyOf'], problems),
    sentinels,
    ...(external === undefined || external.length === 0 ? {} : { external }),
    ...(input.failPolicy === undefined ? {} : { failPolicy: input.failPolicy }),
  };
}

/** `operatorBox.preReconcile` → the model's gates; undefined when absent. */
export function normalizePreReconcile(input: Loose<PreReconcileInput> | undefined, origin: Origin, path: Path, problems: ProblemList): PreReconcile | undefined {
  if (input === undefined) return undefined;
  const sentinels = present(input.sentinels);
  const external = normalizeExternalCalls(input.external, origin, [...path, 'external'], problems);
  const shared = (external ?? []).map((call) => call.name);
  return {
    sentinels,
    enqueueGate: gate(input.enqueueGate, sentinels, shared, origin, [...path, 'enqueueGate'], problems),
    reconcileGate: gate(input.reconcileGate, sentinels, shared, origin, [...path, 'reconcileGate'], problems),
    ...(external === undefined || external.length === 0 ? {} : { external }),
  };
}

/** `operatorBox.watch` → the model's watch entries; undefined when absent. `canonical` names entries in messages. */
export function normalizeWatch(
  list: readonly (Loose<WatchEntryInput> | undefined)[] | undefined,
  origin: Origin,
  path: Path,
  canonical: Path,
  problems: ProblemList,
): WatchEntry[] | undefined {
  if (list === undefined) return undefined;
  const entries: WatchEntry[] = [];
  list.forEach((entry, index) => {
    if (entry?.apiVersion === undefined || entry.kind === undefined) return;
    const at = [...path, index];
    for (const key of ['apiVersion', 'kind', 'namespace', 'name'] as const) {
      if (entry[key]?.includes('{{') === true) problems.add(origin, [...at, key], 'invalid-value', `watch ${key} must be literal (a watch is opened once, before any custom resource is seen)`);
    }
    const key = normalizeKeyFrom(entry.keyFrom, origin, at, problems);
    const on = present(entry.on);
    const enqueueGate = watchGate(entry.enqueueGate, origin, [...at, 'enqueueGate'], problems);
    entries.push({
      apiVersion: entry.apiVersion,
      kind: entry.kind,
      namespace: entry.namespace,
      name: entry.name,
      on: on.length === 0 ? ALL_EVENTS : [...new Set(on)],
      keyFrom: key,
      ...(enqueueGate === undefined ? {} : { enqueueGate }),
      path: formatPath([...canonical, index]),
    });
  });
  return entries;
}

/** `keyFrom` of a watch entry or an observed Event (at `at`, its holder): exactly one of `label` and `name`. */
export function normalizeKeyFrom(keyFrom: Loose<WatchEntryInput>['keyFrom'], origin: Origin, at: Path, problems: ProblemList): WatchEntry['keyFrom'] {
  if (keyFrom === undefined) return undefined;
  if ((keyFrom.label === undefined) === (keyFrom.name === undefined)) {
    problems.add(origin, [...at, 'keyFrom'], 'invalid-value', 'keyFrom needs exactly one of label and name');
    return undefined;
  }
  if (keyFrom.label !== undefined) {
    if (keyFrom.namespace !== undefined) problems.add(origin, [...at, 'keyFrom', 'namespace'], 'invalid-value', 'keyFrom.namespace qualifies keyFrom.name; it has no meaning with keyFrom.label');
    return { label: keyFrom.label };
  }
  return keyFrom.name === undefined ? undefined : { name: keyFrom.name, namespace: keyFrom.namespace };
}

/**
 * A watch entry's enqueueGate: any sentinel may be named (they compare the watched object's old and new state, so
 * there is nothing to declare under preReconcile); external calls are refused, as a call per watch event of
 * another kind would be made before anything is known to need it.
 */
export function watchGate(input: Loose<GateInput> | undefined, origin: Origin, path: Path, problems: ProblemList): Gate | undefined {
  if (input === undefined) return undefined;
  if (input.external !== undefined || input.failPolicy !== undefined) {
    problems.add(origin, [...path, input.external === undefined ? 'failPolicy' : 'external'], 'invalid-value', "a watch entry's enqueueGate makes no external calls (katalog runs it in the watch, for every change of the watched kind); put the call in preReconcile", { at: 'key' });
  }
  const { when, anyOf, sentinels } = input;
  return gate({ ...(when === undefined ? {} : { when }), ...(anyOf === undefined ? {} : { anyOf }), ...(sentinels === undefined ? {} : { sentinels }) }, SENTINELS, [], origin, path, problems);
}

/** `operatorBox.requeue` → the model's rule; a literal `after` must be a duration (a template is checked when rendered). */
export function normalizeRequeue(input: Loose<OperatorBoxInput['requeue']> | undefined, origin: Origin, path: Path, problems: ProblemList): RequeueRule | undefined {
  if (input?.after === undefined) return undefined;
  checkTemplates(input, path, origin, problems);
  if (!input.after.includes('{{') && parseDuration(input.after) === undefined) {
    problems.add(origin, [...path, 'after'], 'invalid-value', `requeue.after "${input.after}" is not a duration (such as 30s, 5m, 1h30m)`);
  }
  return {
    after: input.after,
    when: normalizeConditions(input.when, origin, [...path, 'when'], problems),
    anyOf: normalizeConditions(input.anyOf, origin, [...path, 'anyOf'], problems),
  };
}

/** A cross entry before its target is resolved (that needs every CRD of the definition), with where it is written. */
export interface CrossDraft {
  readonly entry: Omit<CrossEntry, 'apiVersion' | 'kind'>;
  readonly origin: Origin;
  readonly path: Path;
  /** Orkestra's `labelSelector` (checked pairs): `entry.crd` is empty until resolveCross finds the CRD through it. */
  readonly labelSelector?: Readonly<Record<string, string>>;
}

/** `operatorBox.cross` → drafts (see {@link resolveCross}); a selector is required, by name or by labels. */
export function normalizeCross(
  list: readonly (Loose<CrossEntryInput> | undefined)[] | undefined,
  origin: Origin,
  path: Path,
  canonical: Path,
  problems: ProblemList,
): CrossDraft[] {
  const drafts: CrossDraft[] = [];
  (list ?? []).forEach((input, index) => {
    if (input === undefined) return;
    const at = [...path, index];
    const target = crossTarget(input, origin, at, problems);
    if (target === undefined) return;
    checkTemplates(input, at, origin, problems);
    const selector = input.selector ?? {};
    // By labelSelector alone, Orkestra reads the first custom resource whose labels hold the selector's pair.
    const written = selector.matchLabels ?? (selector.name === undefined ? target.labelSelector : undefined);
    const labels = written === undefined ? undefined : definedEntries(written);
    const byLabels = labels !== undefined && Object.keys(labels).length > 0;
    // A source entry may read a route that needs no custom resource (metrics, health); cross-targets.ts checks the rest.
    const unselected = input.source !== undefined && !byLabels && selector.name === undefined;
    if (!unselected && byLabels === (selector.name !== undefined)) {
      problems.add(origin, input.selector === undefined ? at : [...at, 'selector'], 'invalid-value', 'a cross entry needs exactly one of selector.name and selector.matchLabels');
      return;
    }
    const as = input.as ?? target.crd;
    if (drafts.some((draft) => draft.entry.as === as)) {
      problems.add(origin, [...at, input.as === undefined ? 'crd' : 'as'], 'invalid-value', `two cross entries read into .cross.${as}; give one of them another "as"`);
      return;
    }
    drafts.push({
      entry: {
        crd: target.crd,
        as,
        name: byLabels ? undefined : selector.name,
        namespace: selector.namespace,
        matchLabels: byLabels ? labels : undefined,
        strategy: input.strategy ?? 'first',
        ...(input.source === undefined ? {} : { source: normalizeCrossSource(input.source, origin, [...at, 'source'], problems) }),
        path: formatPath([...canonical, index]),
      },
      origin,
      path: at,
      ...(target.labelSelector === undefined ? {} : { labelSelector: target.labelSelector }),
    });
  });
  return drafts;
}

function definedEntries(map: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(map)) if (value !== undefined) out[key] = value;
  return out;
}

/** The figures an autoscale condition may read (`metrics.<name>`). */
export const AUTOSCALE_METRICS = ['queueDepth', 'workers', 'workersBusyPercent', 'workersIdlePercent', 'errorRatePercent', 'reconcileDurationP95Ms'] as const;

/** `operatorBox.autoscale` → the model's rule; durations checked, conditions must read `metrics.<figure>`. */
export function normalizeAutoscale(input: Loose<AutoscaleInput> | undefined, origin: Origin, path: Path, problems: ProblemList): AutoscaleRule | undefined {
  if (input === undefined) return undefined;
  const duration = (value: string | undefined, key: string, at: Path, fallback: number): number => {
    if (value === undefined) return fallback;
    const ms = parseDuration(value);
    if (ms === undefined || ms <= 0) problems.add(origin, [...at, key], 'invalid-value', `autoscale ${key} "${value}" is not a positive duration (such as 15s, 2m)`);
    return ms ?? fallback;
  };
  const conditions = input.conditions ?? {};
  for (const block of ['when', 'anyOf'] as const) {
    (conditions[block] ?? []).forEach((condition, index) => {
      const field = condition?.field;
      if (field === undefined || field.includes('{{')) return;
      const name = /^(?:cross\.[^.]+\.)?metrics\.(.+)$/.exec(field)?.[1];
      if (name === undefined || !(AUTOSCALE_METRICS as readonly string[]).includes(name)) {
        problems.add(origin, [...path, 'conditions', block, index, 'field'], 'invalid-value', `autoscale conditions read metrics.<figure> or cross.<crd>.metrics.<figure>, the figure one of ${AUTOSCALE_METRICS.join(', ')}; "${field}" is not one`);
      }
    });
  }
  const todo = input.do ?? {};
  const resync = todo.resync === undefined ? undefined : duration(todo.resync, 'resync', [...path, 'do'], 0);
  const windows = normalizeWindows(input.windows, origin, [...path, 'windows'], problems);
  const sources = normalizeFigureSources(input.sources, origin, [...path, 'sources'], problems);
  return {
    intervalMs: duration(input.interval, 'interval', path, 15_000),
    cooldownMs: duration(input.cooldown, 'cooldown', path, 120_000),
    when: normalizeConditions(conditions.when, origin, [...path, 'conditions', 'when'], problems),
    anyOf: normalizeConditions(conditions.anyOf, origin, [...path, 'conditions', 'anyOf'], problems),
    do: {
      ...(todo.workers === undefined ? {} : { workers: todo.workers }),
      ...(todo.queueDepth === undefined ? {} : { maxDepth: todo.queueDepth }),
      ...(resync === undefined ? {} : { resyncMs: resync }),
    },
    ...(windows === undefined ? {} : { windows }),
    ...(sources === undefined ? {} : { sources }),
  };
}
