// The simulated CronJob controller, as kube-controller-manager's makes and tracks a CronJob's Jobs (checked against it
// with the probe acting as the kubelet): the Job made when due (its name, template, annotation, owner), the status
// (`active`, `lastScheduleTime`, `lastSuccessfulTime`), the history limits, the concurrency policies, suspension, time
// zones, `startingDeadlineSeconds`, missed runs, unexpected Jobs, and the Jobs' creates and deletes under admission
// (policies and webhooks see them; a refusal is retried with backoff). All through client-node over HTTP, on a fake
// clock.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AdmissionregistrationV1Api, BatchV1Api, CoreV1Api, type V1CronJob, type V1Job } from '@kubernetes/client-node';
import { SIMULATE_ANNOTATION, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { selfSignedCertificate } from '../../src/testing/tls.js';
import { FakeClock } from '../support/fake-clock.js';
import { configuration, webhookServer, type FakeWebhook } from '../support/fake-webhook.js';

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
        // kube's sync cleans up the history first, then sees the completion: in one sync, in that order.
        `Normal SuccessfulDelete Deleted job ${first} (cronjob-controller)`,
        `Normal SawCompletedJob Saw completed job: ${second}, condition: Complete (cronjob-controller)`,
      ]);
    });

    test('failed Jobs past failedJobsHistoryLimit go, the oldest first; a failed Job is no success', async () => {
      const failing = cronJob('flaky', { failedJobsHistoryLimit: 1 });
      const template = { ...failing.spec?.jobTemplate, metadata: { labels: { app: 'flaky' }, annotations: { [SIMULATE_ANNOTATION]: 'fail' } } };
      await batch().createNamespacedCronJob({ namespace: 'default', body: { ...failing, spec: { schedule: '* * * * *', ...failing.spec, jobTemplate: template } } });
      await at('2026-12-07T12:03:06Z');
      assert.deepEqual(await statusOf('flaky'), { lastScheduleTime: '2026-12-07T12:03:00Z' }, 'the Job failed: no lastSuccessfulTime');
      await at('2026-12-07T12:04:06Z');
      assert.deepEqual((await jobsOf('flaky')).map((j) => [j.metadata?.name, j.status?.conditions?.map((c) => c.type)]), [[jobName('flaky', '2026-12-07T12:04:00Z'), ['FailureTarget', 'Failed']]]);
      const first = jobName('flaky', '2026-12-07T12:03:00Z');
      const second = jobName('flaky', '2026-12-07T12:04:00Z');
      assert.deepEqual((await events('flaky')).slice(-2), [`Normal SuccessfulDelete Deleted job ${first} (cronjob-controller)`, `Normal SawCompletedJob Saw completed job: ${second}, condition: Failed (cronjob-controller)`]);
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

  // Checked against kube-controller-manager 1.37.2's cronjob and job controllers: the same CronJobs, policies and
  // times give the same Jobs, statuses and Events (but for the second a retried create lands in).
  describe('deadlines, missed runs, Jobs it did not make, and admission', () => {
    const { batch, core, server, at } = setup(60 * MINUTE);
    const admission = () => server().kubeConfig.makeApiClient(AdmissionregistrationV1Api);
    const names = async (prefix: string): Promise<string[]> =>
      (await batch().listNamespacedJob({ namespace: 'default' })).items.filter((j) => j.metadata?.name?.startsWith(`${prefix}-`) && j.metadata.deletionTimestamp === undefined).map((j) => String(j.metadata?.name));
    const warnings = async (name: string): Promise<string[]> =>
      (await core().listNamespacedEvent({ namespace: 'default', fieldSelector: `involvedObject.name=${name},type=Warning` })).items.map((e) => `${e.reason}: ${e.message}`);
    const refuse = async (name: string, operation: 'CREATE' | 'DELETE', expression: string, messageExpression?: string): Promise<void> => {
      await admission().createValidatingAdmissionPolicy({
        body: { metadata: { name }, spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: [{ apiGroups: ['batch'], apiVersions: ['v1'], operations: [operation], resources: ['jobs'] }] }, validations: [{ expression, message: `${name} says no`, ...(messageExpression === undefined ? {} : { messageExpression }) }] } },
      });
      await admission().createValidatingAdmissionPolicyBinding({ body: { metadata: { name }, spec: { policyName: name, validationActions: ['Deny'] } } });
    };

    test('startingDeadlineSeconds: resumed later than that after a run was due, the CronJob skips it and makes the next', async () => {
      await batch().createNamespacedCronJob({ namespace: 'default', body: cronJob('late', { suspend: true, startingDeadlineSeconds: 10 }) });
      await at('2026-12-07T12:01:20Z');
      await batch().patchNamespacedCronJob({ namespace: 'default', name: 'late', body: [{ op: 'replace', path: '/spec/suspend', value: false }] });
      await at('2026-12-07T12:01:59Z');
      assert.deepEqual(await names('late'), [], 'the 12:01 run was due 20 s before: past the deadline');
      assert.deepEqual(await warnings('late'), [], 'not even looked at (no MissSchedule): the deadline bounds how far back runs are sought');
      await at('2026-12-07T12:02:00Z');
      assert.deepEqual(await names('late'), [jobName('late', '2026-12-07T12:02:00Z')]);
    });

    test('more than 100 runs missed: the latest is made, with a TooManyMissedTimes warning', async () => {
      await batch().createNamespacedCronJob({ namespace: 'default', body: cronJob('behind', { suspend: true }) });
      const current = await batch().readNamespacedCronJob({ namespace: 'default', name: 'behind' });
      await batch().replaceNamespacedCronJobStatus({ namespace: 'default', name: 'behind', body: { ...current, status: { lastScheduleTime: new Date(Date.parse('2026-12-07T09:00:00Z')) } } });
      await batch().patchNamespacedCronJob({ namespace: 'default', name: 'behind', body: [{ op: 'replace', path: '/spec/suspend', value: false }] });
      await at('2026-12-07T12:02:01Z');
      assert.deepEqual(await names('behind'), [jobName('behind', '2026-12-07T12:02:00Z')]);
      assert.deepEqual(await warnings('behind'), ['TooManyMissedTimes: too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew']);
    });

    test('a running Job it did not make, owned by it, is unexpected: not listed active', async () => {
      const owner = await batch().createNamespacedCronJob({ namespace: 'default', body: cronJob('adopter', { suspend: true }) });
      await batch().createNamespacedJob({
        namespace: 'default',
        body: { metadata: { name: 'by-hand', ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'adopter', uid: String(owner.metadata?.uid), controller: true }] }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } } } },
      });
      await at('2026-12-07T12:02:05Z');
      assert.deepEqual(await warnings('adopter'), ['UnexpectedJob: Saw a job that the controller did not create or forgot: by-hand']);
      assert.equal((await batch().readNamespacedCronJob({ namespace: 'default', name: 'adopter' })).status?.active, undefined);
    });

    test('its Job refused by a policy: FailedCreate in the API server\'s words, retried with backoff until admitted', async () => {
      await refuse('no-refused-jobs', 'CREATE', "!object.metadata.name.startsWith('refused-')", "'no Jobs from ' + request.userInfo.username");
      await batch().createNamespacedCronJob({ namespace: 'default', body: cronJob('refused') });
      await at('2026-12-07T12:03:20Z');
      const due = jobName('refused', '2026-12-07T12:03:00Z');
      assert.deepEqual(await names('refused'), []);
      const [failed] = (await core().listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=refused,reason=FailedCreate' })).items;
      assert.equal(
        failed?.message,
        `Error creating job: jobs.batch "${due}" is forbidden: ValidatingAdmissionPolicy 'no-refused-jobs' with binding 'no-refused-jobs' denied request: no Jobs from system:serviceaccount:kube-system:cronjob-controller`,
      );
      assert.ok((failed?.count ?? 0) > 5, `retried, the Event counted each time (${failed?.count})`);
      await admission().deleteValidatingAdmissionPolicyBinding({ name: 'no-refused-jobs' });
      // The retries double from 5 ms: the one after 12:03:40 admits it, for the run due at 12:03.
      await at('2026-12-07T12:03:45Z');
      assert.deepEqual(await names('refused'), [due]);
      const status = (await batch().readNamespacedCronJob({ namespace: 'default', name: 'refused' })).status;
      assert.equal(status?.lastScheduleTime?.toISOString(), '2026-12-07T12:03:00.000Z');
      assert.deepEqual(status?.active?.map((ref) => ref.name), [due]);
    });

    test('Replace, its active Job refused deletion: FailedDelete, and no new Job while the old one stays', async () => {
      await refuse('keep-stuck-jobs', 'DELETE', "!oldObject.metadata.name.startsWith('stuck-')");
      await batch().createNamespacedCronJob({ namespace: 'default', body: cronJob('stuck', { concurrencyPolicy: 'Replace' }) });
      await at('2026-12-07T12:04:00Z');
      const first = jobName('stuck', '2026-12-07T12:04:00Z');
      await at('2026-12-07T12:05:10Z');
      assert.deepEqual(await names('stuck'), [first]);
      const status = (await batch().readNamespacedCronJob({ namespace: 'default', name: 'stuck' })).status;
      assert.equal(status?.lastScheduleTime?.toISOString(), '2026-12-07T12:04:00.000Z');
      assert.deepEqual(status?.active?.map((ref) => ref.name), [first]);
      assert.deepEqual(
        [...new Set(await warnings('stuck'))],
        [`FailedDelete: Deleted job: jobs.batch "${first}" is forbidden: ValidatingAdmissionPolicy 'keep-stuck-jobs' with binding 'keep-stuck-jobs' denied request: keep-stuck-jobs says no`],
      );
    });
  });

  describe('a mutating webhook on Jobs', () => {
    const { batch, server, at } = setup(60 * MINUTE);
    let webhook: FakeWebhook | undefined;
    before(async () => {
      const tls = await selfSignedCertificate();
      webhook = await webhookServer(tls);
      // Adds a label to every Job it is sent.
      webhook.answer = () => ({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels/injected', value: 'yes' }])).toString('base64') });
      const rules = [{ operations: ['CREATE'], apiGroups: ['batch'], apiVersions: ['v1'], resources: ['jobs'] }];
      await server().kubeConfig.makeApiClient(AdmissionregistrationV1Api).createMutatingWebhookConfiguration({ body: configuration('mutating', webhook.url, tls.cert, { rules }) });
    });
    after(() => webhook?.close());

    test("is called for the CronJob's Job, as the cronjob-controller service account, and what it adds is stored", async () => {
      await batch().createNamespacedCronJob({ namespace: 'default', body: cronJob('hooked') });
      await at('2026-12-07T12:01:00Z');
      const [job] = (await batch().listNamespacedJob({ namespace: 'default' })).items;
      assert.equal(job?.metadata?.name, jobName('hooked', '2026-12-07T12:01:00Z'));
      assert.deepEqual(job?.metadata?.labels, { app: 'hooked', injected: 'yes' });
      const sent = webhook?.seen.find((request) => request['name'] === job?.metadata?.name);
      assert.deepEqual(sent?.['userInfo'], { username: 'system:serviceaccount:kube-system:cronjob-controller', groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] });
      assert.deepEqual((await batch().readNamespacedCronJob({ namespace: 'default', name: 'hooked' })).status?.active?.map((ref) => ref.name), [job?.metadata?.name]);
    });
  });
});
