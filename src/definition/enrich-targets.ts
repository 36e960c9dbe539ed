/**
 * A CRD entry's `enrich` / `enrichAll` (Orkestra's data fetched beside the children, docs/orkestra-compatibility.md#enrich)
 * → the model's {@link EnrichRule}. Targets are written as a name (`- pods`) or as a map with conditions
 * (`- pods: {when: [...], anyOf: [...]}`). Both fields at once is an error, as in Orkestra; a target katalog does
 * not fetch yet (Orkestra's `events`, `endpoints`, `replicasets`...) is refused by name, never ignored.
 */
import type { Field } from './crd-entries.js';
import { normalizeConditions } from './conditions.js';
import { COMPATIBILITY_PAGE } from './orkestra-features.js';
import type { ProblemList } from './problems.js';
import { isMap } from './schema-check.js';
import type { ConditionInput } from './schema-operator-box.js';
import { ENRICH_TARGETS, type EnrichRule, type EnrichTarget, type EnrichTargetName } from './types.js';

export function normalizeEnrich(enrich: Field | undefined, enrichAll: Field | undefined, problems: ProblemList): EnrichRule | undefined {
  const all = enrichAll?.value === true;
  const list = Array.isArray(enrich?.value) ? (enrich.value as unknown[]) : [];
  if (all && enrich !== undefined && list.length > 0) {
    problems.add(enrich.origin, enrich.path, 'conflicting-fields', 'enrich and enrichAll: true are both given; keep one (enrichAll fetches every target)', { at: 'key' });
  }
  if (all) return { all: true, targets: ENRICH_TARGETS.map((name) => ({ name, when: [], anyOf: [] })) };
  if (enrich === undefined || list.length === 0) return undefined;
  const targets: EnrichTarget[] = [];
  list.forEach((item, index) => {
    const at = [...enrich.path, index];
    const entries: Array<[string, unknown]> = typeof item === 'string' ? [[item, {}]] : isMap(item) ? Object.entries(item) : [];
    for (const [name, conditions] of entries) {
      if (!isTarget(name)) {
        problems.add(enrich.origin, typeof item === 'string' ? at : [...at, name], 'orkestra-unsupported', `the enrich target "${name}" is not supported by katalog: it fetches ${ENRICH_TARGETS.join(', ')} so far; see ${COMPATIBILITY_PAGE}#enrich`, { at: typeof item === 'string' ? 'value' : 'key' });
        continue;
      }
      if (targets.some((target) => target.name === name)) {
        problems.add(enrich.origin, at, 'duplicate', `the enrich target "${name}" is given twice`);
        continue;
      }
      const block = (isMap(conditions) ? conditions : {}) as { when?: Partial<ConditionInput>[]; anyOf?: Partial<ConditionInput>[] };
      const path = typeof item === 'string' ? at : [...at, name];
      targets.push({
        name,
        when: normalizeConditions(block.when, enrich.origin, [...path, 'when'], problems),
        anyOf: normalizeConditions(block.anyOf, enrich.origin, [...path, 'anyOf'], problems),
      });
    }
  });
  return targets.length === 0 ? undefined : { all: false, targets };
}

function isTarget(name: string): name is EnrichTargetName {
  return (ENRICH_TARGETS as readonly string[]).includes(name);
}
