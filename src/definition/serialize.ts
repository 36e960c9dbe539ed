/**
 * A normalised definition written back as a Katalog (map form, defaults left out), for printing or storing.
 * Loading the result gives an equal Definition, with three exceptions: a Komposer comes back as a Katalog
 * (its settings then report the source `definition`), Motif entries become plain `onCreate` entries (their
 * `inputs` cannot be written in a Katalog), and `files` lists only what the new load reads.
 */
import type { AutoscaleRule, Condition, EmitEvent, CrdDefinition, CrossEntry, Definition, Gate, NormalizeField, PreReconcile, StatusField, TemplateEntry, TemplatePhase, WatchEntry, ObservedEvent } from './types.js';
import { TEMPLATE_KINDS } from './types.js';
import type { QueueBehaviour } from './queue-types.js';
import { formatDuration } from '../util/duration.js';
import { crossSourceToInput } from './cross-source.js';
import { windowToInput } from './autoscale-windows.js';
import { toPlain } from './freeze.js';
import { copyToInput } from './entry-copy.js';
import { tlsToInput } from './entry-tls.js';
import { isBuiltinFunction } from '../template/index.js';
import { externalCallToInput } from './external-calls.js';
import { notificationToInput, notifyRulesToInput } from './notification-serialize.js';

type Json = Record<string, unknown>;

/** The Katalog input that normalises to `definition` (see the module comment for the exceptions). */
export function definitionToInput(definition: Definition): Json {
  const crds: Json = {};
  for (const crd of definition.crds.values()) crds[crd.name] = crdToInput(crd, definition.finalizers);
  return {
    apiVersion: definition.apiVersion,
    kind: 'Katalog',
    metadata: { name: definition.name, ...optional('description', definition.description) },
    spec: { ...(definition.finalizers.length > 0 ? { finalizers: [...definition.finalizers] } : {}), ...notificationToInput(definition.notification), crds },
    ...notesToInput(definition),
  };
}

/** The definition's user-defined notes (one list, shared by its Orkestra CRDs) as a top-level `notes` block. */
function notesToInput(definition: Definition): Json {
  const notes = [...definition.crds.values()].find((crd) => crd.notes !== undefined)?.notes;
  if (notes === undefined) return {};
  return { notes: notes.map(({ name, expression }) => ({ name, expression, ...(isBuiltinFunction(name, 'orkestra') ? { shadow: true } : {}) })) };
}

function optional(key: string, value: unknown): Json {
  return value === undefined ? {} : { [key]: value };
}

function crdToInput(crd: CrdDefinition, katalogFinalizers: readonly string[]): Json {
  const { apiTypes, settings } = crd;
  const retry = crd.retryBackoff;
  const queue = {
    ...optional('maxDepth', settings.maxDepth?.value),
    ...optional('failureThreshold', settings.failureThreshold?.value),
    ...(retry === undefined
      ? {}
      : {
          retryBackoff: {
            ...optional('initial', retry.baseDelayMs === undefined ? undefined : formatDuration(retry.baseDelayMs)),
            ...optional('max', retry.maxDelayMs === undefined ? undefined : formatDuration(retry.maxDelayMs)),
            ...optional('multiplier', retry.multiplier),
            ...optional('maxAttempts', retry.maxAttempts),
          },
        }),
    ...(crd.queueBehaviour === undefined ? {} : { behaviour: behaviourToInput(crd.queueBehaviour) }),
  };
  const ownFinalizers = crd.finalizers.filter((f) => !katalogFinalizers.includes(f));
  return {
    ...optional('description', crd.description),
    apiTypes: apiTypes.builtIn
      ? { kind: apiTypes.kind }
      : { group: apiTypes.group, version: apiTypes.version, kind: apiTypes.kind, plural: apiTypes.plural, scope: apiTypes.scope },
    ...optional('crdFile', crd.crdFile),
    ...(crd.enabled ? {} : { enabled: false }),
    ...optional('mode', crd.mode),
    ...optional('namespace', crd.namespace),
    ...optional('labelSelector', crd.labelSelector),
    ...optional('fieldSelector', crd.fieldSelector),
    ...(crd.labels === undefined ? {} : { labels: { ...crd.labels } }),
    ...(crd.normalize === undefined ? {} : { normalize: normalizeToInput(crd.normalize) }),
    ...notifyRulesToInput(crd.notifications),
    ...(crd.conversion === undefined
      ? {}
      : {
          conversion: {
            ...optional('storageVersion', crd.conversion.storageVersion),
            ...(crd.conversion.paths.length === 0 ? {} : { paths: crd.conversion.paths.map((p) => ({ from: p.from, to: p.to, spec: toPlain(p.spec) })) }),
            ...(crd.conversion.participant ? { participant: true } : {}),
            ...(crd.conversion.updateCrd ? { updateCRD: true } : {}),
          },
        }),
    ...(crd.enrich === undefined ? {} : crd.enrich.all ? { enrichAll: true } : { enrich: crd.enrich.targets.map((t) => (t.when.length + t.anyOf.length === 0 ? t.name : { [t.name]: conditionsToInput(t) })) }),
    ...optional('workers', settings.workers?.value),
    ...optional('resync', settings.resync === undefined ? undefined : formatDuration(settings.resync.value)),
    ...(Object.keys(queue).length > 0 ? { queue } : {}),
    ...(crd.dependsOn.length > 0 ? { dependsOn: Object.fromEntries(crd.dependsOn.map((d) => [d.name, d.condition])) } : {}),
    operatorBox: operatorBoxToInput(crd, ownFinalizers),
  };
}

