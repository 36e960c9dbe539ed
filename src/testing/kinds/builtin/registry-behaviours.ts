/**
 * What kube-apiserver's registries (and its default admission plugins) do to a built-in object on create and update,
 * beyond its decoded defaults: the status a new workload, Service, Ingress, PodDisruptionBudget or HPA starts with
 * (the Go zero value of its status), a new Pod's admission fields and status, a Service's addresses, a Job's
 * generated selector and labels, a DaemonSet's template generation annotation, a claim's protection finalizer.
 */
import { jsonEqual } from '../../patch/json-value.js';
import type { KindBehaviour } from '../kind-behaviour.js';
import type { KubeObject, StoredRecord } from '../../store/record.js';
import { ensureObject, objectAt, textAt, type Json } from './fields.js';
import { admitNewPod } from './pod-admission.js';
import { preparePodStatusUpdate } from './pod-status-update.js';
import { allocateServiceCreate, allocateServiceUpdate } from './service-addresses.js';

/** The finalizer kube-apiserver's StorageObjectInUseProtection plugin puts on every claim (controllers/pvc-protection.ts removes it). */
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
const TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

/** A behaviour that only gives a new object its first status. */
function firstStatus(status: () => Json, more: (next: KubeObject) => void = () => undefined): KindBehaviour {
  return {
    prepareCreate(next) {
      next['status'] = status();
      more(next);
    },
    prepareUpdate() {},
  };
}

/** The labels a Job's pods carry and its generated selector picks: its uid and name, with and without the batch prefix. */
function jobLabels(uid: string, name: string): Json {
  return { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': name, 'controller-uid': uid, 'job-name': name };
}

function generateJobSelector(job: KubeObject): void {
  const spec = ensureObject(job, 'spec');
  if (spec['manualSelector'] === true) return;
  const metadata = ensureObject(job, 'metadata');
  const template = ensureObject(spec, 'template');
  const templateLabels = ensureObject(ensureObject(template, 'metadata'), 'labels');
  // A label the user set is kept (validation then tells whether it conflicts).
  for (const [key, value] of Object.entries(jobLabels(textAt(metadata, 'uid'), textAt(metadata, 'name')))) if (!Object.hasOwn(templateLabels, key)) templateLabels[key] = value;
  const matchLabels = ensureObject(ensureObject(spec, 'selector'), 'matchLabels');
  if (!Object.hasOwn(matchLabels, 'batch.kubernetes.io/controller-uid')) matchLabels['batch.kubernetes.io/controller-uid'] = textAt(metadata, 'uid');
  // The decoder copies the template's labels to a Job without labels; kube-apiserver shows the generated ones there on every read.
  if (Object.keys(objectAt(metadata, 'labels') ?? {}).length === 0) metadata['labels'] = { ...templateLabels };
}

function daemonSetGeneration(next: KubeObject, prev: StoredRecord | undefined): void {
  const annotations = ensureObject(ensureObject(next, 'metadata'), 'annotations');
  if (prev === undefined) {
    annotations[TEMPLATE_GENERATION] = '1';
    return;
  }
  const before = Number(objectAt(objectAt(prev.object, 'metadata') ?? {}, 'annotations')?.[TEMPLATE_GENERATION] ?? 1);
  const changed = !jsonEqual(objectAt(objectAt(prev.object, 'spec') ?? {}, 'template') ?? null, objectAt(objectAt(next, 'spec') ?? {}, 'template') ?? null);
  annotations[TEMPLATE_GENERATION] = String(changed ? before + 1 : before);
}

/**
 * A Pod's grace period (kube's pod strategy): the one asked for, else its `terminationGracePeriodSeconds`; 0 for a
 * Pod no node runs (unscheduled) or one that has ended; a negative period is 1 second.
 */
function podGracePeriod(pod: KubeObject, requested: number | undefined): number {
  const spec = objectAt(pod, 'spec') ?? {};
  const fromSpec = spec['terminationGracePeriodSeconds'];
  let period = requested ?? (typeof fromSpec === 'number' ? fromSpec : 0);
  if (textAt(spec, 'nodeName') === '') period = 0;
  const phase = objectAt(pod, 'status')?.['phase'];
  if (phase === 'Failed' || phase === 'Succeeded') period = 0;
  return period < 0 ? 1 : period;
}

export const REGISTRY_BEHAVIOURS: ReadonlyMap<string, KindBehaviour> = new Map<string, KindBehaviour>([
  [
    '/pods',
    {
      prepareCreate(next, ctx) {
        admitNewPod(next, ctx.store);
      },
      prepareUpdate() {},
      statusKeeps: ['ownerReferences'],
      prepareStatusUpdate: preparePodStatusUpdate,
      gracePeriod: podGracePeriod,
    },
  ],
  [
    '/services',
    {
      prepareCreate(next, ctx) {
        allocateServiceCreate(next, ctx.store);
        next['status'] = { loadBalancer: {} };
      },
      prepareUpdate(next, prev, ctx) {
        allocateServiceUpdate(next, prev.object, ctx.store);
      },
    },
  ],
  [
    '/persistentvolumeclaims',
    firstStatus(
      () => ({ phase: 'Pending' }),
      (next) => {
        const metadata = ensureObject(next, 'metadata');
        const finalizers = Array.isArray(metadata['finalizers']) ? (metadata['finalizers'] as unknown[]) : [];
        if (!finalizers.includes(PVC_PROTECTION_FINALIZER)) metadata['finalizers'] = [...finalizers, PVC_PROTECTION_FINALIZER];
      },
    ),
  ],
  ['apps/deployments', { ...firstStatus(() => ({})), statusKeeps: ['labels'] }],
  ['apps/statefulsets', firstStatus(() => ({ replicas: 0, availableReplicas: 0 }))],
  ['apps/replicasets', firstStatus(() => ({ replicas: 0 }))],
  [
    'apps/daemonsets',
    {
      prepareCreate(next) {
        next['status'] = { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
        daemonSetGeneration(next, undefined);
      },
      prepareUpdate(next, prev) {
        daemonSetGeneration(next, prev);
      },
    },
  ],
  ['batch/jobs', firstStatus(() => ({}), generateJobSelector)],
  ['batch/cronjobs', firstStatus(() => ({}))],
  ['networking.k8s.io/ingresses', firstStatus(() => ({ loadBalancer: {} }))],
  ['policy/poddisruptionbudgets', firstStatus(() => ({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }))],
  ['autoscaling/horizontalpodautoscalers', firstStatus(() => ({ desiredReplicas: 0, currentMetrics: null }))],
]);
