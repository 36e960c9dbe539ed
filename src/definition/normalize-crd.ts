/**
 * One CRD entry (possibly merged from a Katalog and a Komposer override) → the normalised {@link CrdDefinition}:
 * defaults applied, settings tagged with their source, selectors as strings, paths absolute, Motifs merged,
 * finalizers merged, and the operatorBox rules that span fields checked.
 */
import { resolve } from 'node:path';
import type { CrdDefinition, OperatorBox, Sourced, TemplateEntry } from './types.js';
import { parseDuration } from '../util/duration.js';
import { readQueueBehaviour, readRetryBackoff } from './queue-behaviour.js';
import type { Field, RawCrd } from './crd-entries.js';
import type { LoadContext } from './documents.js';
import { resolveApiTypes } from './api-types.js';
import { readDependsOn, type GraphNode } from './dependencies.js';
import { addToPhase, normalizeOperatorBox, orderedPhase, unique, PHASES, type Loose } from './operator-box.js';
import type { OperatorBoxInput } from './schema-operator-box.js';
import { importMotifs } from './motif.js';
import type { CrossDraft } from './box-flow.js';
import { isMap } from './schema-check.js';
import { toPlain } from './freeze.js';
import { normalizeAdmission } from './admission-rules.js';
import { checkTemplates } from './template-check.js';
import { normalizeFields } from './normalize-fields.js';
import { normalizeEnrich } from './enrich-targets.js';
import { normalizeNotifyRules } from './notification.js';
import { normalizeConversion } from './normalize-conversion.js';
import type { UserNote } from '../template/index.js';

/** Normalises one entry. `topFinalizers` are the finalizers of the document being loaded (Katalog or Komposer). */
export function normalizeCrd(raw: RawCrd, topFinalizers: readonly string[], context: LoadContext): { crd: CrdDefinition; node: GraphNode; cross: readonly CrossDraft[] } {
  const { problems } = context;
  const get = (name: string): Field | undefined => raw.fields.get(name);
  const text = (name: string): string | undefined => {
    const value = get(name)?.value;
    return typeof value === 'string' ? value : undefined;
  };
  const sourced = <T>(name: string, read: (value: unknown) => T | undefined): Sourced<T> | undefined => {
    const field = get(name);
    const value = field === undefined ? undefined : read(field.value);
    return field === undefined || value === undefined ? undefined : { value, source: field.origin.source };
  };
  const integer = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

  const boxField = get('operatorBox');
  const boxPath = boxField?.path ?? [...raw.path, 'operatorBox'];
  const canonical = ['spec', 'crds', raw.name, 'operatorBox'];
  const { box, phases, cross } = normalizeOperatorBox(boxField?.value as Loose<OperatorBoxInput> | undefined, boxField?.origin ?? raw.origin, boxPath, canonical, problems);
  const motifs = importMotifs(get('imports'), raw.name, context);
  for (const { phase, entry } of motifs.entries) addToPhase(phases[phase], [entry]);
  const imported = motifs.entries.map(({ entry }) => entry);
  checkConstructorRules(raw, boxField, box, phases, imported, context);
  const status = motifs.status.length === 0 ? box.status : { ...box.status, fields: [...box.status.fields, ...motifs.status] };
  const allowed = strings(get('allowedNamespaces')?.value);
  const restricted = strings(get('restrictedNamespaces')?.value);
  const crFiles = get('crFiles');
  const labelsField = get('labels');
  const labels: Record<string, string> = {};
  if (labelsField !== undefined && isMap(labelsField.value)) {
    checkTemplates(labelsField.value, labelsField.path, labelsField.origin, problems);
    for (const [key, value] of Object.entries(labelsField.value)) if (typeof value === 'string') labels[key] = value;
  }
  const setup = get('setup');
  const normalize = normalizeFields(get('normalize'), problems);
  const enrich = normalizeEnrich(get('enrich'), get('enrichAll'), problems);
  const notifications = [...normalizeNotifyRules(get('notifications'), problems), ...motifs.notifications];
  const conversion = normalizeConversion(get('conversion'), problems);

  const crdFile = get('crdFile');
  const workers = sourced('workers', integer);
  const resync = sourced('resync', (value) => (typeof value === 'string' ? parseDuration(value) : undefined));
  const declaredDepth = sourced('queue.maxDepth', integer);
  const queue = readQueueBehaviour(get('queue.behaviour'), declaredDepth?.value, problems);
  const maxDepth = declaredDepth === undefined || queue.bound === undefined ? declaredDepth : { ...declaredDepth, value: queue.bound };
  const failureThreshold = sourced('queue.failureThreshold', integer);
  const retryBackoff = readRetryBackoff(get('queue.retryBackoff'), problems);
  const enabled = get('enabled')?.value !== false;
  const dependsOn = readDependsOn(get('dependsOn'), problems);
  const mode = text('mode');
  const admission = normalizeAdmission(get, problems);

  const crd: CrdDefinition = {
    name: raw.name,
    description: text('description'),
    apiTypes: resolveApiTypes(raw, problems),
    crdFile: typeof crdFile?.value === 'string' ? resolve(crdFile.origin.baseDir, crdFile.value) : undefined,
    enabled,
    mode: mode === 'typed' || mode === 'dynamic' ? mode : undefined,
    namespace: text('namespace'),
    labelSelector: selector(get('labelSelector')?.value),
    fieldSelector: selector(get('fieldSelector')?.value),
    settings: {
      ...(workers === undefined ? {} : { workers }),
      ...(resync === undefined ? {} : { resync }),
      ...(maxDepth === undefined ? {} : { maxDepth }),
      ...(failureThreshold === undefined ? {} : { failureThreshold }),
    },
    ...(retryBackoff === undefined ? {} : { retryBackoff }),
    ...(queue.behaviour === undefined ? {} : { queueBehaviour: queue.behaviour }),
    dependsOn: dependsOn.map(({ name, condition }) => ({ name, condition })),
    operatorBox: { ...box, status, onCreate: orderedPhase(phases.onCreate), onReconcile: orderedPhase(phases.onReconcile), onDelete: orderedPhase(phases.onDelete) },
    finalizers: unique([...topFinalizers, ...raw.fileFinalizers, ...box.finalizers]),
    file: raw.origin.file,
    ...((boxField?.origin ?? raw.origin).dialect === 'orkestra' ? { templateDialect: 'orkestra' as const, pruning: 'conditional' as const } : {}),
    ...notesOf(boxField?.origin ?? raw.origin),
    ...(allowed.length + restricted.length === 0 ? {} : { namespaceGuard: { allowed, restricted } }),
    ...(get('critical')?.value === true ? { critical: true } : {}),
    ...(Object.keys(labels).length === 0 ? {} : { labels }),
    ...(crFiles === undefined && setup === undefined
      ? {}
      : {
          devInputs: {
            crFiles: strings(crFiles?.value).map((file) => resolve(crFiles?.origin.baseDir ?? raw.origin.baseDir, file)),
            setup: toPlain(setup?.value),
          },
        }),
    ...(admission === undefined ? {} : { admission }),
    ...(normalize.length === 0 ? {} : { normalize }),
    ...(enrich === undefined ? {} : { enrich }),
    ...(notifications.length === 0 ? {} : { notifications }),
    ...(conversion === undefined ? {} : { conversion }),
  };
  return { crd, node: { name: raw.name, enabled, dependsOn }, cross };
}

