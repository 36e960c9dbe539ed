/**
 * `horizontalPodAutoscalers` (Orkestra's `hpa`, `pkg/types/types_hpa.go`): an autoscaling/v2
 * HorizontalPodAutoscaler. The target is `scaleTargetRef` ({apiVersion, kind, name}), or `deploymentRef` (a
 * Deployment's name), else this custom resource's default Deployment (`<cr>-deployment`).
 * `targetCPUUtilizationPercentage` becomes a CPU Utilization metric; `metrics` and `behavior`
 * (`scaleUp`/`scaleDown`) are Kubernetes' own and kept as written. Orkestra's `behavior.profile` presets are expanded
 * at load in Orkestra documents (definition/profiles/); one that reaches this builder (katalog.dev/v1) is an error.
 */
import type { KindBuilder } from './kind-builder.js';
import { compact, deepMerge, defaultName, manifestError, metadataOf, scalarText, ShortForm } from './short-form.js';

function targetOf(form: ShortForm, fallback: string): Record<string, unknown> {
  const ref = form.map('scaleTargetRef');
  const deployment = form.string('deploymentRef');
  if (ref !== undefined && deployment !== undefined) throw manifestError('"scaleTargetRef" and "deploymentRef" exclude each other');
  if (ref === undefined) return { apiVersion: 'apps/v1', kind: 'Deployment', name: deployment ?? fallback };
  const text = (field: string, otherwise?: string): string => {
    const value = ref[field];
    if (value === undefined || value === null || value === '') {
      if (otherwise === undefined) throw manifestError(`"scaleTargetRef.${field}" is required`);
      return otherwise;
    }
    return scalarText(value, `scaleTargetRef.${field}`);
  };
  return { apiVersion: text('apiVersion', 'apps/v1'), kind: text('kind', 'Deployment'), name: text('name') };
}

export const horizontalPodAutoscalersBuilder: KindBuilder = {
  produces: { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' },
  fields: ['scaleTargetRef', 'deploymentRef', 'minReplicas', 'maxReplicas', 'targetCPUUtilizationPercentage', 'metrics', 'behavior', 'spec'],
  build(body, context) {
    const form = new ShortForm(body);
    const minReplicas = form.integer('minReplicas');
    const maxReplicas = form.integer('maxReplicas');
    if (maxReplicas === undefined) throw manifestError('horizontalPodAutoscalers need "maxReplicas"');
    if (minReplicas !== undefined && minReplicas > maxReplicas) throw manifestError('"minReplicas" is greater than "maxReplicas"');
    const cpu = form.integer('targetCPUUtilizationPercentage');
    const metrics = form.list('metrics');
    if (cpu !== undefined && metrics !== undefined) throw manifestError('"targetCPUUtilizationPercentage" and "metrics" exclude each other');
    const behavior = form.map('behavior');
    if (behavior !== undefined && Object.hasOwn(behavior, 'profile')) {
      throw manifestError('"behavior.profile" (an Orkestra preset) is expanded only in documents with an Orkestra apiVersion; write behavior.scaleUp / behavior.scaleDown');
    }
    let spec: Record<string, unknown> = compact({
      scaleTargetRef: targetOf(form, defaultName(context, 'deployment')),
      minReplicas,
      maxReplicas,
      metrics: cpu === undefined ? metrics : [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: cpu } } }],
      behavior,
    });
    const override = form.map('spec');
    if (override !== undefined) spec = deepMerge(spec, override);
    return { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: metadataOf(form, defaultName(context, 'hpa')), spec };
  },
};
