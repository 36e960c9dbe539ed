// Evicting a Pod (pods/eviction), as kubectl drain and operators that move Pods do it, over raw HTTP and through
// client-node: a Pod nothing protects is marked DisruptionTarget and deleted; a PodDisruptionBudget's status decides
// the rest (429 while it is unobserved or allows nothing, in the words its status picks; a disruption taken and
// recorded in disruptedPods when it allows one); the refusals of the request itself. No kube-controller-manager
// runs beside either server here, so the tests write the budgets' statuses as the disruption controller would.
// Every expected value below is what kube-apiserver 1.37.2 answered.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiException, CoreV1Api } from '@kubernetes/client-node';
import { unique, type Backend, type Json } from './backend.js';
import { raw, rawWatch, type RawAnswer } from './raw-http.js';

const PODS = '/api/v1/namespaces/default/pods';
const BUDGETS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
const SUCCESS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
const VIOLATES = "Cannot evict pod as it would violate the pod's disruption budget.";

function eviction(name: string, extra: Json = {}): Json {
  return { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name }, ...extra };
}

/** An answer as [code, reason, message, the causes' messages, Retry-After]. */
function refusal(answer: RawAnswer): unknown[] {
  const details = (answer.body['details'] ?? {}) as Json;
  const causes = (details['causes'] as Json[] | undefined)?.map((c) => `${String(c['reason'])}: ${String(c['message'])}`);
  return [answer.status, answer.body['reason'], answer.body['message'], causes, answer.retryAfter];
}

function conditionsOf(object: Json): string[] {
  return ((object.status?.['conditions'] as Json[] | undefined) ?? []).map((c) => `${String(c['type'])}=${String(c['status'])}${c['reason'] === undefined ? '' : ` ${String(c['reason'])}`}`);
}

