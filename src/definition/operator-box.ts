/**
 * The operatorBox of one CRD (SPEC §4): template phases, hooks, constructor, status, finalizers, with their
 * defaults, and the template syntax of every entry checked. Motif entries are added by motif.ts.
 */
import { TEMPLATE_KINDS, type OperatorBox, type StatusField, type TemplateEntry, type TemplateKind, type TemplatePhase } from './types.js';
import { formatPath as pathText, type Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';
import type { OperatorBoxInput, TemplateEntryInput, TemplatePhaseInput, StatusFieldInput } from './schema-operator-box.js';
import { normalizeConditions } from './conditions.js';
import { checkTemplates } from './template-check.js';
import { toPlain } from './freeze.js';
import { normalizeExternalCalls } from './external-calls.js';
import { normalizeAutoscale, normalizeCross, normalizePreReconcile, normalizeRequeue, normalizeWatch, type CrossDraft } from './box-flow.js';
import { takeCopy, takeRotateAfter } from './entry-copy.js';
import { takeTls } from './entry-tls.js';
import { takeForEach } from './entry-foreach.js';
import { codeRefs } from './code-args.js';
import { normalizeEvents } from './emit.js';
import { normalizeObserveEvents } from './observe-events.js';
import { CHOICE_KEY } from './profiles/templated.js';
import type { EntryProfileChoice } from './profile-choice-types.js';

export const PHASES = ['onCreate', 'onReconcile', 'onDelete'] as const;
export type PhaseName = (typeof PHASES)[number];

/** A checked input value: objects may lack required fields (already reported), list items may be `undefined`. */
export type Loose<T> = T extends readonly (infer U)[]
  ? readonly (Loose<U> | undefined)[]
  : T extends object
    ? { readonly [K in keyof T]?: Loose<T[K]> }
    : T;

/** A template entry without its place: what a Motif contributes once and every import stamps. */
export type EntryShape = Omit<TemplateEntry, 'path' | 'inputs'>;

/**
 * Builds the kind-independent part of an entry: `reconcile` (default false, SPEC §3.4), conditions, and the body
 * (everything else, with Orkestra-style `labels: [{key, value}]` turned into a map).
 */
export function entryShape(kind: TemplateKind, entry: Loose<TemplateEntryInput>, origin: Origin, path: Path, problems: ProblemList): EntryShape {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (key === 'reconcile' || key === 'when' || key === 'anyOf') continue;
    body[key] = key === 'labels' && Array.isArray(value) ? labelMap(value) : toPlain(value);
  }
  const copy = takeCopy(kind, body, origin, path, problems);
  const rotateAfter = takeRotateAfter(kind, body, origin, path, problems);
  const tls = takeTls(kind, body, origin, path, problems);
  const forEach = takeForEach(kind, body, origin, path, problems);
  const profileChoice = origin.dialect === 'orkestra' ? (body[CHOICE_KEY] as EntryProfileChoice | undefined) : undefined;
  if (profileChoice !== undefined) delete body[CHOICE_KEY];
  return {
    kind,
    reconcile: entry.reconcile ?? false,
    when: normalizeConditions(entry.when, origin, [...path, 'when'], problems),
    anyOf: normalizeConditions(entry.anyOf, origin, [...path, 'anyOf'], problems),
    body,
    ...(copy === undefined ? {} : { copy }),
    ...(rotateAfter === undefined ? {} : { rotateAfter }),
    ...(tls === undefined ? {} : { tls }),
    ...(forEach === undefined ? {} : { forEach }),
    ...(profileChoice === undefined ? {} : { profileChoice }),
  };
}

function labelMap(list: readonly unknown[]): Record<string, unknown> {
  const labels: Record<string, unknown> = {};
  for (const item of list) {
    const pair = item as { key?: string; value?: string } | undefined;
    if (pair?.key !== undefined) Object.defineProperty(labels, pair.key, { value: pair.value ?? '', enumerable: true, writable: true, configurable: true });
  }
  return labels;
}

/**
 * The entries of a phase as shapes with their document paths, templates checked. Used for the CRD's own phases
 * and for a Motif's `resources`.
 */
export function phaseShapes(
  phase: Loose<TemplatePhaseInput> | undefined,
  origin: Origin,
  path: Path,
  problems: ProblemList,
): Array<{ readonly shape: EntryShape; readonly index: number }> {
  const shapes: Array<{ shape: EntryShape; index: number }> = [];
  if (phase === undefined) return shapes;
  for (const kind of TEMPLATE_KINDS) {
    const list = phase[kind];
    (list ?? []).forEach((entry, index) => {
      if (entry === undefined) return;
      const entryPath = [...path, kind, index];
      checkTemplates(entry, entryPath, origin, problems);
      shapes.push({ shape: entryShape(kind, entry, origin, entryPath, problems), index });
    });
  }
  return shapes;
}

/** Adds entries to a phase under construction, keeping kinds in TEMPLATE_KINDS order. */
export function addToPhase(phase: Partial<Record<TemplateKind, TemplateEntry[]>>, entries: readonly TemplateEntry[]): void {
  for (const entry of entries) (phase[entry.kind] ??= []).push(entry);
}

/** A phase with its kinds in TEMPLATE_KINDS order and empty kinds left out. */
export function orderedPhase(phase: Partial<Record<TemplateKind, TemplateEntry[]>>): TemplatePhase {
  const result: Partial<Record<TemplateKind, readonly TemplateEntry[]>> = {};
  for (const kind of TEMPLATE_KINDS) {
    const list = phase[kind];
    if (list !== undefined && list.length > 0) result[kind] = list;
  }
  return result;
}

