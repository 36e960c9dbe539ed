/**
 * Orkestra template entries, status fields and conditions into katalog's shape: the condition shorthand
 * (`{field, equals: x}`), `or` for `anyOf`, `once`, status field types (Orkestra writes strings unless a
 * `type` says otherwise), and the refused entry fields and template kinds.
 */
import type { Path } from './path.js';
import { isMap } from './schema-check.js';
import { ORKESTRA_TEMPLATE_KIND_ALIASES, REFUSED_ENTRY_FIELDS, REFUSED_TEMPLATE_KINDS } from './orkestra-features.js';
import { move, refuse, type Lift } from './orkestra-lift-steps.js';
import { CONDITION_OPERATOR_ALIASES, CONDITION_OPERATORS } from '../template/index.js';
import { expandListInclude } from './include.js';
import { liftPhaseProfiles } from './orkestra-lift-profiles.js';

type Map = Record<string, unknown>;

/** Shorthand keys of a condition: the operator names and their long aliases. */
const SHORTHAND: readonly string[] = [...Object.keys(CONDITION_OPERATOR_ALIASES), ...CONDITION_OPERATORS];

/** A phase (`onCreate`...) or a Motif's `resources`: refused kinds reported, every entry lifted. */
export function liftPhase(lift: Lift, phase: Map, path: Path): void {
  for (const [alias, kind] of Object.entries(ORKESTRA_TEMPLATE_KIND_ALIASES)) {
    move(lift, phase, alias, path, phase, kind, path, `${alias} and ${kind} name the same template kind; keep one`);
  }
  for (const [kind, list] of Object.entries(phase)) {
    const refusedKind = REFUSED_TEMPLATE_KINDS[kind];
    if (refusedKind !== undefined) {
      refuse(lift, phase, kind, path, {
        feature: `the template kind ${kind} (${refusedKind})`,
        reason: 'katalog has no short form for it yet; write the full manifest under resources:',
        anchor: 'template-kinds',
      });
      continue;
    }
    if (Array.isArray(list)) list.forEach((entry: unknown, index) => isMap(entry) && liftEntry(lift, entry, [...path, kind, index]));
  }
  liftPhaseProfiles(lift, phase, path);
}

/** One template entry. */
export function liftEntry(lift: Lift, entry: Map, path: Path): void {
  for (const [key, refusal] of Object.entries(REFUSED_ENTRY_FIELDS)) if (Object.hasOwn(entry, key)) refuse(lift, entry, key, path, refusal);
  if (Object.hasOwn(entry, 'once')) {
    // `once: true` = create when missing, never update: what katalog does for an entry without reconcile: true.
    if (entry.once === true && entry.reconcile === true) {
      lift.problems.add(lift.origin, [...path, 'once'], 'invalid-value', 'once: true and reconcile: true contradict each other (once never updates)', { at: 'key' });
    }
    delete entry.once;
  }
  liftConditionBlocks(lift, entry, path);
}

/** `status:` of an operatorBox or a Motif: its `include` expanded, field types and conditions. */
export function liftStatus(lift: Lift, status: Map, path: Path): void {
  expandListInclude(lift, status, path, 'status', 'fields');
  const fields = status.fields;
  if (!Array.isArray(fields)) return;
  fields.forEach((field: unknown, index) => {
    if (!isMap(field)) return;
    const at = [...path, 'fields', index];
    const type = field.type;
    if (type === undefined) field.type = 'string'; // Orkestra writes status values as strings unless told otherwise
    else if (typeof type === 'string' && Object.hasOwn(TYPE_ALIASES, type)) field.type = TYPE_ALIASES[type];
    if (typeof field.value !== 'string' && field.value !== undefined && field.value !== null) field.value = String(field.value as string | number | boolean);
    liftConditionBlocks(lift, field, at);
  });
}

const TYPE_ALIASES: Readonly<Record<string, string>> = { integer: 'int', number: 'float', boolean: 'bool', str: 'string' };

export function liftConditionBlocks(lift: Lift, holder: Map, path: Path): void {
  move(lift, holder, 'or', path, holder, 'anyOf', path, 'both "or" and "anyOf" are given; keep one');
  for (const key of ['when', 'anyOf']) {
    const list = holder[key];
    if (Array.isArray(list)) liftConditions(lift, list, [...path, key]);
  }
}

/** `{field: x, equals: v}` → `{field: x, operator: equals, value: v}`; `exists: true` → `operator: exists`. */
export function liftConditions(lift: Lift, list: unknown[], path: Path): void {
  list.forEach((item: unknown, index) => {
    if (!isMap(item) || Object.hasOwn(item, 'operator')) return;
    const at = [...path, index];
    const keys = SHORTHAND.filter((key) => Object.hasOwn(item, key));
    if (keys.length !== 1) return; // none or several: the schema check reports it
    const key = keys[0] ?? '';
    const value = item[key];
    delete item[key];
    if ((key === 'exists' || key === 'notExists') && typeof value === 'boolean') {
      item.operator = value === (key === 'exists') ? 'exists' : 'notExists';
    } else {
      item.operator = key;
      item.value = value;
      lift.origin.positions?.alias([...at, key], [...at, 'value']);
    }
    lift.origin.positions?.alias([...at, key], [...at, 'operator']);
  });
}
