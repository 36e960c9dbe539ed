// Orkestra `include` and `emit` end to end against the test API server (the runtime on the real client-node over
// HTTP): the corpus state machine current/include-katalog (its status fields come from include/status.yaml, under
// emit.status) advances as its Jobs finish, through every step (finished Jobs kept, as Orkestra keeps them), each
// step on the echo of its own status write as Orkestra's does, not on the resync; `emit.events` records Kubernetes
// Events per reconcile outcome, a repeat counted on the same Event as client-go's recorder does.
import { after, before, describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Definition } from '../../src/definition/types.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import type { Hooks } from '../../src/operatorbox/types.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown> & { metadata?: Record<string, unknown>; spec?: Record<string, unknown>; status?: Record<string, unknown> };

function running(load: () => Promise<Definition>, hooks: Record<string, Hooks> = {}): () => TestApiServer {
  let server: TestApiServer | undefined;
  let runtime: Runtime | undefined;
  before(async () => {
    server = await startTestApiServer();
    const definition = await load();
    for (const crd of definition.crds.values()) {
      if (crd.crdFile !== undefined) continue;
      const { group, kind, plural, scope, version } = crd.apiTypes;
      server.create(crdManifest({ group, kind, plural, scope, versions: [{ name: version, served: true, storage: true, status: true }] }));
    }
    runtime = createRuntime(definition, { kubeConfig: server.kubeConfig, watch: FAST_WATCH, installCrds: true, rateLimiter: { baseDelay: 5, maxDelay: 200 }, hooks });
    await runtime.start();
  });
  after(async () => {
    await runtime?.stop();
    await server?.stop();
  });
  return () => server ?? assert.fail('no test API server');
}

const INCLUDE_KATALOG = 'test/fixtures/orkestra/current/include-katalog/include-katalog.yaml';

/** The corpus document as written, but with a resync of an hour: every step must come from an event. */
async function withoutResync(): Promise<Definition> {
  const text = readFileSync(INCLUDE_KATALOG, 'utf8');
  assert.match(text, /resync: 10s/);
  return parseDefinition(text.replace('resync: 10s', 'resync: 1h'), { source: INCLUDE_KATALOG });
}

describe('Orkestra corpus, run: current/include-katalog (status fields from include/status.yaml, under emit)', () => {
  const api = running(withoutResync);
  const pipeline = (name: string): Obj | undefined => api().get('demo.orkestra.io/v1alpha1', 'Pipeline', name, 'default') as Obj | undefined;
  const steps = [{ name: 'build', command: 'echo build' }, { name: 'test', command: 'echo test' }, { name: 'notify', command: 'echo notify' }];

  test('the Jobs run step by step as the included fields advance the phase, each step on the echo of the last status write', async () => {
    api().create({ apiVersion: 'demo.orkestra.io/v1alpha1', kind: 'Pipeline', metadata: { name: 'p', namespace: 'default' }, spec: { image: 'alpine:3.19', steps } });
    const job = await waitFor('the build Job', () => api().get('batch/v1', 'Job', 'p-build', 'default') as Obj | undefined);
    const container = ((((job.spec?.['template'] as Obj).spec as Obj)['containers'] as Obj[])[0] ?? {}) as Obj;
    assert.equal(container['image'], 'alpine:3.19');
    assert.deepEqual(container['command'], ['sh', '-c', 'echo build']);
    // The test server's simulated Job controller completes each Job; the fragment's fields move the phase on when
    // `.children.job` reports a success. The next Job's condition reads the phase that cycle wrote: the echo of the
    // status write starts the cycle that creates it (docs/orkestra-compatibility.md#status-echo), as in Orkestra;
    // with the resync at an hour nothing else would. The build Job stays (conditional pruning: docs/operatorbox.md#pruning).
    await waitFor('the pipeline done', () => pipeline('p')?.status?.['phase'] === 'Succeeded', 30_000);
    // Fields read the status the cycle started with: the echo of "Succeeded" runs the cycle that clears the step.
    const done = await waitFor('the step cleared', () => (pipeline('p')?.status?.['currentStep'] === '' ? pipeline('p')?.status : undefined));
    assert.equal(done['phase'], 'Succeeded');
    assert.equal(done['image'], 'alpine:3.19');
    for (const step of ['build', 'test', 'notify']) {
      const made = api().get('batch/v1', 'Job', `p-${step}`, 'default') as Obj | undefined;
      assert.ok(made, `the ${step} Job is kept`);
      const command = (((((made.spec?.['template'] as Obj).spec as Obj)['containers'] as Obj[])[0] ?? {}) as Obj)['command'];
      assert.deepEqual(command, ['sh', '-c', `echo ${step}`]);
    }
  });
});

