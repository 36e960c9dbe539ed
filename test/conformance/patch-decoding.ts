// A patch or an apply of a built-in kind whose result cannot be made into the kind's Go object: a merge or JSON
// patch's result is decoded from its JSON (422 on `patch`, quoting the patched object as the patch library wrote
// it), a strategic merge patch's converted from a map (422 quoting the patch as a Go map), an apply's converted after
// the merge (500 `failed to convert new object ... to proper version`). Before, the test server stored each of them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend, type Json } from './backend.js';
import { raw } from './raw-http.js';

const CONFIG_MAPS = '/api/v1/namespaces/default/configmaps';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

function deployment(name: string, spec: Json = {}): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'i' }] } }, ...spec },
  };
}

async function patch(backend: Backend, path: string, body: unknown, type: string): Promise<{ status: number; body: Json }> {
  const answer = await raw(backend.kubeConfig, 'PATCH', path, JSON.stringify(body), type);
  return { status: answer.status, body: answer.body as Json };
}

/** The message and only cause of kube-apiserver's 422 on `patch`. */
function patchInvalid(value: string, why: string): { message: string; causes: unknown } {
  const message = `Invalid value: ${JSON.stringify(value)}: ${why}`;
  return { message: ` "" is invalid: patch: ${message}`, causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }] };
}

