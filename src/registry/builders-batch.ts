/**
 * Short forms of the batch kinds: `jobs` (`backoffLimit` 3, `restartPolicy: Never`) and `cronJobs` (`schedule`
 * required, `restartPolicy: OnFailure`). A Job's pod template is immutable: changing the template of a Job that
 * exists makes the apply fail (see docs/operatorbox.md).
 */
import type { KindBuilder } from './kind-builder.js';
import { podMetadataOf, podSpecOf, POD_FIELDS } from './pod-template.js';
import { compact, deepMerge, defaultName, metadataOf, ShortForm } from './short-form.js';

const JOB_FIELDS = ['backoffLimit', 'activeDeadlineSeconds', 'ttlSecondsAfterFinished', 'completions', 'parallelism'] as const;

function jobSpecOf(form: ShortForm, restartPolicy: string, what: string): Record<string, unknown> {
  const spec: Record<string, unknown> = compact({
    backoffLimit: form.integer('backoffLimit') ?? 3,
    activeDeadlineSeconds: form.integer('activeDeadlineSeconds'),
    ttlSecondsAfterFinished: form.integer('ttlSecondsAfterFinished'),
    completions: form.integer('completions'),
    parallelism: form.integer('parallelism'),
    template: compact({ metadata: podTemplateMetadata(form), spec: podSpecOf(form, what, restartPolicy) }),
  });
  return spec;
}

function podTemplateMetadata(form: ShortForm): Record<string, unknown> | undefined {
  const metadata = podMetadataOf(form, {});
  const labels = metadata['labels'] as Record<string, string>;
  if (Object.keys(labels).length === 0) delete metadata['labels'];
  return Object.keys(metadata).length === 0 ? undefined : metadata;
}

export const jobsBuilder: KindBuilder = {
  produces: { apiVersion: 'batch/v1', kind: 'Job' },
  fields: [...POD_FIELDS, ...JOB_FIELDS, 'spec'],
  build(body, context) {
    const form = new ShortForm(body);
    let spec = jobSpecOf(form, 'Never', 'jobs');
    const override = form.map('spec');
    if (override !== undefined) spec = deepMerge(spec, override);
    return { apiVersion: 'batch/v1', kind: 'Job', metadata: metadataOf(form, defaultName(context, 'job')), spec };
  },
};

export const cronJobsBuilder: KindBuilder = {
  produces: { apiVersion: 'batch/v1', kind: 'CronJob' },
  fields: [
    ...POD_FIELDS,
    ...JOB_FIELDS,
    'schedule',
    'timeZone',
    'concurrencyPolicy',
    'suspend',
    'startingDeadlineSeconds',
    'successfulJobsHistoryLimit',
    'failedJobsHistoryLimit',
    'spec',
  ],
  build(body, context) {
    const form = new ShortForm(body);
    let spec: Record<string, unknown> = compact({
      schedule: form.requiredString('schedule', 'cronJobs'),
      timeZone: form.string('timeZone'),
      concurrencyPolicy: form.string('concurrencyPolicy'),
      suspend: form.boolean('suspend'),
      startingDeadlineSeconds: form.integer('startingDeadlineSeconds'),
      successfulJobsHistoryLimit: form.integer('successfulJobsHistoryLimit'),
      failedJobsHistoryLimit: form.integer('failedJobsHistoryLimit'),
      jobTemplate: { spec: jobSpecOf(form, 'OnFailure', 'cronJobs') },
    });
    const override = form.map('spec');
    if (override !== undefined) spec = deepMerge(spec, override);
    return { apiVersion: 'batch/v1', kind: 'CronJob', metadata: metadataOf(form, defaultName(context, 'cronjob')), spec };
  },
};
