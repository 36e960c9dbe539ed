// Binding a Pod to a node, as a scheduler does: the pods/binding subresource and the legacy bindings collection of
// the core group, over raw HTTP and through client-node. What the Pod looks like after it, the watch event it makes,
// a dry run, and the refusals in kube-apiserver's words. Every expected value below is what kube-apiserver 1.37.2
// answered. No node needs to exist: a Binding names a node, nothing checks that it is there.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiException, CoreV1Api } from '@kubernetes/client-node';
import { unique, type Backend, type Json } from './backend.js';
import { raw, rawWatch, type RawAnswer } from './raw-http.js';

const PODS = '/api/v1/namespaces/default/pods';
const BINDINGS = '/api/v1/namespaces/default/bindings';
const SUCCESS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

function pod(name: string, spec: Json = {}, metadata: Json = {}): Json {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, ...metadata }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } };
}

function binding(name: string, node: string, metadata: Json = {}, target: Json = {}): Json {
  return { apiVersion: 'v1', kind: 'Binding', metadata: { name, ...metadata }, target: { kind: 'Node', name: node, ...target } };
}

function meta(answer: RawAnswer): Json {
  return (answer.body as Json).metadata ?? {};
}

/** An answer as [code, reason, message]. */
function refusal(answer: RawAnswer): unknown[] {
  return [answer.status, answer.body['reason'], answer.body['message']];
}

