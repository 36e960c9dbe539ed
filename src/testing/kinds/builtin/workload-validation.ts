/**
 * kube-apiserver's validation of the workload kinds' specs (Go's ValidateDeploymentSpec, ValidateReplicaSetSpec,
 * ValidateStatefulSetSpec, ValidateDaemonSetSpec, ValidateJob, ValidateCronJob), in its order: counts, the selector
 * (required, valid, not empty, matching the template's labels; an invalid one stops the template being checked for
 * the kinds that say so), the pod template (pod-spec-validation.ts) and the restart policy the kind allows,
 * strategies and rolling updates, a Job's generated selector and a CronJob's schedule (cron-schedule.ts) and time zone.
 */
import { checkTimeZone } from '../../../util/time-zone.js';
import { fieldForbidden, fieldInvalid, fieldNotSupported, fieldRequired, type FieldProblem } from '../../status-errors.js';
import { atMost100Percent, intOrPercentProblems, intOrPercentValue, labelSelectorProblems, nonNegative, selectorEmpty, selectorMatches, selectorParses } from './field-rules.js';
import { objectAt, objectsAt, textAt, type Json } from './fields.js';
import { podTemplateProblems } from './pod-spec-validation.js';
import { scheduleMessages } from './cron-schedule.js';

const MISMATCH = '`selector` does not match template `labels`';

function templateLabels(template: Json): Json | null {
  return objectAt(objectAt(template, 'metadata') ?? {}, 'labels') ?? null;
}

/** The selector's own problems: required (when `required`), valid, not empty. */
function selectorProblems(spec: Json, kindWord: string, required: boolean): FieldProblem[] {
  const selector = objectAt(spec, 'selector');
  if (selector === undefined) return required ? [fieldRequired('spec.selector')] : [];
  const problems = labelSelectorProblems(selector, 'spec.selector');
  if (selectorEmpty(selector)) problems.push(fieldInvalid('spec.selector', selector, `empty selector is invalid for ${kindWord}`));
  return problems;
}

/** The template matched against a selector that parses (a missing one selects nothing, an empty one everything). */
function mismatch(selector: Json | undefined, template: Json): FieldProblem[] {
  if (selector !== undefined && selectorEmpty(selector)) return [];
  return selectorMatches(selector, templateLabels(template) ?? undefined) ? [] : [fieldInvalid('spec.template.metadata.labels', templateLabels(template), MISMATCH)];
}

function restartAlways(template: Json): FieldProblem[] {
  const policy = textAt(objectAt(template, 'spec') ?? {}, 'restartPolicy');
  return policy === 'Always' ? [] : [fieldNotSupported('spec.template.spec.restartPolicy', policy, ['Always'])];
}

/** A ReplicaSet's or Deployment's selector and template (Go's ValidatePodTemplateSpecForReplicaSet). */
function replicatedProblems(spec: Json, kindWord: string): FieldProblem[] {
  const problems = selectorProblems(spec, kindWord, true);
  const selector = objectAt(spec, 'selector');
  if (selector !== undefined && !selectorParses(selector)) return [...problems, fieldInvalid('spec.selector', selector, 'invalid label selector')];
  const template = objectAt(spec, 'template') ?? {};
  return [...problems, ...mismatch(selector, template), ...podTemplateProblems(template, 'spec.template'), ...restartAlways(template)];
}

/** A Deployment's or DaemonSet's rolling update: both counts valid, not both zero, at most 100 % unavailable. */
export function rollingUpdateProblems(rolling: Json, field: string): FieldProblem[] {
  const unavailable = rolling['maxUnavailable'];
  const surge = rolling['maxSurge'];
  const problems = [...intOrPercentProblems(unavailable, `${field}.maxUnavailable`), ...intOrPercentProblems(surge, `${field}.maxSurge`)];
  if (intOrPercentValue(unavailable) === 0 && intOrPercentValue(surge) === 0) problems.push(fieldInvalid(`${field}.maxUnavailable`, unavailable, 'may not be 0 when `maxSurge` is 0'));
  return [...problems, ...atMost100Percent(unavailable, `${field}.maxUnavailable`)];
}