function normalizeToInput(fields: readonly NormalizeField[]): Json {
  const typed = fields.filter((field) => field.type !== undefined);
  return {
    spec: Object.fromEntries(fields.map((field) => [field.path, field.value])),
    ...(typed.length === 0 ? {} : { types: Object.fromEntries(typed.map((field) => [field.path, field.type])) }),
  };
}

function operatorBoxToInput(crd: CrdDefinition, finalizers: readonly string[]): Json {
  const box = crd.operatorBox;
  return {
    default: box.default,
    ...(finalizers.length > 0 ? { finalizers: [...finalizers] } : {}),
    ...phaseToInput('onCreate', box.onCreate),
    ...phaseToInput('onReconcile', box.onReconcile),
    ...phaseToInput('onDelete', box.onDelete),
    ...(box.hooks === undefined ? {} : { hooks: { ...box.hooks } }),
    ...(box.constructor === undefined ? {} : { constructor: constructorToInput(box.constructor) }),
    status: {
      conditions: box.status.conditions,
      fields: box.status.fields.map(statusFieldToInput),
      ...(box.status.observedGeneration === false ? { observedGeneration: false } : {}),
      ...(box.status.write === false ? { write: false } : {}),
    },
    ...(box.conditions === undefined ? {} : conditionsToInput(box.conditions)),
    ...(box.preReconcile === undefined ? {} : { preReconcile: preReconcileToInput(box.preReconcile) }),
    ...(box.watch === undefined ? {} : { watch: box.watch.map(watchToInput) }),
    ...(box.observeEvents === undefined ? {} : { observe: { events: Object.fromEntries(box.observeEvents.map((entry) => [entry.name, observedEventToInput(entry)])) } }),
    ...(box.requeue === undefined ? {} : { requeue: { after: box.requeue.after, ...conditionsToInput(box.requeue) } }),
    ...(box.cross === undefined ? {} : { cross: box.cross.map(crossToInput) }),
    ...(box.autoscale === undefined ? {} : { autoscale: autoscaleToInput(box.autoscale) }),
    ...(box.events === undefined ? {} : { events: Object.fromEntries(box.events.map((event) => [event.name, eventToInput(event)])) }),
    ...(box.external === undefined ? {} : { external: box.external.map(externalCallToInput) }),
  };
}

function constructorToInput(ctor: NonNullable<CrdDefinition['operatorBox']['constructor']>): Json {
  const { external, ...rest } = ctor;
  return { ...rest, ...(external === undefined ? {} : { external: external.map(externalCallToInput) }) };
}

function eventToInput(event: EmitEvent): Json {
  return { type: event.type, reason: event.reason, message: event.message, on: event.on.length === 2 ? ['always'] : [...event.on], ...conditionsToInput(event) };
}

function autoscaleToInput(rule: AutoscaleRule): Json {
  const todo = rule.do;
  return {
    interval: formatDuration(rule.intervalMs),
    cooldown: formatDuration(rule.cooldownMs),
    conditions: conditionsToInput(rule),
    do: {
      ...(todo.workers === undefined ? {} : { workers: todo.workers }),
      ...(todo.maxDepth === undefined ? {} : { queueDepth: todo.maxDepth }),
      ...(todo.resyncMs === undefined ? {} : { resync: formatDuration(todo.resyncMs) }),
    },
    ...(rule.windows === undefined ? {} : { windows: { when: rule.windows.when.map(windowToInput), anyOf: rule.windows.anyOf.map(windowToInput) } }),
    ...(rule.sources === undefined ? {} : { sources: Object.fromEntries(Object.entries(rule.sources).map(([crd, source]) => [crd, crossSourceToInput(source)])) }),
  };
}