export function bindingSuite(backend: () => Backend): void {
  describe('pods/binding and bindings', () => {
    const send = (method: string, path: string, body?: unknown, type?: string): Promise<RawAnswer> =>
      raw(backend().kubeConfig, method, path, body === undefined ? undefined : JSON.stringify(body), type);

    test('a Binding puts the Pod on the node, merges its annotations and labels, marks it PodScheduled, in one MODIFIED event; managed fields and generation stay', async () => {
      const name = unique('bind');
      const created = await send('POST', PODS, pod(name, {}, { labels: { app: 'a', tier: 'old' }, annotations: { keep: 'k', over: 'old' } }));
      assert.equal(created.status, 201);
      const createdAt = String(meta(created)['creationTimestamp']);
      const rv = String(meta(created)['resourceVersion']);

      const asked = binding(name, 'node-1', { uid: meta(created)['uid'], resourceVersion: rv, annotations: { over: 'new', add: 'a' }, labels: { tier: 'new' } });
      const bound = await send('POST', `${PODS}/${name}/binding?fieldManager=scheduler`, asked);
      assert.equal(bound.status, 201);
      assert.deepEqual(bound.body, SUCCESS);

      const after = (await send('GET', `${PODS}/${name}`)).body as Json;
      assert.equal(after.spec?.['nodeName'], 'node-1');
      assert.deepEqual(after.metadata?.['annotations'], { keep: 'k', over: 'new', add: 'a' });
      assert.deepEqual(after.metadata?.['labels'], { app: 'a', tier: 'new' });
      const conditions = after.status?.['conditions'] as Json[];
      assert.deepEqual(conditions.map((c) => [c['type'], c['status'], c['lastProbeTime']]), [['PodScheduled', 'True', null]]);
      assert.ok(Date.parse(String(conditions[0]?.['lastTransitionTime'])) >= Date.parse(createdAt));
      // The binding bypasses the Pod's strategy and field manager: nothing records the scheduler.
      assert.equal(after.metadata?.['generation'], 1);
      assert.deepEqual(after.metadata?.['managedFields'], meta(created)['managedFields']);

      const watch = await rawWatch(backend().kubeConfig, `${PODS}?watch=true&resourceVersion=${rv}&fieldSelector=metadata.name%3D${name}`, () => false, 1000);
      assert.deepEqual(
        watch.events.map((e) => [e.type, e.object.metadata?.resourceVersion, (e.object as Json).spec?.['nodeName']]),
        [['MODIFIED', after.metadata?.['resourceVersion'], 'node-1']],
      );
    });

    test('a Binding is refused as kube-apiserver refuses it: the wrong Pod, kind or target (400, 500), no Pod (404), failed preconditions, a bound, terminating or gated Pod (409)', async () => {
      const name = unique('bind-refused');
      const path = `${PODS}/${name}/binding`;
      const created = await send('POST', PODS, pod(name));
      const uid = String(meta(created)['uid']);
      const rv = String(meta(created)['resourceVersion']);
      const cases: [string, string, unknown, unknown[]][] = [
        ['another name', path, binding('other', 'node-1'), [400, 'BadRequest', 'name in URL does not match name in Binding object']],
        ['another kind', path, { ...binding(name, 'node-1'), kind: 'Pod' }, [400, 'BadRequest', 'Pod in version "v1" cannot be handled as a Binding: converting (v1.Pod) to (core.Binding): unknown conversion']],
        ['a target of a wrong type', path, { ...binding(name, 'node-1'), target: 'node-1' }, [400, 'BadRequest', 'Binding in version "v1" cannot be handled as a Binding: json: cannot unmarshal string into Go struct field Binding.target of type v1.ObjectReference']],
        ['a Service target', path, binding(name, 'node-1', {}, { kind: 'Service' }), [500, undefined, 'target.kind: Unsupported value: "Service": supported values: "Node", "<empty>"']],
        ['no target name', path, binding(name, '', {}, { kind: 'Service' }), [500, undefined, '[target.kind: Unsupported value: "Service": supported values: "Node", "<empty>", target.name: Required value]']],
        ['a node name that is no DNS subdomain', path, binding(name, 'Node_1'), [500, undefined, `target.name: Invalid value: "Node_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`]],
        ['no such Pod', `${PODS}/${name}-none/binding`, binding(`${name}-none`, 'node-1'), [404, 'NotFound', `pods "${name}-none" not found`]],
        ['another uid', path, binding(name, 'node-1', { uid: 'nope' }), [409, 'Conflict', `Operation cannot be fulfilled on pods "${name}": StorageError: invalid object, Code: 4, Key: /registry/pods/default/${name}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: nope, UID in object meta: ${uid}`]],
        ['another resourceVersion', path, binding(name, 'node-1', { resourceVersion: '1' }), [409, 'Conflict', `Operation cannot be fulfilled on pods "${name}": StorageError: invalid object, Code: 4, Key: /registry/pods/default/${name}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: ${rv}`]],
        ['a GET', path, undefined, [405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource']],
      ];
      for (const [what, where, body, expected] of cases) assert.deepEqual(refusal(await send(body === undefined ? 'GET' : 'POST', where, body)), expected, what);
      assert.equal(((await send('GET', `${PODS}/${name}`)).body as Json).metadata?.['resourceVersion'], rv, 'nothing changed the Pod');

      assert.equal((await send('POST', path, binding(name, 'node-1'))).status, 201);
      const again = await send('POST', `${path}?dryRun=All`, binding(name, 'node-2'));
      assert.deepEqual(again.body, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `Operation cannot be fulfilled on pods/binding "${name}": pod ${name} is already assigned to node "node-1"`,
        reason: 'Conflict',
        details: { name, kind: 'pods/binding' },
        code: 409,
      });

      const held = unique('bind-held');
      await send('POST', PODS, pod(held, {}, { finalizers: ['conformance.katalog.dev/hold'] }));
      assert.equal((await send('DELETE', `${PODS}/${held}`)).status, 200);
      assert.deepEqual(refusal(await send('POST', `${PODS}/${held}/binding`, binding(held, 'node-1'))), [409, 'Conflict', `Operation cannot be fulfilled on pods/binding "${held}": pod ${held} is being deleted, cannot be assigned to a host`]);
      assert.equal((await send('PATCH', `${PODS}/${held}`, { metadata: { finalizers: null } }, 'application/merge-patch+json')).status, 200);

      const gated = unique('bind-gated');
      await send('POST', PODS, pod(gated, { schedulingGates: [{ name: 'conformance.katalog.dev/gate' }] }));
      assert.deepEqual(refusal(await send('POST', `${PODS}/${gated}/binding`, binding(gated, 'node-1'))), [409, 'Conflict', `Operation cannot be fulfilled on pods/binding "${gated}": pod ${gated} has non-empty .spec.schedulingGates`]);
    });

    test('a dry run answers Success and changes nothing; unknown fields are warned of, or refused with fieldValidation=Strict', async () => {
      const name = unique('bind-dry');
      const created = await send('POST', PODS, pod(name));
      const body = { ...binding(name, 'node-1'), extra: 1 };
      const strict = await send('POST', `${PODS}/${name}/binding?dryRun=All&fieldValidation=Strict`, body);
      assert.deepEqual(refusal(strict), [400, 'BadRequest', 'Binding in version "v1" cannot be handled as a Binding: strict decoding error: unknown field "extra"']);
      const dry = await send('POST', `${PODS}/${name}/binding?dryRun=All`, body);
      assert.deepEqual([dry.status, dry.body, dry.warnings], [201, SUCCESS, ['unknown field "extra"']]);
      const after = (await send('GET', `${PODS}/${name}`)).body as Json;
      assert.deepEqual([after.metadata?.['resourceVersion'], after.spec?.['nodeName'], after.status?.['conditions']], [meta(created)['resourceVersion'], undefined, undefined]);
      assert.deepEqual(refusal(await send('POST', `${PODS}/${name}/binding?dryRun=Yes`, body)), [422, 'Invalid', 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Yes"]: supported values: "All"']);
    });

    test('the legacy bindings collection binds the Pod its Binding names; discovery lists it; it takes POST alone, and no uid precondition', async () => {
      const core = (await send('GET', '/api/v1')).body['resources'] as Json[];
      assert.deepEqual(core[0], { name: 'bindings', singularName: 'binding', namespaced: true, kind: 'Binding', verbs: ['create'] });
      assert.deepEqual(core.find((r) => r['name'] === 'pods/binding'), { name: 'pods/binding', singularName: '', namespaced: true, kind: 'Binding', verbs: ['create'] });

      const name = unique('legacy-bind');
      await send('POST', PODS, pod(name));
      // A create wipes the uid of its object: here it is no precondition.
      const bound = await send('POST', BINDINGS, binding(name, 'node-1', { uid: 'nope' }));
      assert.deepEqual([bound.status, bound.body], [201, SUCCESS]);
      assert.equal(((await send('GET', `${PODS}/${name}`)).body as Json).spec?.['nodeName'], 'node-1');

      const cases: [string, string, string, unknown, unknown[]][] = [
        ['no such Pod', 'POST', BINDINGS, binding(`${name}-none`, 'node-1'), [404, 'NotFound', `pods "${name}-none" not found`]],
        ['no name', 'POST', BINDINGS, { apiVersion: 'v1', kind: 'Binding', target: { name: 'node-1' } }, [400, 'BadRequest', 'Name parameter required.']],
        ['a bound Pod', 'POST', BINDINGS, binding(name, 'node-2'), [409, 'Conflict', `Operation cannot be fulfilled on pods/binding "${name}": pod ${name} is already assigned to node "node-1"`]],
        ['a list', 'GET', BINDINGS, undefined, [405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource']],
        ['a name in the path', 'GET', `${BINDINGS}/${name}`, undefined, [404, 'NotFound', 'the server could not find the requested resource']],
        ['no namespace', 'POST', '/api/v1/bindings', binding(name, 'node-1'), [404, 'NotFound', 'the server could not find the requested resource']],
      ];
      for (const [what, method, where, body, expected] of cases) assert.deepEqual(refusal(await send(method, where, body)), expected, what);
    });

    test('client-node binds through createNamespacedPodBinding and createNamespacedBinding, and sees a refusal as an ApiException', async () => {
      const api = backend().kubeConfig.makeApiClient(CoreV1Api);
      const [first, second] = [unique('client-bind'), unique('client-bind')];
      for (const name of [first, second]) await api.createNamespacedPod({ namespace: 'default', body: { metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }] } } });
      await api.createNamespacedPodBinding({ name: first, namespace: 'default', body: { metadata: { name: first }, target: { kind: 'Node', name: 'node-1' } } });
      await api.createNamespacedBinding({ namespace: 'default', body: { metadata: { name: second }, target: { name: 'node-2' } } });
      for (const [name, node] of [[first, 'node-1'], [second, 'node-2']] as const) assert.equal((await api.readNamespacedPod({ name, namespace: 'default' })).spec?.nodeName, node);
      await assert.rejects(
        api.createNamespacedPodBinding({ name: first, namespace: 'default', body: { metadata: { name: first }, target: { name: 'node-3' } } }),
        (error: unknown) => error instanceof ApiException && error.code === 409,
      );
    });
  });
}
