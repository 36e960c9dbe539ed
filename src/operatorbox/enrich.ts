/**
 * A CRD's `enrich` / `enrichAll` (Orkestra's data beside the children, docs/orkestra-compatibility.md#enrich). As in
 * Orkestra, it runs when the status is rendered (after the box applied the children) and what it fetches is seen by
 * status fields and their conditions: `_pods` on each workload child (enrich-pods.ts) and the keys of the other
 * targets (enrich-targets.ts). Templates of children and hooks do not see it.
 *
 * Each target's conditions are evaluated against the custom resource and its (unenriched) children first, as
 * Orkestra's second phase does; a target whose conditions do not hold fetches nothing. A CRD without `enrich` has no
 * enricher at all (nothing is fetched, nothing is copied). A failed fetch throws: the status write fails, so the
 * reconcile fails and is retried with backoff.
 */
import type { CrdDefinition, EnrichRule, EnrichTargetName } from '../definition/types.js';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import { compileConditions, type CompiledConditions, type TemplateDialect, type UserNote } from '../template/index.js';
import { isPodWorkload, podsOf } from './enrich-pods.js';
import { clientReads, PODS, type EnrichReads } from './enrich-reads.js';
import { activeReplicaSet, enrichedFields, type EnrichPass } from './enrich-targets.js';
import { templateData, type ChildrenView } from './template-data.js';

export interface Enricher {
  /** A view whose enriched children are copies carrying the fetched data; the input view is not changed. */
  run(object: KubeObject, children: ChildrenView, signal: AbortSignal): Promise<ChildrenView>;
}

export interface EnricherOptions {
  readonly crd: string;
  readonly rule: EnrichRule;
  readonly dialect?: TemplateDialect | undefined;
  readonly notes?: readonly UserNote[] | undefined;
  readonly reads: EnrichReads;
  readonly logger: Logger;
  /** The clock the conditions' clock notes read: the runtime's; default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/**
 * The enricher of a CRD reading through `client`, or undefined when the CRD declares no enrich (nothing fetched).
 * `now` is the runtime's clock, read by the conditions' clock notes.
 */
export function enricherOf(crd: CrdDefinition, client: Pick<KubeClient, 'list' | 'get'>, logger: Logger, now?: () => number): Enricher | undefined {
  if (crd.enrich === undefined) return undefined;
  return createEnricher({ crd: crd.name, rule: crd.enrich, dialect: crd.templateDialect, notes: crd.notes, logger, reads: clientReads(client), now });
}

/** The key a ReplicaSet child has in the view (the `replicaSets` short form). */
const REPLICA_SETS_KEY = 'replicaSets';

export function createEnricher(options: EnricherOptions): Enricher {
  const { dialect, notes, now } = options;
  const compileOptions = { ...(dialect === undefined ? {} : { dialect }), ...(notes === undefined ? {} : { notes }), ...(now === undefined ? {} : { now }) };
  const targets = options.rule.targets.map((target) => ({
    name: target.name,
    conditions: target.when.length + target.anyOf.length === 0 ? undefined : compileConditions(target, { name: `spec.crds.${options.crd}.enrich.${target.name}`, ...compileOptions }),
  }));
  const holds = (conditions: CompiledConditions | undefined, object: KubeObject, children: ChildrenView): boolean => {
    if (conditions === undefined) return true;
    const verdict = conditions.evaluate(templateData(object, children, {}, options.dialect));
    for (const warning of verdict.warnings) options.logger.warn('enrich condition', { crd: options.crd, warning });
    return verdict.ok;
  };
  const listPods = async (namespace: string, labelSelector: string, _limit: number, signal: AbortSignal): Promise<readonly KubeObject[]> => options.reads.list(PODS, namespace, { labelSelector }, signal);
  return {
    async run(object, children, signal) {
      const active = new Set<EnrichTargetName>(targets.filter((target) => holds(target.conditions, object, children)).map((target) => target.name));
      if (active.size === 0) return children;
      const pass: EnrichPass = { active, reads: options.reads, signal, nodes: new Map() };
      const out: ChildrenView = {};
      for (const [key, byName] of Object.entries(children)) {
        const copy: Record<string, KubeObject> = {};
        for (const [name, child] of Object.entries(byName)) {
          const pods = active.has('pods') && isPodWorkload(child) ? { _pods: await podsOf(child, listPods, signal) } : {};
          const fields = await enrichedFields(child, pass);
          copy[name] = Object.keys(pods).length + Object.keys(fields).length === 0 ? child : { ...child, ...pods, ...fields };
        }
        out[key] = copy;
      }
      if (active.has('replicasets')) addActiveReplicaSets(out);
      return out;
    },
  };
}

/**
 * As Orkestra does when `replicasets` is active and no ReplicaSet is declared: the active ReplicaSet of a Deployment
 * child (the one with the most replicas) becomes `.children.replicaset`, with its `_owner`, so the ReplicaSet notes
 * work on it.
 */
function addActiveReplicaSets(view: ChildrenView): void {
  if (Object.values(view).some((byName) => Object.values(byName).some((child) => child.kind === 'ReplicaSet'))) return;
  for (const byName of Object.values(view)) {
    for (const child of Object.values(byName)) {
      const list = child['_replicaSets'];
      const active = Array.isArray(list) ? activeReplicaSet(list.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)) : undefined;
      const name = (active?.['metadata'] as { name?: unknown } | undefined)?.name;
      if (active === undefined || typeof name !== 'string') continue;
      view[REPLICA_SETS_KEY] = { [name]: active as KubeObject };
      return;
    }
  }
}
