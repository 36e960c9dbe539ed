// The simulated CronJob controller, as kube-controller-manager's makes and tracks a CronJob's Jobs (checked against it
// with the probe acting as the kubelet): the Job made when due (its name, template, annotation, owner), the status
// (`active`, `lastScheduleTime`, `lastSuccessfulTime`), the history limits, the concurrency policies, suspension and
// time zones. All through client-node over HTTP, on a fake clock.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BatchV1Api, CoreV1Api, type V1CronJob, type V1Job } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FakeClock } from '../support/fake-clock.js';

const MINUTE = 60_000;
const START = Date.parse('2026-12-07T12:00:30Z');

function cronJob(name: string, spec: Partial<NonNullable<V1CronJob['spec']>> = {}): V1CronJob {
  return {
    metadata: { name },
    spec: {
      schedule: '* * * * *',
      jobTemplate: { metadata: { labels: { app: name }, annotations: { note: 'n' } }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } } } },
      ...spec,
    },
  };
}

/** The name kube's controller gives the Job due at `iso`: `<cronjob>-<minutes since the epoch>`. */
function jobName(cronJob: string, iso: string): string {
  return `${cronJob}-${Date.parse(iso) / MINUTE}`;
}

function setup(jobDurationMs: number): { clock: FakeClock; server: () => TestApiServer; batch: () => BatchV1Api; core: () => CoreV1Api; at: (iso: string) => Promise<void> } {
  const clock = new FakeClock(START);
  let server: TestApiServer | undefined;
  before(async () => {
    server = await startTestApiServer({ clock, simulateWorkloads: { readyAfterMs: 1000, jobDurationMs } });
  });
  after(() => server?.stop());
  const running = (): TestApiServer => {
    if (server === undefined) throw new Error('the server did not start');
    return server;
  };
  return {
    clock,
    server: running,
    batch: () => running().kubeConfig.makeApiClient(BatchV1Api),
    core: () => running().kubeConfig.makeApiClient(CoreV1Api),
    // Moves the clock to `iso` (timers firing on the way) and lets the controllers settle.
    at: async (iso) => {
      await clock.advance(Date.parse(iso) - clock.now());
      await running().settled();
    },
  };
}

