/**
 * The templates of one CRD, compiled once when the CRD activates (never per reconcile): for each phase, its
 * entries in declaration order with their builder, compiled body and compiled conditions. Compiling also checks
 * what the loader cannot: that every template kind has a builder and that short forms use known fields.
 */
import { nearest } from '../definition/suggest.js';
import { TEMPLATE_KINDS, type CrdDefinition, type TemplateEntry, type TemplatePhase } from '../definition/types.js';
import { RuntimeError } from '../errors.js';
import { COMMON_ENTRY_FIELDS, type KindBuilder } from '../registry/kind-builder.js';
import type { KindTable } from '../registry/kind-table.js';
import { compileProfileChoice, type CompiledProfileChoice } from './profile-choice.js';
import { compileConditions, compileValue, hasTemplateActions, type CompiledConditions, type CompiledValue, type TemplateDialect, type TemplateLimits } from '../template/index.js';

export type PhaseName = 'onCreate' | 'onReconcile' | 'onDelete';

export interface CompiledEntry {
  readonly entry: TemplateEntry;
  readonly builder: KindBuilder;
  readonly body: CompiledValue;
  readonly conditions: CompiledConditions;
  /** Kept in line with server-side apply: `reconcile: true`, or any entry of `onReconcile`. Otherwise created when missing. */
  readonly reconcile: boolean;
  /** Orkestra dialect: Motif inputs written as templates (`with: {image: "{{ .spec.image }}"}`), rendered first. */
  readonly inputs?: CompiledValue;
  /** The entry's copy fields (`entry.copy`), compiled; rendered with the body (copies.ts carries them out). */
  readonly copy?: CompiledValue;
  /** `entry.rotateAfter`, compiled (rotation.ts carries it out). */
  readonly rotateAfter?: CompiledValue;
  /** `entry.tls`, compiled (tls.ts carries it out). */
  readonly tls?: CompiledValue;
  /** `entry.profileChoice`, compiled: the body to render is chosen by the rendered profile names (profile-choice.ts). */
  readonly choice?: CompiledProfileChoice;
}

export interface TemplateSet {
  readonly onCreate: readonly CompiledEntry[];
  readonly onReconcile: readonly CompiledEntry[];
  readonly onDelete: readonly CompiledEntry[];
  /** `apiVersion` + `kind` of every child kind known without rendering (built-in short forms, literal manifests). */
  readonly staticKinds: ReadonlyArray<{ readonly apiVersion: string; readonly kind: string }>;
  /** Whether any phase has an entry and no labels are written onto the custom resource. */
  readonly empty: boolean;
  /** The CRD's `labels` (written onto each custom resource), compiled; absent when not declared. */
  readonly crLabels?: CompiledValue;
  /** The function table and data shape the templates use (the CRD's templateDialect). */
  readonly dialect: TemplateDialect;
  /** `operatorBox.when` / `anyOf`, compiled: while they do not hold, no onCreate/onReconcile entry applies. */
  readonly boxConditions?: CompiledConditions;
  /** The CRD's `pruning` (docs/operatorbox.md#pruning): absent prunes every undeclared child. */
  readonly pruning?: 'conditional';
}

/** Phase keys in the order entries are rendered: the loader's kind order, then kinds registered in code. */
function kindsOf(phase: TemplatePhase): string[] {
  const present = Object.keys(phase);
  const known = (TEMPLATE_KINDS as readonly string[]).filter((kind) => present.includes(kind));
  return [...known, ...present.filter((kind) => !known.includes(kind))];
}

function checkFields(entry: TemplateEntry, builder: KindBuilder, problems: string[]): void {
  if (builder.fields === undefined) return;
  const allowed = [...COMMON_ENTRY_FIELDS, ...builder.fields];
  for (const field of Object.keys(entry.body)) {
    if (allowed.includes(field)) continue;
    const suggestion = nearest(field, allowed);
    problems.push(`${entry.path}: unknown field "${field}" in ${entry.kind}${suggestion === undefined ? '' : `; did you mean "${suggestion}"?`}`);
  }
}

function literal(value: unknown): string | undefined {
  return typeof value === 'string' && !hasTemplateActions(value) && value !== '' ? value : undefined;
}

/**
 * Compiles every template of a CRD (with the runtime's `templateLimits`, and its clock for the clock notes); throws
 * one RuntimeError listing every problem.
 */
