/**
 * A CRD's `enrich` / `enrichAll` (Orkestra's data beside the children, docs/orkestra-compatibility.md#enrich). As in
 * Orkestra, it runs when the status is rendered (after the box applied the children) and what it fetches is seen by
 * status fields and their conditions: `_pods` on each workload child. Templates of children and hooks do not see it.
 *
 * Each target's conditions are evaluated against the custom resource and its (unenriched) children first, as
 * Orkestra's second phase does; a target whose conditions do not hold fetches nothing. A CRD without `enrich` has no
 * enricher at all (nothing is fetched, nothing is copied). A failed fetch throws: the status write fails, so the
 * reconcile fails and is retried with backoff.
 */
import type { CrdDefinition, EnrichRule } from '../definition/types.js';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import { compileConditions, type CompiledConditions, type TemplateDialect } from '../template/index.js';
import { isPodWorkload, PODS, podsOf, type ListPods } from './enrich-pods.js';
import { templateData, type ChildrenView } from './template-data.js';

export interface Enricher {
  /** A view whose enriched children are copies carrying the fetched data; the input view is not changed. */
  run(object: KubeObject, children: ChildrenView, signal: AbortSignal): Promise<ChildrenView>;
}

export interface EnricherOptions {
  readonly crd: string;
  readonly rule: EnrichRule;
  readonly dialect?: TemplateDialect | undefined;
  readonly listPods: ListPods;
  readonly logger: Logger;
}

/** The enricher of a CRD reading through `client`, or undefined when the CRD declares no enrich (nothing fetched). */
export function enricherOf(crd: CrdDefinition, client: Pick<KubeClient, 'list'>, logger: Logger): Enricher | undefined {
  if (crd.enrich === undefined) return undefined;
  return createEnricher({
    crd: crd.name,
    rule: crd.enrich,
    dialect: crd.templateDialect,
    logger,
    listPods: async (namespace, labelSelector, limit, signal) => (await client.list(PODS, { namespace, labelSelector, limit, signal })).items,
  });
}

export function createEnricher(options: EnricherOptions): Enricher {
  const targets = options.rule.targets.map((target) => ({
    name: target.name,
    conditions: target.when.length + target.anyOf.length === 0 ? undefined : compileConditions(target, { name: `spec.crds.${options.crd}.enrich.${target.name}`, ...(options.dialect === undefined ? {} : { dialect: options.dialect }) }),
  }));
  const holds = (conditions: CompiledConditions | undefined, object: KubeObject, children: ChildrenView): boolean => {
    if (conditions === undefined) return true;
    const verdict = conditions.evaluate(templateData(object, children, {}, options.dialect));
    for (const warning of verdict.warnings) options.logger.warn('enrich condition', { crd: options.crd, warning });
    return verdict.ok;
  };
  return {
    async run(object, children, signal) {
      const active = new Set(targets.filter((target) => holds(target.conditions, object, children)).map((target) => target.name));
      if (!active.has('pods')) return children;
      const out: ChildrenView = {};
      for (const [key, byName] of Object.entries(children)) {
        const copy: Record<string, KubeObject> = {};
        for (const [name, child] of Object.entries(byName)) {
          copy[name] = isPodWorkload(child) ? { ...child, _pods: await podsOf(child, options.listPods, signal) } : child;
        }
        out[key] = copy;
      }
      return out;
    },
  };
}