export function evictionSuite(backend: () => Backend): void {
  describe('pods/eviction', () => {
    const send = (method: string, path: string, body?: unknown): Promise<RawAnswer> => raw(backend().kubeConfig, method, path, body === undefined ? undefined : JSON.stringify(body));

    /** A Pod (labels `app`), Running and Ready (or not) as a kubelet would report it. */
    const runningPod = async (name: string, app: string, ready = true, spec: Json = {}): Promise<Json> => {
      const created = await send('POST', PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app } }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } });
      assert.equal(created.status, 201);
      const running = await send('PUT', `${PODS}/${name}/status`, { ...created.body, status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } });
      assert.equal(running.status, 200);
      return running.body as Json;
    };

    const budget = async (name: string, app: string, spec: Json = { minAvailable: 1 }): Promise<void> => {
      const created = await send('POST', BUDGETS, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { ...spec, selector: { matchLabels: { app } } } });
      assert.equal(created.status, 201);
    };

    /** Writes a budget's status, as the disruption controller would. */
    const budgetStatus = async (name: string, status: Json): Promise<RawAnswer> => {
      const current = await send('GET', `${BUDGETS}/${name}`);
      return send('PUT', `${BUDGETS}/${name}/status`, { ...current.body, status });
    };

    test('a Pod nothing protects is marked DisruptionTarget, then deleted: at once when unbound, gracefully on a node', async () => {
      const loose = unique('evict-loose');
      const bound = unique('evict-bound');
      const first = await runningPod(loose, unique('app'));
      await runningPod(bound, unique('app'), true, { nodeName: 'node-1' });
      const rv = String(first.metadata?.['resourceVersion']);

      assert.deepEqual((await send('POST', `${PODS}/${loose}/eviction`, eviction(loose))).body, SUCCESS);
      // policy/v1beta1 is still accepted, and deleteOptions apply to the deletion.
      const graceful = await send('POST', `${PODS}/${bound}/eviction`, { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name: bound }, deleteOptions: { gracePeriodSeconds: 20 } });
      assert.deepEqual([graceful.status, graceful.body], [201, SUCCESS]);

      const watch = await rawWatch(backend().kubeConfig, `${PODS}?watch=true&resourceVersion=${rv}`, (events) => events.length >= 7, 10_000);
      const seen = watch.events
        .filter((e) => [loose, bound].includes(String((e.object as Json).metadata?.['name'])))
        .map((e) => {
          const object = e.object as Json;
          return `${e.type} ${String(object.metadata?.['name']).startsWith('evict-loose') ? 'loose' : 'bound'} grace=${String(object.metadata?.['deletionGracePeriodSeconds'] ?? '-')} ${conditionsOf(object).join(',')}`;
        });
      assert.deepEqual(seen, [
        'ADDED bound grace=- ',
        'MODIFIED bound grace=- Ready=True',
        'MODIFIED loose grace=- Ready=True,DisruptionTarget=True EvictionByEvictionAPI',
        'MODIFIED loose grace=0 Ready=True,DisruptionTarget=True EvictionByEvictionAPI',
        'DELETED loose grace=0 Ready=True,DisruptionTarget=True EvictionByEvictionAPI',
        'MODIFIED bound grace=- Ready=True,DisruptionTarget=True EvictionByEvictionAPI',
        'MODIFIED bound grace=20 Ready=True,DisruptionTarget=True EvictionByEvictionAPI',
      ]);
      const condition = ((await send('GET', `${PODS}/${bound}`)).body.status as Json)['conditions'] as Json[];
      assert.deepEqual(condition[1], { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: condition[1]?.['lastTransitionTime'], reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' });
    });

    test('a budget decides: 429 while unobserved or allowing nothing; one disruption taken and recorded when it allows one; a dry run changes nothing', async () => {
      const app = unique('app');
      const name = unique('budget');
      const pod = unique('guarded');
      await runningPod(pod, app);
      await budget(name, app);
      assert.deepEqual(refusal(await send('POST', `${PODS}/${pod}/eviction`, eviction(pod))), [429, 'TooManyRequests', VIOLATES, [`DisruptionBudget: The disruption budget ${name} is still being processed by the server.`], '10']);

      const observed = { observedGeneration: 1, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 };
      assert.equal((await budgetStatus(name, { ...observed, disruptionsAllowed: 0 })).status, 200);
      assert.deepEqual(refusal(await send('POST', `${PODS}/${pod}/eviction`, eviction(pod))), [429, 'TooManyRequests', VIOLATES, [`DisruptionBudget: The disruption budget ${name} needs 1 healthy pods and has 1 currently`], undefined]);
      const failed = [{ type: 'DisruptionAllowed', status: 'False', reason: 'SyncFailed', message: 'boom', lastTransitionTime: '2026-01-01T00:00:00Z' }];
      await budgetStatus(name, { ...observed, currentHealthy: 2, disruptionsAllowed: 0, conditions: failed });
      assert.deepEqual(refusal(await send('POST', `${PODS}/${pod}/eviction`, eviction(pod)))[3], [`DisruptionBudget: The disruption budget ${name} does not allow evicting pods currently because it failed sync: boom`]);
      // A status the controller could not write is refused as kube-apiserver's status strategy refuses it.
      const negative = await budgetStatus(name, { ...observed, disruptionsAllowed: -1 });
      assert.deepEqual([negative.status, negative.body['message']], [422, `PodDisruptionBudget.policy "${name}" is invalid: status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0`]);

      await budgetStatus(name, { ...observed, currentHealthy: 2, disruptionsAllowed: 1, conditions: [{ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '', observedGeneration: 1, lastTransitionTime: '2026-01-01T00:00:00Z' }] });
      const before = (await send('GET', `${BUDGETS}/${name}`)).body as Json;
      assert.deepEqual((await send('POST', `${PODS}/${pod}/eviction?dryRun=All`, eviction(pod))).body, SUCCESS);
      assert.equal(((await send('GET', `${BUDGETS}/${name}`)).body as Json).metadata?.['resourceVersion'], before.metadata?.['resourceVersion'], 'a dry run leaves the budget');
      assert.equal((await send('GET', `${PODS}/${pod}`)).status, 200, 'and the Pod');

      assert.deepEqual((await send('POST', `${PODS}/${pod}/eviction`, eviction(pod))).body, SUCCESS);
      assert.equal((await send('GET', `${PODS}/${pod}`)).status, 404);
      const after = (await send('GET', `${BUDGETS}/${name}`)).body as Json;
      const status = after.status ?? {};
      assert.deepEqual([status['disruptionsAllowed'], Object.keys((status['disruptedPods'] as Json | undefined) ?? {})], [0, [pod]]);
      assert.deepEqual(conditionsOf(after), ['DisruptionAllowed=False InsufficientPods']);
      const writers = ((after.metadata?.['managedFields'] as Json[] | undefined) ?? []).map((f) => `${String(f['manager'])}/${String(f['subresource'] ?? '')}`);
      assert.ok(writers.includes('kube-apiserver/status'), `the eviction's status write is kube-apiserver's: ${writers.join(', ')}`);
    });

    test('an unready Pod goes without taking a disruption when the budget is healthy or says AlwaysAllow; a Pod two budgets select cannot be evicted', async () => {
      const app = unique('app');
      const healthy = unique('healthy');
      await budget(healthy, app, { minAvailable: 1 });
      await budgetStatus(healthy, { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 2 });
      const unready = unique('unready');
      await runningPod(unready, app, false);
      assert.deepEqual((await send('POST', `${PODS}/${unready}/eviction`, eviction(unready))).body, SUCCESS);
      assert.equal(((await send('GET', `${BUDGETS}/${healthy}`)).body.status as Json)['disruptionsAllowed'], 0, 'nothing was taken');

      const lenient = unique('app');
      const always = unique('always');
      await budget(always, lenient, { minAvailable: 5, unhealthyPodEvictionPolicy: 'AlwaysAllow' });
      const sick = unique('sick');
      const well = unique('well');
      await runningPod(sick, lenient, false);
      await runningPod(well, lenient, true);
      assert.deepEqual((await send('POST', `${PODS}/${sick}/eviction`, eviction(sick))).body, SUCCESS, 'unobserved, yet AlwaysAllow lets an unready Pod go');
      assert.equal((await send('POST', `${PODS}/${well}/eviction`, eviction(well))).status, 429, 'a Ready one still needs the budget');

      const twice = unique('app');
      await budget(unique('one'), twice);
      await budget(unique('two'), twice, { maxUnavailable: 1 });
      const shared = unique('shared');
      await runningPod(shared, twice);
      const answer = await send('POST', `${PODS}/${shared}/eviction`, eviction(shared));
      assert.deepEqual([answer.status, answer.body], [500, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 }]);
    });

    test('the request itself: its name, kind, version, option types and dry runs are checked in kube-apiserver’s words; only POST is served', async () => {
      const name = unique('asked');
      await runningPod(name, unique('app'));
      const at = `${PODS}/${name}/eviction`;
      const cases: [string, unknown, unknown[]][] = [
        ['name mismatch', eviction('other'), [400, 'BadRequest', 'name in URL does not match name in Eviction object']],
        ['another kind', { apiVersion: 'v1', kind: 'Pod', metadata: { name } }, [400, 'BadRequest', 'Pod in version "v1" cannot be handled as a Eviction: converting (v1.Pod) to (policy.Eviction): unknown conversion']],
        ['another version', { apiVersion: 'v1', kind: 'Eviction', metadata: { name } }, [400, 'BadRequest', 'Eviction in version "v1" cannot be handled as a Eviction: no kind "Eviction" is registered for version "v1" in scheme "pkg/runtime/scheme.go:111"']],
        ['option type', eviction(name, { deleteOptions: { gracePeriodSeconds: 'x' } }), [400, 'BadRequest', 'Eviction in version "v1" cannot be handled as a Eviction: json: cannot unmarshal string into Go struct field DeleteOptions.deleteOptions.gracePeriodSeconds of type int64']],
        ['options type', eviction(name, { deleteOptions: 'x' }), [400, 'BadRequest', 'Eviction in version "v1" cannot be handled as a Eviction: json: cannot unmarshal string into Go struct field Eviction.deleteOptions of type v1.DeleteOptions']],
        ['store option', eviction(name, { deleteOptions: { ignoreStoreReadErrorWithClusterBreakingPotential: true } }), [422, 'Invalid', `Eviction.policy "${name}" is invalid: deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: can not be set for pod eviction, try after removing the option`]],
        ['namespace', eviction(name, { metadata: { name, namespace: 'elsewhere' } }), [400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request']],
      ];
      for (const [label, body, expected] of cases) assert.deepEqual(refusal(await send('POST', at, body)).slice(0, 3), expected, label);
      const mismatch = await send('POST', `${at}?dryRun=All`, eviction(name, { deleteOptions: { dryRun: ['Other'] } }));
      assert.deepEqual([mismatch.status, mismatch.body['reason'], mismatch.body['message']], [500, undefined, 'Non-matching dry-run options in request and content: [All] and [Other]']);
      assert.deepEqual(refusal(await send('GET', at)).slice(0, 2), [405, 'MethodNotAllowed']);
      assert.deepEqual(refusal(await send('POST', `${PODS}/${unique('nobody')}/eviction`, eviction('x'))).slice(0, 2), [400, 'BadRequest']);
      assert.equal((((await send('GET', `${PODS}/${name}`)).body as Json).status?.['conditions'] as Json[]).length, 1, 'no refusal marked the Pod');

      // A deletion option refused only when the Pod is deleted: it keeps the mark, as kube-apiserver leaves it.
      const policy = await send('POST', at, eviction(name, { deleteOptions: { propagationPolicy: 'Nope' } }));
      assert.deepEqual(refusal(policy).slice(0, 2), [422, 'Invalid']);
      assert.deepEqual(conditionsOf((await send('GET', `${PODS}/${name}`)).body as Json), ['Ready=True', 'DisruptionTarget=True EvictionByEvictionAPI']);

      const discovery = ((await send('GET', '/api/v1')).body['resources'] as Json[]).find((r) => r['name'] === 'pods/eviction');
      assert.deepEqual(discovery, { name: 'pods/eviction', singularName: '', namespaced: true, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
    });

    test('client-node evicts with createNamespacedPodEviction, and a budget’s refusal reaches it as a 429 ApiException', async () => {
      const core = backend().kubeConfig.makeApiClient(CoreV1Api);
      const app = unique('app');
      const free = unique('free');
      const held = unique('held');
      await runningPod(free, unique('app'));
      await runningPod(held, app);
      await budget(unique('hold'), app);
      await core.createNamespacedPodEviction({ name: free, namespace: 'default', body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: free } } });
      assert.equal((await send('GET', `${PODS}/${free}`)).status, 404);
      await assert.rejects(
        core.createNamespacedPodEviction({ name: held, namespace: 'default', body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: held } } }),
        (error: unknown) => error instanceof ApiException && error.code === 429,
      );
    });
  });
}