const EMIT = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: emit }
spec:
  crds:
    gadget:
      apiTypes: { group: emit.orkestra.io, version: v1alpha1, kind: Gadget, plural: gadgets }
      operatorBox:
        reconcile:
          hooks: { function: GadgetHooks }
        emit:
          status:
            fields:
              - { path: size, value: "{{ .spec.size }}" }
          events:
            reconciled:
              type: Normal
              reason: Reconciled
              message: "{{ .metadata.name }} is {{ .spec.size }}"
              on: [success]
            rejected:
              type: Warning
              reason: "{{ \\"Bad\\" }}Size"
              message: "size {{ .spec.size }} rejected"
              on: [failure]
            big:
              type: Normal
              reason: Big
              message: big one
              when:
                - field: spec.size
                  equals: xl
`;

describe('Orkestra emit.events, run', () => {
  const hooks: Hooks = {
    onReconcile: (ctx) => {
      if ((ctx.object['spec'] as { size?: string } | undefined)?.size === 'bad') throw new Error('bad size');
    },
  };
  const api = running(async () => parseDefinition(EMIT, { source: 'emit.yaml' }), { GadgetHooks: hooks });
  const events = (reason: string): Obj[] =>
    (api().objects({ apiVersion: 'v1', kind: 'Event', namespace: 'default' }) as Obj[]).filter((e) => e['reason'] === reason && (e['involvedObject'] as Obj)['name'] === 'g');

  test('success records the success Event once, a repeat adds to its count; conditions and outcomes select', async () => {
    api().create({ apiVersion: 'emit.orkestra.io/v1alpha1', kind: 'Gadget', metadata: { name: 'g', namespace: 'default' }, spec: { size: 's' } });
    const [first] = await waitFor('the Reconciled Event', () => (events('Reconciled').length > 0 ? events('Reconciled') : undefined));
    assert.equal(first?.['type'], 'Normal');
    assert.equal(first?.['message'], 'g is s');
    assert.equal((first?.['involvedObject'] as Obj)['kind'], 'Gadget');
    assert.equal(events('BadSize').length, 0, 'on: [failure] is not recorded on success');
    assert.equal(events('Big').length, 0, 'its condition does not hold');
    // A label change reconciles again with the same outcome: the same Event, count 2.
    api().patch('emit.orkestra.io/v1alpha1', 'Gadget', 'g', { metadata: { labels: { again: 'yes' } } });
    await waitFor('count 2', () => events('Reconciled')[0]?.['count'] === 2);
    assert.equal(events('Reconciled').length, 1);

    api().patch('emit.orkestra.io/v1alpha1', 'Gadget', 'g', { spec: { size: 'bad' } });
    const [rejected] = await waitFor('the BadSize Event', () => (events('BadSize').length > 0 ? events('BadSize') : undefined));
    assert.equal(rejected?.['type'], 'Warning');
    assert.equal(rejected?.['message'], 'size bad rejected');
    assert.ok(!events('Reconciled').some((e) => e['message'] === 'g is bad'), 'on: [success] is not recorded on failure');

    api().patch('emit.orkestra.io/v1alpha1', 'Gadget', 'g', { spec: { size: 'xl' } });
    await waitFor('the Big Event', () => events('Big').length === 1);
    await waitFor('a new Reconciled Event for the new message', () => events('Reconciled').some((e) => e['message'] === 'g is xl'));
  });
});