export function compileTemplateSet(crd: CrdDefinition, kinds: KindTable, limits?: Partial<TemplateLimits>, now?: () => number): TemplateSet {
  const problems: string[] = [];
  const dialect = crd.templateDialect ?? 'katalog';
  const withNotes = { ...(crd.notes === undefined ? {} : { notes: crd.notes }), ...(now === undefined ? {} : { now }) };
  const staticKinds = new Map<string, { apiVersion: string; kind: string }>();
  const compilePhase = (name: PhaseName): CompiledEntry[] => {
    const phase = crd.operatorBox[name];
    const out: CompiledEntry[] = [];
    for (const kind of kindsOf(phase)) {
      for (const entry of (phase as Readonly<Record<string, readonly TemplateEntry[] | undefined>>)[kind] ?? []) {
        const builder = kinds.get(entry.kind);
        if (builder === undefined) {
          problems.push(`${entry.path}: no builder for template kind "${entry.kind}" (register one with registerKind)`);
          continue;
        }
        checkFields(entry, builder, problems);
        try {
          const withLimits = limits === undefined ? {} : { limits };
          const body = compileValue(entry.body, { name: entry.path, dialect, ...withNotes, ...withLimits });
          const conditions = compileConditions({ when: entry.when, anyOf: entry.anyOf }, { name: entry.path, dialect, ...withNotes });
          const inputs = dialect === 'orkestra' && hasTemplateInputs(entry.inputs) ? compileValue(entry.inputs, { name: `${entry.path}.inputs`, dialect, ...withNotes, ...withLimits }) : undefined;
          const copy = entry.copy === undefined ? undefined : compileValue(entry.copy, { name: entry.path, dialect, ...withNotes, ...withLimits });
          const rotateAfter = entry.rotateAfter === undefined ? undefined : compileValue(entry.rotateAfter, { name: `${entry.path}.rotateAfter`, dialect, ...withNotes, ...withLimits });
          const tls = entry.tls === undefined ? undefined : compileValue(entry.tls, { name: `${entry.path}.tls`, dialect, ...withNotes, ...withLimits });
          const choice = compileProfileChoice(entry, (value, name) => compileValue(value, { name, dialect, ...withNotes, ...withLimits }));
          out.push({
            entry,
            builder,
            body,
            conditions,
            reconcile: entry.reconcile || name === 'onReconcile',
            ...(inputs === undefined ? {} : { inputs }),
            ...(copy === undefined ? {} : { copy }),
            ...(rotateAfter === undefined ? {} : { rotateAfter }),
            ...(tls === undefined ? {} : { tls }),
            ...(choice === undefined ? {} : { choice }),
          });
        } catch (error) {
          problems.push(error instanceof Error ? error.message : String(error));
          continue;
        }
        const produced = builder.produces ?? { apiVersion: literal(entry.body['apiVersion']), kind: literal(entry.body['kind']) };
        if (produced.apiVersion !== undefined && produced.kind !== undefined) {
          staticKinds.set(`${produced.apiVersion}/${produced.kind}`, { apiVersion: produced.apiVersion, kind: produced.kind });
        }
      }
    }
    return out;
  };
  const onCreate = compilePhase('onCreate');
  const onReconcile = compilePhase('onReconcile');
  const onDelete = compilePhase('onDelete');
  if (problems.length > 0) {
    throw new RuntimeError('E_TEMPLATES', `CRD ${crd.name}: templates cannot be used:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
  let crLabels: CompiledValue | undefined;
  try {
    crLabels = crd.labels === undefined ? undefined : compileValue(crd.labels, { name: `spec.crds.${crd.name}.labels`, dialect, ...withNotes, ...(limits === undefined ? {} : { limits }) });
  } catch (error) {
    throw new RuntimeError('E_TEMPLATES', `CRD ${crd.name}: labels cannot be used: ${error instanceof Error ? error.message : String(error)}`);
  }
  const empty = onCreate.length + onReconcile.length + onDelete.length === 0 && crLabels === undefined;
  const box = crd.operatorBox.conditions;
  const boxConditions = box === undefined ? undefined : compileConditions(box, { name: `spec.crds.${crd.name}.operatorBox`, dialect, ...(now === undefined ? {} : { now }) });
  return {
    onCreate,
    onReconcile,
    onDelete,
    staticKinds: [...staticKinds.values()],
    empty,
    dialect,
    ...(crLabels === undefined ? {} : { crLabels }),
    ...(boxConditions === undefined ? {} : { boxConditions }),
    ...(crd.pruning === undefined ? {} : { pruning: crd.pruning }),
  };
}

/** Whether some Motif input is a template string. */
export function hasTemplateInputs(inputs: Readonly<Record<string, unknown>> | undefined): boolean {
  return Object.values(inputs ?? {}).some((value) => typeof value === 'string' && hasTemplateActions(value));
}
