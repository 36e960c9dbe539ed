/**
 * Motif imports (SPEC §2.4): `imports: [{motif: ./web.yaml, with: {domain: x}}]` in a CRD entry. The Motif's
 * `resources` are appended to the CRD's `onCreate` (after the CRD's own entries), its `onReconcile` and
 * `onDelete` to those phases, and its `status.fields` after the CRD's own; each carries `inputs` (the Motif's
 * defaults merged with `with:`). The `notify:` of a Motif's conditions (lifted into its `notifications`) become
 * rules of the importing CRD, with the same inputs, as Orkestra's merge leaves them on the CRD's conditions
 * (docs/orkestra-compatibility.md#notify-in-a-motif). A Motif is read and checked once per load, however often imported.
 */
import { resolve } from 'node:path';
import type { StatusField, TemplateEntry } from './types.js';
import type { PhaseName } from './operator-box.js';
import { liftDocument } from './orkestra-lift.js';
import { statusFields } from './operator-box.js';
import { formatPath, type Path } from './path.js';
import type { Field } from './crd-entries.js';
import { documentKind, readDocument, type LoadContext } from './documents.js';
import { checkSchema, isMap } from './schema-check.js';
import { MotifSchema, type MotifInput } from './schema.js';
import { phaseShapes, type EntryShape, type Loose } from './operator-box.js';
import { didYouMean, nearest } from './suggest.js';
import { toPlain } from './freeze.js';
import { normalizeNotifyRules } from './notification.js';
import type { NotifyRule } from './notification-types.js';

/** A Motif read and checked once. */
interface LoadedMotif {
  readonly name: string;
  readonly inputs: ReadonlyArray<{ readonly name: string; readonly required: boolean; readonly default?: unknown }>;
  readonly entries: ReadonlyArray<{ readonly shape: EntryShape; readonly index: number; readonly phase: PhaseName; readonly key: string }>;
  readonly status: readonly StatusField[];
  readonly notifications: readonly NotifyRule[];
}

/** What the imports of one CRD contribute. */
export interface MotifContribution {
  readonly entries: ReadonlyArray<{ readonly phase: PhaseName; readonly entry: TemplateEntry }>;
  readonly status: readonly StatusField[];
  readonly notifications: readonly NotifyRule[];
}

function loadMotif(written: string, field: Field, path: Path, context: LoadContext): LoadedMotif | undefined {
  const file = resolve(field.origin.baseDir, written);
  if (context.motifs.has(file)) return context.motifs.get(file) as LoadedMotif | undefined;
  const document = readDocument(written, field.origin, path, context);
  if (document === undefined) {
    // Read but not valid YAML: remember, so the syntax errors are reported once. Unreadable: report per import.
    if (context.files.includes(file)) context.motifs.set(file, undefined);
    return undefined;
  }
  const { problems } = context;
  const kind = documentKind(document.value, document.origin, problems);
  let motif: LoadedMotif | undefined;
  if (kind !== undefined && kind !== 'Motif') {
    problems.add(field.origin, path, 'wrong-kind', `"${written}" is a ${kind}, not a Motif`);
  } else if (kind === 'Motif') {
    const lifted = liftDocument(document.value, kind, document.origin, context);
    const origin = lifted.origin;
    const checked = checkSchema(MotifSchema, lifted.value, [], problems, origin) as Loose<MotifInput> | undefined;
    const inputs: Array<{ name: string; required: boolean; default?: unknown }> = [];
    (checked?.inputs ?? []).forEach((input, index) => {
      if (input?.name === undefined) return;
      if (inputs.some((i) => i.name === input.name)) {
        problems.add(origin, ['inputs', index, 'name'], 'duplicate-input', `input "${input.name}" is declared twice`);
        return;
      }
      inputs.push({ name: input.name, required: input.required ?? false, ...(input.default === undefined ? {} : { default: toPlain(input.default) }) });
    });
    const entries = [
      ...phaseShapes(checked?.resources, origin, ['resources'], problems).map((e) => ({ ...e, phase: 'onCreate' as const, key: 'resources' })),
      ...phaseShapes(checked?.onReconcile, origin, ['onReconcile'], problems).map((e) => ({ ...e, phase: 'onReconcile' as const, key: 'onReconcile' })),
      ...phaseShapes(checked?.onDelete, origin, ['onDelete'], problems).map((e) => ({ ...e, phase: 'onDelete' as const, key: 'onDelete' })),
    ];
    const status = statusFields(checked?.status?.fields, origin, ['status'], problems);
    const notifications = normalizeNotifyRules(checked?.notifications === undefined ? undefined : { value: checked.notifications, origin, path: ['notifications'] }, problems);
    motif = { name: checked?.metadata?.name ?? written, inputs, entries, status, notifications };
  }
  context.motifs.set(file, motif);
  return motif;
}

/**
 * The template entries contributed by the `imports` field of CRD `crdName`. Unknown `with:` keys and missing
 * required inputs are problems. `canonical` names the entries: `spec.crds.<name>.imports[i].resources.<kind>[j]`.
 */
export function importMotifs(field: Field | undefined, crdName: string, context: LoadContext): MotifContribution {
  const entries: Array<{ phase: PhaseName; entry: TemplateEntry }> = [];
  const status: StatusField[] = [];
  const notifications: NotifyRule[] = [];
  if (field === undefined || !Array.isArray(field.value)) return { entries, status, notifications };
  field.value.forEach((item: unknown, index) => {
    if (!isMap(item) || typeof item.motif !== 'string') return;
    const path = [...field.path, index];
    const motif = loadMotif(item.motif, field, [...path, 'motif'], context);
    if (motif === undefined) return;
    const given = isMap(item.with) ? item.with : {};
    const known = motif.inputs.map((input) => input.name);
    for (const key of Object.keys(given)) {
      if (known.includes(key)) continue;
      const suggestion = nearest(key, known);
      context.problems.add(field.origin, [...path, 'with', key], 'unknown-input', `Motif "${motif.name}" has no input "${key}"${didYouMean(suggestion)}`, {
        at: 'key',
        ...(suggestion === undefined ? {} : { suggestion }),
      });
    }
    const inputs: Record<string, unknown> = {};
    for (const input of motif.inputs) {
      if (Object.hasOwn(given, input.name)) inputs[input.name] = toPlain(given[input.name]);
      else if (input.default !== undefined) inputs[input.name] = input.default;
      else if (input.required) {
        context.problems.add(field.origin, path, 'missing-input', `Motif "${motif.name}" needs input "${input.name}" (required, no default); set it under with:`);
      }
    }
    for (const { shape, index: entryIndex, phase, key } of motif.entries) {
      const canonical = ['spec', 'crds', crdName, 'imports', index, key, shape.kind, entryIndex];
      entries.push({ phase, entry: { ...shape, path: formatPath(canonical), inputs } });
    }
    for (const statusField of motif.status) status.push({ ...statusField, inputs });
    motif.notifications.forEach((rule, ruleIndex) => {
      notifications.push({ ...rule, path: formatPath(['spec', 'crds', crdName, 'imports', index, 'notifications', ruleIndex]), inputs });
    });
  });
  return { entries, status, notifications };
}
