/**
 * The Pods kube's Job controller makes for a Job: its template, owned by the Job, named with `generateName`
 * `<job>-` and a suffix, with the tracking finalizer; an Indexed Job's Pod of completion index `index` also has the
 * index as annotation and label, `<job>-<index>` as hostname and name prefix, and `JOB_COMPLETION_INDEX` (from the
 * label) in the environment of every container. Pure.
 */
import { asObject } from '../../patch/json-value.js';
import { metadataOf, type KubeObject } from '../../store/record.js';
import { COMPLETION_INDEX, indexedJob } from './job-spec.js';
import { podManifest, safeHash } from './pod-manifests.js';

/** The finalizer kube's Job controller puts on the Pods it makes, and takes off once it has counted them. */
export const JOB_TRACKING = 'batch.kubernetes.io/job-tracking';

/** The environment variable kube's Job controller gives an Indexed Job's containers: the Pod's completion index. */
const INDEX_VARIABLE = { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: `metadata.labels['${COMPLETION_INDEX}']` } } };

/** The Job's Pod of (completion) index `index`; `salt` makes its name's suffix (deterministic for one sequence of requests). */
export function jobPodManifest(job: KubeObject, salt: string, index: number): KubeObject {
  const name = String(metadataOf(job)['name']);
  const prefix = indexedJob(job) ? `${name}-${index}-` : `${name}-`;
  const pod = podManifest('Job', 'batch/v1', job, `${prefix}${safeHash(salt, 5)}`);
  const metadata: Record<string, unknown> = { ...metadataOf(pod), generateName: prefix, finalizers: [JOB_TRACKING] };
  if (!indexedJob(job)) return { ...pod, metadata };
  metadata['annotations'] = { ...asObject(metadata['annotations']), [COMPLETION_INDEX]: String(index) };
  metadata['labels'] = { ...asObject(metadata['labels']), [COMPLETION_INDEX]: String(index) };
  return { ...pod, metadata, spec: indexedPodSpec(asObject(pod['spec']), `${name}-${index}`) };
}

/** An Indexed Job's Pod spec: its hostname, and the index variable in each container that lacks it (init ones too). */
function indexedPodSpec(spec: Record<string, unknown>, hostname: string): Record<string, unknown> {
  const withIndex = (containers: unknown): unknown =>
    Array.isArray(containers)
      ? containers.map((container) => {
          const env = Array.isArray(asObject(container)['env']) ? (asObject(container)['env'] as unknown[]) : [];
          if (env.some((variable) => asObject(variable)['name'] === INDEX_VARIABLE.name)) return container;
          return { ...asObject(container), env: [...env, structuredClone(INDEX_VARIABLE)] };
        })
      : containers;
  return {
    ...spec,
    ...(spec['initContainers'] === undefined ? {} : { initContainers: withIndex(spec['initContainers']) }),
    containers: withIndex(spec['containers']),
    hostname,
  };
}