/** The definition's notes for a CRD of an Orkestra document (they are compiled with its templates). */
function notesOf(origin: Field['origin']): { notes: readonly UserNote[] } | Record<string, never> {
  const list = origin.dialect === 'orkestra' ? origin.notes?.list : undefined;
  return list === undefined || list.length === 0 ? {} : { notes: list };
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** A selector string as written, or a map read as `k=v` pairs joined with commas (declared order). */
function selector(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (!isMap(value)) return undefined;
  const pairs = Object.entries(value).map(([key, item]) => `${key}=${String(item)}`);
  return pairs.length === 0 ? undefined : pairs.join(',');
}

/**
 * `default: false` needs a constructor; a constructor needs `default: false` (Orkestra's rules); and templates
 * are never applied when a constructor owns reconcile, so declaring them then is an error rather than dead text.
 */
function checkConstructorRules(
  raw: RawCrd,
  boxField: Field | undefined,
  box: Pick<OperatorBox, 'default' | 'hooks' | 'finalizers'> & { readonly constructor: OperatorBox['constructor'] },
  phases: Record<(typeof PHASES)[number], Partial<Record<string, readonly TemplateEntry[]>>>,
  imported: readonly TemplateEntry[],
  context: LoadContext,
): void {
  if (boxField === undefined && imported.length === 0) return;
  const { problems } = context;
  const origin = boxField?.origin ?? raw.origin;
  const path = boxField?.path ?? [...raw.path, 'operatorBox'];
  const isDefault = box.default;
  const hasConstructor = Object.hasOwn(box, 'constructor') && box.constructor !== undefined;
  if (!isDefault && !hasConstructor) {
    problems.add(origin, [...path, 'default'], 'missing-constructor', 'operatorBox.default is false but no constructor is declared; add constructor: { function: <name> } or remove default: false');
  }
  if (isDefault && hasConstructor) {
    problems.add(origin, [...path, 'constructor'], 'constructor-needs-default-false', 'a constructor is declared but operatorBox.default is not false; set default: false (a constructor replaces the template reconciler)', { at: 'key' });
  }
  if (isDefault) return;
  // A constructor owns reconcile entirely: hooks would never run, declared finalizers would never be managed.
  if (box.hooks !== undefined) {
    problems.add(origin, [...path, 'hooks'], 'hooks-without-reconciler', 'hooks never run when operatorBox.default is false (the constructor owns reconcile); call that code from the constructor', { at: 'key' });
  }
  if (box.finalizers.length > 0) {
    problems.add(origin, [...path, 'finalizers'], 'finalizers-without-reconciler', 'finalizers are not managed by the runtime when operatorBox.default is false; the constructor adds and removes its own', { at: 'key' });
  }
  for (const phase of PHASES) {
    const own = Object.values(phases[phase]).some((list) => (list ?? []).some((entry) => !imported.includes(entry)));
    if (own) problems.add(origin, [...path, phase], 'templates-without-reconciler', `${phase} templates are never applied when operatorBox.default is false (the constructor owns reconcile)`, { at: 'key' });
  }
  const importsField = raw.fields.get('imports');
  if (imported.length > 0 && importsField !== undefined) {
    problems.add(importsField.origin, importsField.path, 'templates-without-reconciler', 'Motif imports add onCreate templates, which are never applied when operatorBox.default is false', { at: 'key' });
  }
}
