/**
 * The defaults kube-apiserver 1.37 fills into the workload kinds' specs (Go's SetDefaults_Deployment, _StatefulSet,
 * _DaemonSet, _ReplicaSet, _Job, _CronJob) and their pod templates (pod-defaults.ts).
 */
import { ensureObject, objectAt, objectsAt, textAt, unset, whenUnset, whenZero, type Json } from './fields.js';
import { podTemplateDefaults } from './pod-defaults.js';
import { canonicalResources } from './quantity-fields.js';

/** Int32's largest value: a Job's backoffLimit when it counts failures per index. */
const MAX_INT32 = 2 ** 31 - 1;

function templateOf(spec: Json): Json | undefined {
  return objectAt(spec, 'template');
}

/** A rolling update's sub-object, made `{}` when the strategy is the rolling one, with its defaults. */
function rollingDefaults(strategy: Json, rollingType: string, defaults: Record<string, unknown>): void {
  whenZero(strategy, 'type', rollingType);
  if (strategy['type'] !== rollingType) return;
  const rolling = ensureObject(strategy, 'rollingUpdate');
  for (const [key, value] of Object.entries(defaults)) whenUnset(rolling, key, value);
}

export function deploymentDefaults(object: Json, kind: string): void {
  const spec = ensureObject(object, 'spec');
  whenUnset(spec, 'replicas', 1);
  rollingDefaults(ensureObject(spec, 'strategy'), 'RollingUpdate', { maxUnavailable: '25%', maxSurge: '25%' });
  whenUnset(spec, 'revisionHistoryLimit', 10);
  whenUnset(spec, 'progressDeadlineSeconds', 600);
  podTemplateDefaults(templateOf(spec), kind);
}

export function daemonSetDefaults(object: Json, kind: string): void {
  const spec = ensureObject(object, 'spec');
  rollingDefaults(ensureObject(spec, 'updateStrategy'), 'RollingUpdate', { maxUnavailable: 1, maxSurge: 0 });
  whenUnset(spec, 'revisionHistoryLimit', 10);
  podTemplateDefaults(templateOf(spec), kind);
}

export function statefulSetDefaults(object: Json, kind: string): void {
  const spec = ensureObject(object, 'spec');
  whenZero(spec, 'podManagementPolicy', 'OrderedReady');
  const strategy = ensureObject(spec, 'updateStrategy');
  if (textAt(strategy, 'type') === '') {
    strategy['type'] = 'RollingUpdate';
    ensureObject(strategy, 'rollingUpdate');
  }
  const rolling = objectAt(strategy, 'rollingUpdate');
  if (strategy['type'] === 'RollingUpdate' && rolling !== undefined) {
    whenUnset(rolling, 'partition', 0);
    // The MaxUnavailableStatefulSet gate, on by default since 1.37.
    whenUnset(rolling, 'maxUnavailable', 1);
  }
  const retention = ensureObject(spec, 'persistentVolumeClaimRetentionPolicy');
  whenZero(retention, 'whenDeleted', 'Retain');
  whenZero(retention, 'whenScaled', 'Retain');
  whenUnset(spec, 'replicas', 1);
  whenUnset(spec, 'revisionHistoryLimit', 10);
  // serviceName is a string without omitempty: written even when empty.
  whenUnset(spec, 'serviceName', '');
  podTemplateDefaults(templateOf(spec), kind);
  for (const claim of objectsAt(spec, 'volumeClaimTemplates')) {
    // Each claim template is a whole PersistentVolumeClaim, its type written out.
    claim['apiVersion'] = 'v1';
    claim['kind'] = 'PersistentVolumeClaim';
    whenUnset(ensureObject(claim, 'spec'), 'volumeMode', 'Filesystem');
    canonicalResources(objectAt(claim, 'spec'), kind);
    whenZero(ensureObject(claim, 'status'), 'phase', 'Pending');
  }
}

export function replicaSetDefaults(object: Json, kind: string): void {
  const spec = ensureObject(object, 'spec');
  whenUnset(spec, 'replicas', 1);
  podTemplateDefaults(templateOf(spec), kind);
}

/** A Job's spec defaults (also a CronJob's job template's pod template, but not the rest: Go registers them for Jobs only). */
function jobSpecDefaults(spec: Json): void {
  if (unset(spec, 'completions') && unset(spec, 'parallelism')) spec['completions'] = 1;
  whenUnset(spec, 'parallelism', 1);
  if (unset(spec, 'backoffLimit')) spec['backoffLimit'] = unset(spec, 'backoffLimitPerIndex') ? 6 : MAX_INT32;
  whenUnset(spec, 'completionMode', 'NonIndexed');
  whenUnset(spec, 'suspend', false);
  if (unset(spec, 'podReplacementPolicy')) spec['podReplacementPolicy'] = unset(spec, 'podFailurePolicy') ? 'TerminatingOrFailed' : 'Failed';
  whenUnset(spec, 'manualSelector', false);
  podFailurePolicyDefaults(spec);
}

function podFailurePolicyDefaults(spec: Json): void {
  for (const rule of objectsAt(objectAt(spec, 'podFailurePolicy') ?? {}, 'rules')) {
    for (const pattern of objectsAt(rule, 'onPodConditions')) whenZero(pattern, 'status', 'True');
  }
}

export function jobDefaults(object: Json, kind: string): void {
  const spec = ensureObject(object, 'spec');
  jobSpecDefaults(spec);
  const template = templateOf(spec);
  const labels = template === undefined ? undefined : objectAt(ensureObject(template, 'metadata'), 'labels');
  const metadata = ensureObject(object, 'metadata');
  if (labels !== undefined && Object.keys(objectAt(metadata, 'labels') ?? {}).length === 0) metadata['labels'] = { ...labels };
  podTemplateDefaults(template, kind);
}

export function cronJobDefaults(object: Json, kind: string): void {
  const spec = ensureObject(object, 'spec');
  whenZero(spec, 'concurrencyPolicy', 'Allow');
  whenUnset(spec, 'suspend', false);
  whenUnset(spec, 'successfulJobsHistoryLimit', 3);
  whenUnset(spec, 'failedJobsHistoryLimit', 1);
  const jobTemplate = objectAt(spec, 'jobTemplate');
  if (jobTemplate === undefined) return;
  ensureObject(jobTemplate, 'metadata');
  const jobSpec = objectAt(jobTemplate, 'spec');
  if (jobSpec === undefined) return;
  podFailurePolicyDefaults(jobSpec);
  podTemplateDefaults(templateOf(jobSpec), kind);
}