function crossToInput(entry: CrossEntry): Json {
  const selector = entry.matchLabels === undefined ? { ...optional('name', entry.name) } : { matchLabels: { ...entry.matchLabels } };
  const selected = entry.name !== undefined || entry.matchLabels !== undefined || entry.namespace !== undefined;
  return {
    crd: entry.crd,
    as: entry.as,
    ...(selected ? { selector: { ...selector, ...optional('namespace', entry.namespace) } } : {}),
    strategy: entry.strategy,
    ...(entry.source === undefined ? {} : { source: crossSourceToInput(entry.source) }),
  };
}

function gateToInput(g: Gate): Json {
  return {
    ...conditionsToInput(g),
    ...(g.sentinels.length > 0 ? { sentinels: [...g.sentinels] } : {}),
    ...(g.external === undefined ? {} : { external: g.external.map(externalCallToInput) }),
    ...(g.failPolicy === undefined ? {} : { failPolicy: g.failPolicy }),
  };
}

function preReconcileToInput(pre: PreReconcile): Json {
  const gate = (g: Gate | undefined): Json => (g === undefined ? {} : gateToInput(g));
  return {
    ...(pre.sentinels.length > 0 ? { sentinels: [...pre.sentinels] } : {}),
    ...(pre.external === undefined ? {} : { external: pre.external.map(externalCallToInput) }),
    ...(pre.enqueueGate === undefined ? {} : { enqueueGate: gate(pre.enqueueGate) }),
    ...(pre.reconcileGate === undefined ? {} : { reconcileGate: gate(pre.reconcileGate) }),
  };
}

function watchToInput(entry: WatchEntry): Json {
  return { apiVersion: entry.apiVersion, kind: entry.kind, ...optional('namespace', entry.namespace), ...optional('name', entry.name), ...routingToInput(entry) };
}

function observedEventToInput(entry: ObservedEvent): Json {
  const { name: _name, eventName, on: _on, keyFrom: _keyFrom, enqueueGate: _gate, path: _path, regarding, related, ...matches } = entry;
  return { ...matches, ...optional('name', eventName), ...(regarding === undefined ? {} : { regarding: { ...regarding } }), ...(related === undefined ? {} : { related: { ...related } }), ...routingToInput(entry) };
}

/** `on`, `enqueueGate` and `keyFrom`, which watch entries and observed Events share. */
function routingToInput(entry: Pick<WatchEntry, 'on' | 'enqueueGate' | 'keyFrom'>): Json {
  return {
    on: [...entry.on],
    ...(entry.enqueueGate === undefined ? {} : { enqueueGate: gateToInput(entry.enqueueGate) }),
    ...(entry.keyFrom === undefined ? {} : { keyFrom: 'label' in entry.keyFrom ? { label: entry.keyFrom.label } : { name: entry.keyFrom.name, ...optional('namespace', entry.keyFrom.namespace) } }),
  };
}

function phaseToInput(name: string, phase: TemplatePhase): Json {
  const result: Json = {};
  for (const kind of TEMPLATE_KINDS) {
    const entries = phase[kind];
    if (entries !== undefined && entries.length > 0) result[kind] = entries.map(entryToInput);
  }
  return Object.keys(result).length > 0 ? { [name]: result } : {};
}

function entryToInput(entry: TemplateEntry): Json {
  return {
    ...(toPlain(entry.body) as Json),
    ...(copyToInput(entry.kind, entry.copy) as Json),
    ...(entry.rotateAfter === undefined ? {} : { rotateAfter: entry.rotateAfter }),
    ...(tlsToInput(entry.tls) as Json),
    ...(entry.forEach === undefined ? {} : { forEach: { field: entry.forEach.field, as: entry.forEach.as } }),
    ...(entry.reconcile ? { reconcile: true } : {}),
    ...conditionsToInput(entry),
  };
}

function statusFieldToInput(field: StatusField): Json {
  return { path: field.path, value: field.value, ...(field.type === undefined ? {} : { type: field.type }), ...(field.clearOnFalse === true ? { clearOnFalse: true } : {}), ...conditionsToInput(field) };
}

function conditionsToInput(holder: { readonly when: readonly Condition[]; readonly anyOf: readonly Condition[] }): Json {
  return {
    ...(holder.when.length > 0 ? { when: holder.when.map((c) => toPlain(c)) } : {}),
    ...(holder.anyOf.length > 0 ? { anyOf: holder.anyOf.map((c) => toPlain(c)) } : {}),
  };
}

/** `queue.behaviour` that loads back to the same model (unconditional rules were folded into maxDepth). */
function behaviourToInput(behaviour: QueueBehaviour): Json {
  const out: Json = {};
  for (const drop of behaviour.drops) out[drop.rule] = { ...(drop.rule === 'onThreshold' ? { value: drop.percent } : {}), ...conditionsToInput(drop) };
  if (out.onLimit === undefined) {
    if (!behaviour.unbounded) out.onLimit = { drop: true };
    else if (out.onThreshold === undefined) out.onLimit = {};
  }
  return out;
}
