// CustomResourceDefinitions and custom resources through ApiextensionsV1Api and CustomObjectsApi.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiextensionsV1Api, CustomObjectsApi, PatchStrategy, Watch, setHeaderOptions } from '@kubernetes/client-node';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { gadgetCrd, widget, widgetCrd } from './widget-crd.js';
import { expectStatus, waitFor } from './wait-for.js';

type Json = Record<string, any>;

const W = { group: 'example.com', version: 'v1', namespace: 'default', plural: 'widgets' };

describe('CRDs and custom resources', () => {
  let server: TestApiServer;
  let crds: ApiextensionsV1Api;
  let custom: CustomObjectsApi;

  before(async () => {
    server = await startTestApiServer();
    crds = server.kubeConfig.makeApiClient(ApiextensionsV1Api);
    custom = server.kubeConfig.makeApiClient(CustomObjectsApi);
  });
  after(() => server.stop());

  test('a created CRD is Established and NamesAccepted at once, with storedVersions and the cleanup finalizer', async () => {
    const crd = await crds.createCustomResourceDefinition({ body: widgetCrd() });
    const conditions = new Map((crd.status?.conditions ?? []).map((c) => [c.type, c.status]));
    assert.equal(conditions.get('Established'), 'True');
    assert.equal(conditions.get('NamesAccepted'), 'True');
    assert.equal(crd.status?.acceptedNames?.kind, 'Widget');
    assert.equal(crd.status?.acceptedNames?.listKind, 'WidgetList');
    assert.deepEqual(crd.status?.storedVersions, ['v1']);
    assert.deepEqual(crd.metadata?.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
    assert.equal(crd.metadata?.generation, 1);
    const schema = crd.spec.versions[0]?.schema?.openAPIV3Schema;
    assert.equal(schema?.x_kubernetes_preserve_unknown_fields, true, 'the schema survives the round trip');
  });

  test('invalid CRDs are rejected with 422', async () => {
    const bad = widgetCrd();
    bad.metadata = { name: 'wrong.example.com' };
    const status = await expectStatus(() => crds.createCustomResourceDefinition({ body: bad }), 422);
    assert.match(status.message ?? '', /must be spec.names.plural\+"."\+spec.group/);
    const twoStorage = widgetCrd();
    twoStorage.metadata = { name: 'widgets.example.com' };
    for (const v of twoStorage.spec.versions) v.storage = true;
    await expectStatus(() => crds.createCustomResourceDefinition({ body: twoStorage }), 422);
  });

  test('custom resources: create sets generation 1 and drops status; list items keep kind; get/replace/delete', async () => {
    const created = (await custom.createNamespacedCustomObject({ ...W, body: widget('w1', { size: 1 }, { labels: { tier: 'web' } }) })) as Json;
    assert.equal(created['metadata']['generation'], 1);
    assert.equal(created['kind'], 'Widget');
    const withStatus = widget('w2');
    withStatus['status'] = { ready: true };
    const w2 = (await custom.createNamespacedCustomObject({ ...W, body: withStatus })) as Json;
    assert.equal(w2['status'], undefined);
    const list = (await custom.listNamespacedCustomObject(W)) as Json;
    assert.equal(list['kind'], 'WidgetList');
    assert.equal(list['items'][0]['kind'], 'Widget');
    assert.equal(list['items'][0]['apiVersion'], 'example.com/v1');
    const replaced = (await custom.replaceNamespacedCustomObject({ ...W, name: 'w1', body: { ...created, spec: { size: 2 } } })) as Json;
    assert.equal(replaced['metadata']['generation'], 2);
    const noRv = widget('w1', { size: 3 });
    const status = await expectStatus(() => custom.replaceNamespacedCustomObject({ ...W, name: 'w1', body: noRv }), 422);
    assert.match(status.message ?? '', /^widgets.example.com "w1" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update$/);
  });

  test('a CR body must carry apiVersion and kind', async () => {
    const status = await expectStatus(() => custom.createNamespacedCustomObject({ ...W, body: { metadata: { name: 'kindless' }, spec: {} } }), 400);
    assert.equal(status.reason, 'BadRequest');
  });

  test('merge patch via setHeaderOptions; the default json-patch content type wants an array', async () => {
    const patched = (await custom.patchNamespacedCustomObject(
      { ...W, name: 'w1', body: { spec: { color: 'red' }, metadata: { labels: { extra: 'yes' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    )) as Json;
    assert.equal(patched['spec']['color'], 'red');
    assert.equal(patched['spec']['size'], 2);
    assert.equal(patched['metadata']['labels']['extra'], 'yes');
    assert.equal(patched['metadata']['generation'], 3);
    const jsonPatched = (await custom.patchNamespacedCustomObject({ ...W, name: 'w1', body: [{ op: 'replace', path: '/spec/size', value: 7 }] })) as Json;
    assert.equal(jsonPatched['spec']['size'], 7);
    // Not an array: kube-apiserver's handler cannot decode it (400).
    const refused = await expectStatus(() => custom.patchNamespacedCustomObject({ ...W, name: 'w1', body: { spec: { size: 8 } } }), 400);
    assert.equal(refused.message, 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp');
  });

  test('strategic merge patch on a custom resource is 415 with the real message', async () => {
    const status = await expectStatus(
      () => custom.patchNamespacedCustomObject({ ...W, name: 'w1', body: { spec: { size: 1 } } }, setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch)),
      415,
    );
    assert.equal(
      status.message,
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });

  test('status subresource: /status changes only status, the main resource ignores status', async () => {
    const before = (await custom.getNamespacedCustomObject({ ...W, name: 'w1' })) as Json;
    const afterStatus = (await custom.patchNamespacedCustomObjectStatus(
      { ...W, name: 'w1', body: { status: { ready: true }, spec: { size: 100 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    )) as Json;
    assert.deepEqual(afterStatus['status'], { ready: true });
    assert.equal(afterStatus['spec']['size'], before['spec']['size']);
    assert.equal(afterStatus['metadata']['generation'], before['metadata']['generation']);
    const mainPatch = (await custom.patchNamespacedCustomObject(
      { ...W, name: 'w1', body: { status: { ready: false } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    )) as Json;
    assert.deepEqual(mainPatch['status'], { ready: true });
    assert.equal(mainPatch['metadata']['resourceVersion'], afterStatus['metadata']['resourceVersion'], 'ignored status: a no-op');
    const read = (await custom.getNamespacedCustomObjectStatus({ ...W, name: 'w1' })) as Json;
    assert.deepEqual(read['status'], { ready: true });
    const replaced = (await custom.replaceNamespacedCustomObjectStatus({ ...W, name: 'w1', body: { ...read, status: { ready: 'maybe' } } })) as Json;
    assert.deepEqual(replaced['status'], { ready: 'maybe' });
  });

  test('several versions, no conversion: objects are stored once and served at the version asked', async () => {
    const beta = (await custom.getNamespacedCustomObject({ ...W, version: 'v1beta1', name: 'w1' })) as Json;
    assert.equal(beta['apiVersion'], 'example.com/v1beta1');
    assert.equal(beta['spec']['size'], 7);
    const created = (await custom.createNamespacedCustomObject({
      ...W,
      version: 'v1beta1',
      body: { apiVersion: 'example.com/v1beta1', kind: 'Widget', metadata: { name: 'beta-made' }, spec: {} },
    })) as Json;
    assert.equal(created['apiVersion'], 'example.com/v1beta1');
    const v1 = (await custom.getNamespacedCustomObject({ ...W, name: 'beta-made' })) as Json;
    assert.equal(v1['apiVersion'], 'example.com/v1');
    const stored = server.get('example.com/v1', 'Widget', 'beta-made');
    assert.equal(stored?.['apiVersion'], 'example.com/v1');
    // v1beta1 has no status subresource
    await expectStatus(() => custom.getNamespacedCustomObjectStatus({ ...W, version: 'v1beta1', name: 'w1' }), 404);
  });

  test('changing the storage version updates storedVersions; a served flag off removes the version', async () => {
    const crd = await crds.readCustomResourceDefinition({ name: 'widgets.example.com' });
    const v1 = crd.spec.versions.find((v) => v.name === 'v1');
    const beta = crd.spec.versions.find((v) => v.name === 'v1beta1');
    assert.ok(v1 && beta);
    v1.storage = false;
    beta.storage = true;
    const updated = await crds.replaceCustomResourceDefinition({ name: 'widgets.example.com', body: crd });
    assert.deepEqual(updated.status?.storedVersions, ['v1', 'v1beta1']);
    assert.equal(updated.metadata?.generation, 2);
    beta.storage = false;
    v1.storage = true;
    beta.served = false;
    await crds.replaceCustomResourceDefinition({ name: 'widgets.example.com', body: updated.metadata ? { ...crd, metadata: updated.metadata } : crd });
    await expectStatus(() => custom.getNamespacedCustomObject({ ...W, version: 'v1beta1', name: 'w1' }), 404);
    const stillThere = (await custom.getNamespacedCustomObject({ ...W, name: 'w1' })) as Json;
    assert.equal(stillThere['metadata']['name'], 'w1');
  });

  test('cluster-scoped CRDs serve cluster-scoped objects', async () => {
    await crds.createCustomResourceDefinition({ body: gadgetCrd() });
    const g = { group: 'example.org', version: 'v1alpha1', plural: 'gadgets' };
    const created = (await custom.createClusterCustomObject({ ...g, body: { apiVersion: 'example.org/v1alpha1', kind: 'Gadget', metadata: { name: 'g1', namespace: 'ignored' } } })) as Json;
    assert.equal(created['metadata']['namespace'], undefined);
    const read = (await custom.getClusterCustomObject({ ...g, name: 'g1' })) as Json;
    assert.equal(read['metadata']['uid'], created['metadata']['uid']);
    const deleted = (await custom.deleteClusterCustomObject({ ...g, name: 'g1' })) as Json;
    // As kube-apiserver answers a custom resource that is gone: a Success Status naming it (checked there by
    // test/conformance/deletion.ts).
    assert.deepEqual(deleted, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'g1', group: 'example.org', kind: 'gadgets', uid: created['metadata']['uid'] } });
  });

  test('deleting a CRD deletes its objects, ends their watches, and removes the resource', async () => {
    const events: string[] = [];
    let ended: unknown = 'open';
    const controller = await new Watch(server.kubeConfig).watch(
      '/apis/example.com/v1/namespaces/default/widgets',
      {},
      (type, obj: Json) => events.push(`${type} ${obj['metadata']['name']}`),
      (err) => {
        ended = err;
      },
    );
    await crds.deleteCustomResourceDefinition({ name: 'widgets.example.com' });
    await waitFor(() => ended !== 'open', 'the watch to end');
    assert.equal(ended, null, 'a clean end');
    assert.ok(events.includes('DELETED w1'));
    assert.ok(events.includes('DELETED w2'));
    await waitFor(() => server.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'widgets.example.com') === undefined, 'the CRD to go');
    await expectStatus(() => custom.listNamespacedCustomObject(W), 404);
    const discovery = await fetch(`${server.url}/apis/example.com/v1`);
    assert.equal(discovery.status, 404);
    controller.abort();
  });

  test('a CRD being deleted waits for custom resources that have finalizers', async () => {
    await crds.createCustomResourceDefinition({ body: widgetCrd() });
    await custom.createNamespacedCustomObject({ ...W, body: widget('held', {}, { finalizers: ['example.com/hold'] }) });
    await crds.deleteCustomResourceDefinition({ name: 'widgets.example.com' });
    await server.settled();
    const crd = await crds.readCustomResourceDefinition({ name: 'widgets.example.com' });
    assert.ok(crd.metadata?.deletionTimestamp);
    assert.equal(crd.status?.conditions?.find((c) => c.type === 'Terminating')?.status, 'True');
    const held = (await custom.getNamespacedCustomObject({ ...W, name: 'held' })) as Json;
    assert.ok(held['metadata']['deletionTimestamp']);
    const creating = await expectStatus(() => custom.createNamespacedCustomObject({ ...W, body: widget('late') }), 405);
    assert.equal(creating.reason, 'MethodNotAllowed');
    await custom.patchNamespacedCustomObject(
      { ...W, name: 'held', body: { metadata: { finalizers: null } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await waitFor(() => server.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'widgets.example.com') === undefined, 'the CRD to go');
  });

  // Probed on kube-apiserver 1.37.2: the singular, kind and list kind conflict; the last name checked is reported.
  test('a CRD whose kind another CRD of its group holds is not served until that one goes (NamesAccepted=False), as there', async () => {
    server.applyCrd(crdManifest({ group: 'names.example.com', kind: 'Sprocket', plural: 'sprockets' }));
    const second = server.applyCrd(crdManifest({ group: 'names.example.com', kind: 'Sprocket', plural: 'cogs' })) as Json;
    const conditionsOf = (crd: Json): Record<string, string> => Object.fromEntries((crd['status']?.['conditions'] ?? []).map((c: Json) => [c['type'], `${c['status']} ${c['reason']}`]));
    assert.deepEqual(conditionsOf(second), { NamesAccepted: 'False ListKindConflict', Established: 'False NotAccepted' });
    assert.equal(second['status']?.['conditions']?.[0]?.['message'], '"SprocketList" is already in use');
    // The names no other CRD holds are accepted (the plural), the others not (the singular, kind and list kind).
    assert.deepEqual(second['status']?.['acceptedNames'], { plural: 'cogs', kind: '' });
    await expectStatus(() => custom.listNamespacedCustomObject({ group: 'names.example.com', version: 'v1', namespace: 'default', plural: 'cogs' }), 404);

    server.delete('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'sprockets.names.example.com');
    await server.settled();
    const freed = server.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'cogs.names.example.com') as Json;
    assert.deepEqual(conditionsOf(freed), { NamesAccepted: 'True NoConflicts', Established: 'True InitialNamesAccepted' });
    assert.equal(freed['status']?.['acceptedNames']?.['kind'], 'Sprocket');
    const list = await custom.listNamespacedCustomObject({ group: 'names.example.com', version: 'v1', namespace: 'default', plural: 'cogs' });
    assert.deepEqual((list as Json)['items'], []);
  });
});
