/**
 * Short forms of the long-running workloads: `deployments`, `statefulSets`, `replicaSets` and `daemonSets`
 * (the last two as Orkestra defines them: the Deployment's pod fields; a DaemonSet has no `replicas`).
 *
 * Pods are selected by `app.kubernetes.io/name: <workload name>` plus `katalog.dev/owner: <owner>`, so two
 * workloads of one custom resource never select each other's pods and the default Service selector
 * (`katalog.dev/owner`) reaches the pods of the custom resource's workloads.
 */
import type { KubeObject } from '../kube/resource.js';
import type { BuildContext, KindBuilder } from './kind-builder.js';
import { OWNER_LABEL } from './ownership.js';
import { podMetadataOf, podSpecOf, POD_FIELDS } from './pod-template.js';
import { compact, deepMerge, defaultName, metadataOf, ShortForm } from './short-form.js';

/** The labels that select a workload's pods. */
export function selectorLabels(name: string, context: BuildContext): Record<string, string> {
  return { 'app.kubernetes.io/name': name, [OWNER_LABEL]: context.ownerLabel };
}

function workload(
  form: ShortForm,
  context: BuildContext,
  kind: 'Deployment' | 'StatefulSet' | 'ReplicaSet' | 'DaemonSet',
  plural: string,
  suffix: string,
  extra: (name: string) => Record<string, unknown>,
): KubeObject {
  const metadata = metadataOf(form, defaultName(context, suffix));
  const name = metadata.name ?? '';
  const selector = selectorLabels(name, context);
  let spec: Record<string, unknown> = compact({
    replicas: kind === 'DaemonSet' ? undefined : (form.integer('replicas') ?? 1),
    selector: { matchLabels: selector },
    ...extra(name),
    template: { metadata: podMetadataOf(form, selector), spec: podSpecOf(form, plural) },
  });
  const override = form.map('spec');
  if (override !== undefined) spec = deepMerge(spec, override);
  return { apiVersion: 'apps/v1', kind, metadata, spec };
}

export const deploymentsBuilder: KindBuilder = {
  produces: { apiVersion: 'apps/v1', kind: 'Deployment' },
  fields: [...POD_FIELDS, 'replicas', 'strategy', 'minReadySeconds', 'revisionHistoryLimit', 'spec'],
  build(body, context) {
    const form = new ShortForm(body);
    return workload(form, context, 'Deployment', 'deployments', 'deployment', () => ({
      strategy: form.map('strategy'),
      minReadySeconds: form.integer('minReadySeconds'),
      revisionHistoryLimit: form.integer('revisionHistoryLimit'),
    }));
  },
};

export const statefulSetsBuilder: KindBuilder = {
  produces: { apiVersion: 'apps/v1', kind: 'StatefulSet' },
  fields: [...POD_FIELDS, 'replicas', 'serviceName', 'volumeClaimTemplates', 'podManagementPolicy', 'updateStrategy', 'spec'],
  build(body, context) {
    const form = new ShortForm(body);
    return workload(form, context, 'StatefulSet', 'statefulSets', 'statefulset', (name) => ({
      serviceName: form.string('serviceName') ?? name,
      volumeClaimTemplates: form.list('volumeClaimTemplates'),
      podManagementPolicy: form.string('podManagementPolicy'),
      updateStrategy: form.map('updateStrategy'),
    }));
  },
};

export const replicaSetsBuilder: KindBuilder = {
  produces: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  fields: [...POD_FIELDS, 'replicas', 'minReadySeconds', 'spec'],
  build(body, context) {
    const form = new ShortForm(body);
    return workload(form, context, 'ReplicaSet', 'replicaSets', 'replicaset', () => ({ minReadySeconds: form.integer('minReadySeconds') }));
  },
};

export const daemonSetsBuilder: KindBuilder = {
  produces: { apiVersion: 'apps/v1', kind: 'DaemonSet' },
  fields: [...POD_FIELDS, 'updateStrategy', 'minReadySeconds', 'revisionHistoryLimit', 'spec'],
  build(body, context) {
    const form = new ShortForm(body);
    return workload(form, context, 'DaemonSet', 'daemonSets', 'daemonset', () => ({
      updateStrategy: form.map('updateStrategy'),
      minReadySeconds: form.integer('minReadySeconds'),
      revisionHistoryLimit: form.integer('revisionHistoryLimit'),
    }));
  },
};

/**
 * `pods` (Orkestra `pkg/types/types_pod.go`): one Pod with the pod fields of the other workloads; default name
 * `<cr>-pod`. `protocol` (Orkestra) applies to the container port. The pod carries the workload labels, so the
 * default Service selector reaches it too.
 */
export const podsBuilder: KindBuilder = {
  produces: { apiVersion: 'v1', kind: 'Pod' },
  fields: [...POD_FIELDS, 'protocol', 'spec'],
  build(body, context) {
    const form = new ShortForm(body);
    const metadata = metadataOf(form, defaultName(context, 'pod'));
    const name = metadata.name ?? '';
    const podMetadata = podMetadataOf(form, selectorLabels(name, context)) as { labels?: Record<string, string>; annotations?: Record<string, string> };
    metadata.labels = { ...podMetadata.labels, ...metadata.labels };
    if (podMetadata.annotations !== undefined) metadata.annotations = { ...podMetadata.annotations, ...metadata.annotations };
    let spec = podSpecOf(form, 'pods');
    const protocol = form.string('protocol');
    if (protocol !== undefined) {
      const containers = spec['containers'] as Array<Record<string, unknown>>;
      for (const container of containers) {
        const ports = container['ports'] as Array<Record<string, unknown>> | undefined;
        if (ports !== undefined) container['ports'] = ports.map((port) => ({ protocol, ...port }));
      }
    }
    const override = form.map('spec');
    if (override !== undefined) spec = deepMerge(spec, override);
    return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
  },
};