export function patchDecodingSuite(backend: () => Backend): void {
  describe('patches whose result is not the Go object', () => {
    test("a merge or JSON patch's result that does not decode is a 422 quoting it, as the patch library wrote it", async () => {
      const name = unique('cm');
      const created = await raw(backend().kubeConfig, 'POST', CONFIG_MAPS, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { b: '1', a: '2' } }, data: { z: '1' } }));
      assert.equal(created.status, 201);
      const metadata = (created.body as Json).metadata ?? {};
      const time = String(metadata['creationTimestamp']);
      // The top level and what the patch reached sorted, the rest (metadata) in Go's order.
      const patched = (data: string): string =>
        `{"apiVersion":"v1",${data}"kind":"ConfigMap","metadata":{"name":"${name}","namespace":"default","uid":"${String(metadata['uid'])}","resourceVersion":"${String(metadata['resourceVersion'])}","creationTimestamp":"${time}","labels":{"a":"2","b":"1"},"managedFields":[{"manager":"unknown","operation":"Update","apiVersion":"v1","time":"${time}","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:z":{}},"f:metadata":{"f:labels":{".":{},"f:a":{},"f:b":{}}}}}]}}`;
      const cases: Array<[unknown, string, string, string]> = [
        [{ data: { y: 2 } }, 'application/merge-patch+json', '"data":{"y":2,"z":"1"},', 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string'],
        [[{ op: 'add', path: '/data/y', value: 2 }], 'application/json-patch+json', '"data":{"y":2,"z":"1"},', 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string'],
        [{ immutable: 'yes' }, 'application/merge-patch+json', '"data":{"z":"1"},"immutable":"yes",', 'json: cannot unmarshal string into Go struct field ConfigMap.immutable of type bool'],
      ];
      for (const [body, type, data, why] of cases) {
        const answer = await patch(backend(), `${CONFIG_MAPS}/${name}`, body, type);
        assert.equal(answer.status, 422, why);
        const expected = patchInvalid(patched(data), why);
        assert.equal(answer.body['message'], expected.message);
        assert.deepEqual(answer.body['details'], { causes: expected.causes });
      }
      // A patch whose value is a time Go cannot parse: its parser's words.
      const event = unique('event');
      assert.equal((await raw(backend().kubeConfig, 'POST', '/api/v1/namespaces/default/events', JSON.stringify({ apiVersion: 'v1', kind: 'Event', metadata: { name: event }, involvedObject: { kind: 'Pod', name: 'p' } }))).status, 201);
      const late = await patch(backend(), `/api/v1/namespaces/default/events/${event}`, { firstTimestamp: 'soon' }, 'application/merge-patch+json');
      assert.equal(late.status, 422);
      assert.match(String(late.body['message']), /^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"v1\\",\\"eventTime\\":null,\\"firstTimestamp\\":\\"soon\\",.*\}": parsing time "soon" as "2006-01-02T15:04:05Z07:00": cannot parse "soon" as "2006"$/);
      // Nothing was stored.
      const read = await raw(backend().kubeConfig, 'GET', `${CONFIG_MAPS}/${name}`);
      assert.deepEqual((read.body as Json).data, { z: '1' });
    });

    test('a merge patch that replaces a list writes its new items sorted; the status subresource decodes the same way', async () => {
      const name = unique('deploy');
      assert.equal((await raw(backend().kubeConfig, 'POST', DEPLOYMENTS, JSON.stringify(deployment(name)))).status, 201);
      const ports = await patch(backend(), `${DEPLOYMENTS}/${name}`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'i', ports: 'x' }] } } } }, 'application/merge-patch+json');
      assert.equal(ports.status, 422);
      assert.match(String(ports.body['message']), /\\"containers\\":\[\{\\"image\\":\\"i\\",\\"name\\":\\"c\\",\\"ports\\":\\"x\\"\}\],\\"dnsPolicy\\":\\"ClusterFirst\\",/);
      assert.match(String(ports.body['message']), /": json: cannot unmarshal string into Go struct field Container\.spec\.template\.spec\.containers\.ports of type \[\]v1\.ContainerPort$/);
      const status = await patch(backend(), `${DEPLOYMENTS}/${name}/status`, { status: { replicas: 'x' } }, 'application/merge-patch+json');
      assert.equal(status.status, 422);
      assert.match(String(status.body['message']), /\\"status\\":\{\\"replicas\\":\\"x\\"\}\}": json: cannot unmarshal string into Go struct field DeploymentStatus\.status\.replicas of type int32$/);
    });

    test("a strategic merge patch's result that does not convert is a 422 quoting the patch as a Go map, in the converter's words", async () => {
      const name = unique('cm');
      assert.equal((await raw(backend().kubeConfig, 'POST', CONFIG_MAPS, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }))).status, 201);
      const deployName = unique('deploy');
      assert.equal((await raw(backend().kubeConfig, 'POST', DEPLOYMENTS, JSON.stringify(deployment(deployName)))).status, 201);
      const cases: Array<[string, unknown, string, string]> = [
        [`${CONFIG_MAPS}/${name}`, { data: { y: 2 } }, 'map[data:map[y:2]]', 'cannot convert int64 to string'],
        [`${CONFIG_MAPS}/${name}`, { metadata: { labels: { c: true } } }, 'map[metadata:map[labels:map[c:true]]]', 'unrecognized type: string'],
        [`${DEPLOYMENTS}/${deployName}`, { spec: { replicas: '3' } }, 'map[spec:map[replicas:3]]', 'unrecognized type: int32'],
        [`${DEPLOYMENTS}/${deployName}`, { spec: { minReadySeconds: 1.5 } }, 'map[spec:map[minReadySeconds:1.5]]', 'cannot convert float64 to int32'],
        [`${DEPLOYMENTS}/${deployName}`, { spec: { template: { spec: { containers: [{ name: 'c', args: 'x' }] } } } }, 'map[spec:map[template:map[spec:map[containers:[map[args:x name:c]]]]]]', 'cannot restore slice from string'],
      ];
      for (const [path, body, value, why] of cases) {
        const answer = await patch(backend(), path, body, 'application/strategic-merge-patch+json');
        assert.equal(answer.status, 422, why);
        const expected = patchInvalid(value, why);
        assert.equal(answer.body['message'], expected.message);
        assert.deepEqual(answer.body['details'], { causes: expected.causes });
      }
    });

    test('an apply whose merged object does not convert is the 500 of the conversion to the stored version', async () => {
      const cases: Array<[Json, string]> = [
        [{ strategy: { rollingUpdate: { maxSurge: true } } }, 'json: cannot unmarshal bool into Go value of type int32'],
        // (A string for an integer fails before, when the apply is typed: typed-apply.ts.)
        [{ progressDeadlineSeconds: 1.5 }, 'cannot convert float64 to int32'],
      ];
      for (const [spec, why] of cases) {
        const name = unique('deploy');
        const answer = await patch(backend(), `${DEPLOYMENTS}/${name}?fieldManager=conformance`, deployment(name, spec), 'application/apply-patch+yaml');
        assert.equal(answer.status, 500, why);
        assert.equal(answer.body['message'], `failed to convert new object (/${name}; apps/v1, Kind=Deployment) to proper version: unable to convert unstructured object to apps/v1, Kind=Deployment: ${why}`);
        assert.equal((await raw(backend().kubeConfig, 'GET', `${DEPLOYMENTS}/${name}`)).status, 404);
      }
      const event = unique('event');
      const late = await patch(backend(), `/api/v1/namespaces/default/events/${event}?fieldManager=conformance`, { apiVersion: 'v1', kind: 'Event', metadata: { name: event }, involvedObject: { kind: 'Pod', name: 'p' }, lastTimestamp: 'soon' }, 'application/apply-patch+yaml');
      assert.equal(late.status, 500);
      assert.equal(late.body['message'], `failed to convert new object (/${event}; /v1, Kind=Event) to proper version: unable to convert unstructured object to /v1, Kind=Event: parsing time "soon" as "2006-01-02T15:04:05Z07:00": cannot parse "soon" as "2006"`);
    });
  });
}