describe('simulated CronJobs (fake clock)', () => {
  describe('Jobs that complete', () => {
    const { batch, core, at } = setup(5000);
    const jobsOf = async (name: string): Promise<V1Job[]> => (await batch().listNamespacedJob({ namespace: 'default', labelSelector: `app=${name}` })).items;
    // Times as the API serves them (client-node reads them into Dates), and each active reference without its resourceVersion (the Job's when it was made).
    const statusOf = async (name: string): Promise<Record<string, unknown>> => {
      const status = JSON.parse(JSON.stringify((await batch().readNamespacedCronJob({ namespace: 'default', name })).status ?? {}).replace(/\.000Z"/g, 'Z"')) as Record<string, unknown>;
      const active = status['active'] as Record<string, unknown>[] | undefined;
      for (const ref of active ?? []) {
        assert.match(String(ref['resourceVersion']), /^\d+$/);
        delete ref['resourceVersion'];
      }
      return status;
    };
    const events = async (name: string): Promise<string[]> =>
      (await core().listNamespacedEvent({ namespace: 'default', fieldSelector: `involvedObject.name=${name}` })).items
        .sort((a, b) => String(a.metadata?.creationTimestamp).localeCompare(String(b.metadata?.creationTimestamp)) || String(a.metadata?.name).localeCompare(String(b.metadata?.name)))
        .map((e) => `${e.type} ${e.reason} ${e.message} (${e.source?.component})`);

    test('when due, the Job is made from the template, listed active; its end moves the CronJob on; past the history limit the oldest goes', async () => {
      const created = await batch().createNamespacedCronJob({ namespace: 'default', body: cronJob('keep', { successfulJobsHistoryLimit: 1 }) });
      await at('2026-12-07T12:00:59Z');
      assert.deepEqual(await jobsOf('keep'), [], 'nothing before the minute');

      await at('2026-12-07T12:01:00Z');
      const [job] = await jobsOf('keep');
      assert.equal(job?.metadata?.name, jobName('keep', '2026-12-07T12:01:00Z'));
      assert.deepEqual(job?.metadata?.annotations, { note: 'n', 'batch.kubernetes.io/cronjob-scheduled-timestamp': '2026-12-07T12:01:00Z' });
      assert.equal(job?.metadata?.labels?.['app'], 'keep');
      assert.deepEqual(job?.metadata?.ownerReferences?.map((ref) => [ref.apiVersion, ref.kind, ref.name, ref.uid, ref.controller, ref.blockOwnerDeletion]), [['batch/v1', 'CronJob', 'keep', created.metadata?.uid, true, true]]);
      assert.deepEqual(job?.spec?.template.spec?.containers.map((c) => c.image), ['i']);
      assert.deepEqual(await statusOf('keep'), {
        active: [{ kind: 'Job', namespace: 'default', name: job?.metadata?.name, uid: job?.metadata?.uid, apiVersion: 'batch/v1' }],
        lastScheduleTime: '2026-12-07T12:01:00Z',
      });

      // The Job runs (jobDurationMs) and completes: it leaves `active`, and its completion time is the last success.
      await at('2026-12-07T12:01:06Z');
      assert.deepEqual(await statusOf('keep'), { lastScheduleTime: '2026-12-07T12:01:00Z', lastSuccessfulTime: '2026-12-07T12:01:05Z' });

      // The next run; once it completes, the first Job is past successfulJobsHistoryLimit (1) and goes.
      await at('2026-12-07T12:02:06Z');
      assert.deepEqual((await jobsOf('keep')).map((j) => [j.metadata?.name, j.metadata?.deletionTimestamp === undefined]), [[jobName('keep', '2026-12-07T12:02:00Z'), true]]);
      assert.deepEqual(await statusOf('keep'), { lastScheduleTime: '2026-12-07T12:02:00Z', lastSuccessfulTime: '2026-12-07T12:02:05Z' });
      const first = jobName('keep', '2026-12-07T12:01:00Z');
      const second = jobName('keep', '2026-12-07T12:02:00Z');
      assert.deepEqual(await events('keep'), [
        `Normal SuccessfulCreate Created job ${first} (cronjob-controller)`,
        `Normal SawCompletedJob Saw completed job: ${first}, condition: Complete (cronjob-controller)`,
        `Normal SuccessfulCreate Created job ${second} (cronjob-controller)`,
        `Normal SawCompletedJob Saw completed job: ${second}, condition: Complete (cronjob-controller)`,
        `Normal SuccessfulDelete Deleted job ${first} (cronjob-controller)`,
      ]);
    });

    test('suspended, a CronJob makes nothing; resumed, it makes the run it missed last, once', async () => {
      await batch().createNamespacedCronJob({ namespace: 'default', body: cronJob('paused', { suspend: true }) });
      await at('2026-12-07T12:05:30Z');
      assert.deepEqual(await jobsOf('paused'), []);
      await batch().patchNamespacedCronJob({ namespace: 'default', name: 'paused', body: [{ op: 'replace', path: '/spec/suspend', value: false }] });
      await at('2026-12-07T12:05:31Z');
      assert.deepEqual((await jobsOf('paused')).map((j) => j.metadata?.name), [jobName('paused', '2026-12-07T12:05:00Z')]);
    });

    test('a time zone: the schedule is read there, and the annotation says the time there', async () => {
      await batch().createNamespacedCronJob({ namespace: 'default', body: cronJob('berlin', { schedule: '10 13 * * *', timeZone: 'Europe/Berlin' }) });
      await at('2026-12-07T12:10:00Z');
      const [job] = await jobsOf('berlin');
      assert.equal(job?.metadata?.name, jobName('berlin', '2026-12-07T12:10:00Z'));
      assert.equal(job?.metadata?.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'], '2026-12-07T13:10:00+01:00');
    });
  });

  describe('Jobs that run on', () => {
    const { batch, core, at } = setup(60 * MINUTE);
    const names = async (prefix: string): Promise<string[]> =>
      (await batch().listNamespacedJob({ namespace: 'default' })).items.filter((j) => j.metadata?.name?.startsWith(`${prefix}-`) && j.metadata.deletionTimestamp === undefined).map((j) => String(j.metadata?.name));
    const reasons = async (name: string): Promise<string[]> => (await core().listNamespacedEvent({ namespace: 'default', fieldSelector: `involvedObject.name=${name}` })).items.map((e) => String(e.reason)).sort();

    test('Forbid skips a run while one is active; Replace deletes the active Job and makes the new one', async () => {
      await batch().createNamespacedCronJob({ namespace: 'default', body: cronJob('forbid', { concurrencyPolicy: 'Forbid' }) });
      await batch().createNamespacedCronJob({ namespace: 'default', body: cronJob('replace', { concurrencyPolicy: 'Replace' }) });
      await at('2026-12-07T12:01:00Z');
      await at('2026-12-07T12:02:00Z');
      assert.deepEqual(await names('forbid'), [jobName('forbid', '2026-12-07T12:01:00Z')]);
      assert.deepEqual(await reasons('forbid'), ['JobAlreadyActive', 'SuccessfulCreate']);
      const forbid = (await batch().readNamespacedCronJob({ namespace: 'default', name: 'forbid' })).status;
      assert.equal(forbid?.lastScheduleTime?.toISOString(), '2026-12-07T12:01:00.000Z', 'the skipped run is not recorded');
      assert.deepEqual(await names('replace'), [jobName('replace', '2026-12-07T12:02:00Z')]);
      assert.deepEqual(await reasons('replace'), ['SuccessfulCreate', 'SuccessfulCreate', 'SuccessfulDelete']);
      const replace = (await batch().readNamespacedCronJob({ namespace: 'default', name: 'replace' })).status;
      assert.deepEqual(replace?.active?.map((ref) => ref.name), [jobName('replace', '2026-12-07T12:02:00Z')]);

      // Its active Job deleted by someone else, the CronJob lets it go (MissingJob) and makes the run it skipped, late.
      await batch().deleteNamespacedJob({ namespace: 'default', name: jobName('forbid', '2026-12-07T12:01:00Z') });
      await at('2026-12-07T12:02:30Z');
      const after = (await batch().readNamespacedCronJob({ namespace: 'default', name: 'forbid' })).status;
      assert.deepEqual(after?.active?.map((ref) => ref.name), [jobName('forbid', '2026-12-07T12:02:00Z')]);
      assert.equal(after?.lastScheduleTime?.toISOString(), '2026-12-07T12:02:00.000Z');
      assert.deepEqual(await reasons('forbid'), ['JobAlreadyActive', 'MissingJob', 'SuccessfulCreate', 'SuccessfulCreate']);
    });
  });
});