export interface OperatorBoxResult {
  readonly box: OperatorBox;
  /** Mutable phases, so that Motif imports can append to onCreate before the box is frozen. */
  readonly phases: Record<PhaseName, Partial<Record<TemplateKind, TemplateEntry[]>>>;
  /** `cross` entries, resolved once every CRD is known (cross-targets.ts). */
  readonly cross: readonly CrossDraft[];
}

/**
 * Normalises `operatorBox` (or its absence). `canonical` is the path used to name templates at render time:
 * `spec.crds.<name>.operatorBox`, the same in map and list form; `path` is where the box is in its document.
 */
export function normalizeOperatorBox(
  input: Loose<OperatorBoxInput> | undefined,
  origin: Origin,
  path: Path,
  canonical: Path,
  problems: ProblemList,
): OperatorBoxResult {
  const box: Loose<OperatorBoxInput> = input ?? {};
  const phases = { onCreate: {}, onReconcile: {}, onDelete: {} } as Record<PhaseName, Partial<Record<TemplateKind, TemplateEntry[]>>>;
  for (const name of PHASES) {
    const shapes = phaseShapes(box[name], origin, [...path, name], problems);
    addToPhase(
      phases[name],
      shapes.map(({ shape, index }) => ({ ...shape, path: pathText([...canonical, name, shape.kind, index]), inputs: {} })),
    );
  }
  const fields = statusFields(box.status?.fields, origin, [...path, 'status'], problems);
  const { hooks, constructor } = codeRefs(box.hooks, box.constructor, origin, path, problems);
  const preReconcile = normalizePreReconcile(box.preReconcile, origin, [...path, 'preReconcile'], problems);
  const watch = normalizeWatch(box.watch, origin, [...path, 'watch'], [...canonical, 'watch'], problems);
  const observeEvents = normalizeObserveEvents(box.observe?.events, origin, [...path, 'observe', 'events'], [...canonical, 'observe', 'events'], problems);
  const requeue = normalizeRequeue(box.requeue, origin, [...path, 'requeue'], problems);
  const cross = normalizeCross(box.cross, origin, [...path, 'cross'], [...canonical, 'cross'], problems);
  const autoscale = normalizeAutoscale(box.autoscale, origin, [...path, 'autoscale'], problems);
  const events = normalizeEvents(box.events, origin, [...path, 'events'], [...canonical, 'events'], problems);
  const when = normalizeConditions(box.when, origin, [...path, 'when'], problems);
  const anyOf = normalizeConditions(box.anyOf, origin, [...path, 'anyOf'], problems);
  const external = normalizeExternalCalls(box.external, origin, [...path, 'external'], problems);
  const ctorExternal = normalizeExternalCalls(box.constructor?.external, origin, [...path, 'constructor', 'external'], problems);
  if (external !== undefined && external.length > 0 && box.default === false) {
    problems.add(origin, [...path, 'external'], 'invalid-value', 'external calls feed templates and status fields, which a constructor (default: false) does not use; make the call in the constructor', { at: 'key' });
  }
  return {
    phases,
    cross,
    box: {
      default: box.default ?? true,
      finalizers: unique((box.finalizers ?? []).filter((f): f is string => f !== undefined)),
      onCreate: {},
      onReconcile: {},
      onDelete: {},
      hooks,
      constructor: constructor === undefined || ctorExternal === undefined || ctorExternal.length === 0 ? constructor : { ...constructor, external: ctorExternal },
      status: {
        conditions: box.status?.conditions ?? true,
        fields,
        ...(box.status?.observedGeneration === false ? { observedGeneration: false as const } : {}),
        ...(box.status?.write === false ? { write: false as const } : {}),
      },
      ...(when.length + anyOf.length === 0 ? {} : { conditions: { when, anyOf } }),
      ...(preReconcile === undefined ? {} : { preReconcile }),
      ...(watch === undefined || watch.length === 0 ? {} : { watch }),
      ...(observeEvents === undefined || observeEvents.length === 0 ? {} : { observeEvents }),
      ...(requeue === undefined ? {} : { requeue }),
      ...(autoscale === undefined ? {} : { autoscale }),
      ...(events === undefined || events.length === 0 ? {} : { events }),
      ...(external === undefined || external.length === 0 ? {} : { external }),
    },
  };
}

/** Checked `status.fields` (of an operatorBox at `path`, or of a Motif) → status fields, templates checked. */
export function statusFields(
  list: readonly (Loose<StatusFieldInput> | undefined)[] | undefined,
  origin: Origin,
  path: Path,
  problems: ProblemList,
): StatusField[] {
  const fields: StatusField[] = [];
  (list ?? []).forEach((field, index) => {
    if (field?.path === undefined || field.value === undefined) return;
    const fieldPath = [...path, 'fields', index];
    checkTemplates(field, fieldPath, origin, problems);
    fields.push({
      path: field.path,
      value: field.value,
      when: normalizeConditions(field.when, origin, [...fieldPath, 'when'], problems),
      anyOf: normalizeConditions(field.anyOf, origin, [...fieldPath, 'anyOf'], problems),
      ...(field.type === undefined ? {} : { type: field.type }),
      ...(field.clearOnFalse === true ? { clearOnFalse: true } : {}),
    });
  });
  return fields;
}

/** Distinct values, first occurrence wins, order kept. */
export function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