function deploymentStrategyProblems(strategy: Json): FieldProblem[] {
  const type = textAt(strategy, 'type');
  if (type === 'Recreate') return objectAt(strategy, 'rollingUpdate') === undefined ? [] : [fieldForbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'")];
  if (type === 'RollingUpdate') return rollingUpdateProblems(objectAt(strategy, 'rollingUpdate') ?? {}, 'spec.strategy.rollingUpdate');
  return [fieldNotSupported('spec.strategy', type, ['Recreate', 'RollingUpdate'])];
}

export function deploymentProblems(object: Json): FieldProblem[] {
  const spec = objectAt(object, 'spec') ?? {};
  const problems = [...nonNegative(spec['replicas'], 'spec.replicas'), ...replicatedProblems(spec, 'deployment')];
  problems.push(...deploymentStrategyProblems(objectAt(spec, 'strategy') ?? {}), ...nonNegative(spec['minReadySeconds'], 'spec.minReadySeconds'));
  problems.push(...nonNegative(spec['revisionHistoryLimit'], 'spec.revisionHistoryLimit'), ...nonNegative(spec['progressDeadlineSeconds'], 'spec.progressDeadlineSeconds'));
  const deadline = spec['progressDeadlineSeconds'];
  if (typeof deadline === 'number' && deadline <= Number(spec['minReadySeconds'] ?? 0)) problems.push(fieldInvalid('spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds'));
  return problems;
}

export function replicaSetProblems(object: Json): FieldProblem[] {
  const spec = objectAt(object, 'spec') ?? {};
  // Go words a ReplicaSet's empty selector as a Deployment's.
  return [...nonNegative(spec['replicas'], 'spec.replicas'), ...nonNegative(spec['minReadySeconds'], 'spec.minReadySeconds'), ...replicatedProblems(spec, 'deployment')];
}

export function daemonSetProblems(object: Json): FieldProblem[] {
  const spec = objectAt(object, 'spec') ?? {};
  const selector = objectAt(spec, 'selector');
  const template = objectAt(spec, 'template') ?? {};
  const problems = selector === undefined ? [] : labelSelectorProblems(selector, 'spec.selector');
  if (selector === undefined || selectorParses(selector)) problems.push(...mismatch(selector, template));
  if (selector !== undefined && selectorEmpty(selector)) problems.push(fieldInvalid('spec.selector', selector, 'empty selector is invalid for daemonset'));
  problems.push(...podTemplateProblems(template, 'spec.template'), ...restartAlways(template), ...nonNegative(spec['minReadySeconds'], 'spec.minReadySeconds'));
  const strategy = objectAt(spec, 'updateStrategy') ?? {};
  if (strategy['type'] === 'RollingUpdate') problems.push(...rollingUpdateProblems(objectAt(strategy, 'rollingUpdate') ?? {}, 'spec.updateStrategy.rollingUpdate'));
  return [...problems, ...nonNegative(spec['revisionHistoryLimit'], 'spec.revisionHistoryLimit')];
}

/** The volumes a StatefulSet's claim templates give its pods, which its template's mounts may name. */
function claimVolumes(spec: Json): string[] {
  return objectsAt(spec, 'volumeClaimTemplates').map((claim) => textAt(objectAt(claim, 'metadata') ?? {}, 'name'));
}

export function statefulSetProblems(object: Json): FieldProblem[] {
  const spec = objectAt(object, 'spec') ?? {};
  const problems: FieldProblem[] = [];
  const policy = textAt(spec, 'podManagementPolicy');
  if (policy === '') problems.push(fieldRequired('spec.podManagementPolicy'));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel') problems.push(fieldInvalid('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'"));
  const strategy = objectAt(spec, 'updateStrategy') ?? {};
  const strategyType = textAt(strategy, 'type');
  if (strategyType === 'OnDelete' && objectAt(strategy, 'rollingUpdate') !== undefined) {
    problems.push(fieldInvalid('spec.updateStrategy.rollingUpdate', strategy['rollingUpdate'], "only allowed for updateStrategy 'RollingUpdate'"));
  } else if (strategyType !== 'OnDelete' && strategyType !== 'RollingUpdate') {
    problems.push(fieldInvalid('spec.updateStrategy', strategy, "must be 'RollingUpdate' or 'OnDelete'"));
  }
  problems.push(...nonNegative(spec['replicas'], 'spec.replicas'), ...nonNegative(spec['minReadySeconds'], 'spec.minReadySeconds'));
  problems.push(...selectorProblems(spec, 'statefulset', true));
  const selector = objectAt(spec, 'selector');
  const template = objectAt(spec, 'template') ?? {};
  if (selector !== undefined && !selectorParses(selector)) {
    problems.push({ field: 'spec.selector', reason: 'FieldValueInvalid', message: fieldInvalid('spec.selector', selector, '').message.replace(/: $/, '') });
  } else {
    problems.push(...mismatch(selector, template), ...podTemplateProblems(template, 'spec.template', claimVolumes(spec)));
  }
  return [...problems, ...restartAlways(template)];
}

/** A Job's or CronJob's pod template restart policy: OnFailure or Never (Always, the default, is refused). */
function restartForJobs(template: Json, path: string): FieldProblem[] {
  const policy = textAt(objectAt(template, 'spec') ?? {}, 'restartPolicy');
  return policy === 'OnFailure' || policy === 'Never' ? [] : [fieldRequired(`${path}.spec.restartPolicy`, 'valid values: "OnFailure", "Never"')];
}

/** The labels a Job's generated selector expects its pods to carry. */
function expectedJobLabels(object: Json): Json {
  const metadata = objectAt(object, 'metadata') ?? {};
  const uid = textAt(metadata, 'uid');
  const name = textAt(metadata, 'name');
  return { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': name, 'controller-uid': uid, 'job-name': name };
}

/** A Job's problems; its generated selector is only checked on create (`generated`). */
export function jobProblems(object: Json, generated = true): FieldProblem[] {
  const spec = objectAt(object, 'spec') ?? {};
  const selector = objectAt(spec, 'selector');
  const template = objectAt(spec, 'template') ?? {};
  const problems: FieldProblem[] = [];
  if (generated && spec['manualSelector'] !== true && selector !== undefined && selectorParses(selector) && !selectorMatches(selector, expectedJobLabels(object))) {
    problems.push(fieldInvalid('spec.selector', selector, '`selector` not auto-generated'));
  }
  for (const field of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit']) problems.push(...nonNegative(spec[field], `spec.${field}`));
  if (selector === undefined) problems.push(fieldRequired('spec.selector'));
  else problems.push(...labelSelectorProblems(selector, 'spec.selector'));
  if (selector !== undefined && selectorParses(selector) && !selectorMatches(selector, templateLabels(template) ?? undefined)) {
    problems.push(fieldInvalid('spec.template.metadata.labels', templateLabels(template), MISMATCH));
  }
  return [...problems, ...podTemplateProblems(template, 'spec.template'), ...restartForJobs(template, 'spec.template')];
}

function scheduleProblems(spec: Json): FieldProblem[] {
  const schedule = textAt(spec, 'schedule');
  if (schedule === '') return [fieldRequired('spec.schedule')];
  const problems = scheduleMessages(schedule).map((message) => fieldInvalid('spec.schedule', schedule, message));
  const zone = spec['timeZone'];
  if (typeof zone === 'string' && !knownZone(zone)) problems.push(fieldInvalid('spec.timeZone', zone, `unknown time zone ${zone}`));
  return problems;
}

/** Whether Go's time.LoadLocation knows `zone`, as far as this Node's time zone data tells (it reads names in any case). */
function knownZone(zone: string): boolean {
  try {
    checkTimeZone(zone);
    return true;
  } catch {
    return false;
  }
}

export function cronJobProblems(object: Json): FieldProblem[] {
  const spec = objectAt(object, 'spec') ?? {};
  const problems = scheduleProblems(spec);
  const policy = textAt(spec, 'concurrencyPolicy');
  if (!['Allow', 'Forbid', 'Replace'].includes(policy)) problems.push(fieldNotSupported('spec.concurrencyPolicy', policy, ['Allow', 'Forbid', 'Replace']));
  for (const field of ['startingDeadlineSeconds', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) problems.push(...nonNegative(spec[field], `spec.${field}`));
  const jobSpec = objectAt(objectAt(spec, 'jobTemplate') ?? {}, 'spec') ?? {};
  const template = objectAt(jobSpec, 'template') ?? {};
  for (const field of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit']) problems.push(...nonNegative(jobSpec[field], `spec.jobTemplate.spec.${field}`));
  return [...problems, ...podTemplateProblems(template, 'spec.jobTemplate.spec.template'), ...restartForJobs(template, 'spec.jobTemplate.spec.template')];
}
