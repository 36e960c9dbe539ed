/**
 * A CRD entry's `enrich` / `enrichAll` (Orkestra's data fetched beside the children, docs/orkestra-compatibility.md#enrich)
 * → the model's {@link EnrichRule}. Targets are written as a name (`- pods`) or as a map with conditions
 * (`- pods: {when: [...], anyOf: [...]}`). Both fields at once is an error, as in Orkestra. A target is named as
 * Orkestra names it, or by one of the other names Orkestra resolves to it (a kind's singular, plural or short name:
 * `cj`, `hpas`, `persistentvolumeclaim`...); the model holds the canonical name. An unknown name is an error that
 * lists the targets, never ignored.
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
    for (const [written, conditions] of entries) {
      const canonical = canonicalTarget(written);
      if (canonical === undefined) {
        problems.add(enrich.origin, typeof item === 'string' ? at : [...at, written], 'orkestra-unsupported', `"${written}" is not an enrich target: the targets are ${ENRICH_TARGETS.join(', ')}; see ${COMPATIBILITY_PAGE}#enrich`, { at: typeof item === 'string' ? 'value' : 'key' });
        continue;
      }
      const name = canonical;
      if (targets.some((target) => target.name === name)) {
        problems.add(enrich.origin, at, 'duplicate', `the enrich target "${name}" is given twice`);
        continue;
      }
      const block = (isMap(conditions) ? conditions : {}) as { when?: Partial<ConditionInput>[]; anyOf?: Partial<ConditionInput>[] };
      const path = typeof item === 'string' ? at : [...at, written];
      targets.push({
        name,
        when: normalizeConditions(block.when, enrich.origin, [...path, 'when'], problems),
        anyOf: normalizeConditions(block.anyOf, enrich.origin, [...path, 'anyOf'], problems),
      });
    }
  });
  return targets.length === 0 ? undefined : { all: false, targets };
}

/** Other names Orkestra resolves to a target (a kind's singular, plural and short names). */
const ALIASES: Readonly<Record<string, EnrichTargetName>> = {
  pod: 'pods', po: 'pods',
  event: 'events', ev: 'events',
  ep: 'endpoints',
  replicaset: 'replicasets', rs: 'replicasets',
  nodes: 'node', no: 'node',
  persistentvolumeclaim: 'pvc', persistentvolumeclaims: 'pvc',
  persistentvolume: 'pv', persistentvolumes: 'pv', pvs: 'pv',
  storageclasses: 'storageclass', sc: 'storageclass',
  ingresses: 'ingress', ing: 'ingress',
  hpas: 'hpa', horizontalpodautoscaler: 'hpa', horizontalpodautoscalers: 'hpa',
  cronjobs: 'cronjob', cj: 'cronjob',
};

function canonicalTarget(name: string): EnrichTargetName | undefined {
  return ENRICH_TARGETS.find((target) => target === name) ?? (Object.hasOwn(ALIASES, name) ? ALIASES[name] : undefined);
}
