/**
 * Orkestra's admission fields into katalog's shape: `admission: {validation, mutation}` (current Orkestra) moves to
 * the entry's `validation` / `mutation` (early and documented Orkestra); a bare list of rules becomes `{rules}`;
 * rule shorthands (`prefix: "x/"`, `max: "10"`) become `operator` + `value`; `or` becomes `anyOf`. Katalog-level
 * `spec.security.deletionProtection` turns the CRDs' `deletionProtection` on (Orkestra only protects when it is
 * enabled there); the rest of `spec.security` configures Orkestra's own webhook deployment and is dropped.
 * `validation.external` / `mutation.external` are lifted as every external list, keeping each call's `fires`.
 */
import type { Path } from './path.js';
import { isMap } from './schema-check.js';
import { liftConditionBlocks } from './orkestra-lift-box.js';
import { move, type Lift } from './orkestra-lift-steps.js';
import { liftExternalList } from './orkestra-lift-external.js';
import { expandListInclude } from './include.js';

type Map = Record<string, unknown>;

const RULE_SHORTHANDS = [
  'equals',
  'notEquals',
  'prefix',
  'notPrefix',
  'suffix',
  'notSuffix',
  'contains',
  'notContains',
  'regex',
  'min',
  'max',
  'greaterThan',
  'lessThan',
  'greaterThanOrEqual',
  'lessThanOrEqual',
  'between',
  'notBetween',
  'in',
  'notIn',
] as const;

const TYPE_ALIASES: Readonly<Record<string, string>> = { integer: 'int', number: 'float', boolean: 'bool' };

/** Lifts one CRD entry's admission fields (in place). */
export function liftAdmission(lift: Lift, entry: Map, path: Path): void {
  const admission = entry.admission;
  if (Object.hasOwn(entry, 'admission')) {
    delete entry.admission;
    if (isMap(admission)) {
      const at = [...path, 'admission'];
      for (const key of Object.keys(admission)) {
        if (key === 'validation' || key === 'mutation') {
          move(lift, admission, key, at, entry, key, path, `${key} is given both under admission (current Orkestra) and on the CRD entry (early Orkestra); keep one`);
        } else {
          lift.problems.add(lift.origin, [...at, key], 'unknown-field', `unknown field "${key}" in admission (Orkestra has validation and mutation there)`, { at: 'key' });
        }
      }
    }
  }
  for (const key of ['validation', 'mutation']) {
    const block = entry[key];
    if (Array.isArray(block)) entry[key] = { rules: block };
    const lifted = entry[key];
    if (!isMap(lifted)) continue;
    const at = [...path, key];
    expandListInclude(lift, lifted, at, key, 'rules');
    if (Object.hasOwn(lifted, 'external')) liftAdmissionCalls(lift, lifted.external, [...at, 'external']);
    const rules = lifted.rules;
    if (!Array.isArray(rules)) continue;
    rules.forEach((rule: unknown, index) => {
      if (isMap(rule)) liftRule(lift, rule, [...at, 'rules', index], key === 'validation');
    });
  }
}

/**
 * `validation.external` / `mutation.external`: lifted as every external list, except that a call's `fires` is
 * Orkestra's meaning here (`reconcile: false`: the admission router makes it, reconcile-time validation does not),
 * so it is kept rather than refused.
 */
function liftAdmissionCalls(lift: Lift, list: unknown, path: Path): void {
  const fires = new WeakMap<Map, unknown>();
  if (Array.isArray(list)) {
    for (const call of list) {
      if (!isMap(call) || !Object.hasOwn(call, 'fires')) continue;
      fires.set(call, call.fires);
      delete call.fires;
    }
  }
  liftExternalList(lift, list, path);
  if (!Array.isArray(list)) return;
  for (const call of list) if (isMap(call) && fires.has(call)) call.fires = fires.get(call);
}

function liftRule(lift: Lift, rule: Map, path: Path, validation: boolean): void {
  liftConditionBlocks(lift, rule, path);
  delete rule.link; // Orkestra's Control Center form highlighting
  if (typeof rule.valueType === 'string' && Object.hasOwn(TYPE_ALIASES, rule.valueType)) rule.valueType = TYPE_ALIASES[rule.valueType];
  if (!validation) return;
  if (Object.hasOwn(rule, 'operator')) return;
  const keys = RULE_SHORTHANDS.filter((key) => Object.hasOwn(rule, key));
  if (keys.length > 1) {
    lift.problems.add(lift.origin, [...path, keys[1] ?? ''], 'invalid-value', `a rule has one comparison; "${keys[0] ?? ''}" and "${keys[1] ?? ''}" are both given`, { at: 'key' });
  }
  const key = keys[0];
  if (key === undefined) return;
  const value = rule[key];
  delete rule[key];
  for (const other of keys.slice(1)) delete rule[other];
  rule.operator = key;
  rule.value = value;
  lift.origin.positions?.alias([...path, key], [...path, 'value']);
  lift.origin.positions?.alias([...path, key], [...path, 'operator']);
}

/**
 * `spec.security`: when `deletionProtection` is enabled there, every CRD entry gets `deletionProtection` (its own
 * `protectCRs` kept); otherwise the entries' `deletionProtection` has no effect (as in Orkestra) and is dropped.
 * Returns the entries' transformation to run on each entry.
 */
export function liftSecurity(spec: Map): (entry: Map) => void {
  const security = spec.security;
  delete spec.security;
  const protection = isMap(security) ? security.deletionProtection : undefined;
  const enabled = isMap(protection) && protection.enabled !== false;
  return (entry) => {
    if (!enabled) {
      delete entry.deletionProtection;
      return;
    }
    if (!isMap(entry.deletionProtection)) entry.deletionProtection = {};
  };
}
