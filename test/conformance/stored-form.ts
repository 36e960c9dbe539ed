// What comes back once an object is stored: a built-in object as Go writes its struct (fields in the struct's
// order, map keys sorted, `omitempty` zero values left out, fields without it written when absent, an empty list
// that protobuf cannot keep as null, times in seconds or microseconds in UTC), a custom resource with its keys sorted
// at every level, and lists in the order of each. An operator that compares what it wrote with what it reads sees
// these differences in a cluster: the test server shows them too.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend, type Json } from './backend.js';
import { raw, rawWatch } from './raw-http.js';
import { crdManifest } from '../../src/testing/index.js';

const GROUP = 'stored.conformance.katalog.dev';
const NS = '/api/v1/namespaces/default';

const crd = crdManifest({
  group: GROUP,
  kind: 'Thing',
  plural: 'things',
  versions: [
    {
      name: 'v1',
      schema: {
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
        properties: { spec: { 'x-kubernetes-preserve-unknown-fields': true, type: 'object', properties: { zeta: { type: 'string' }, list: { items: { properties: { z: { type: 'string' }, a: { type: 'string' } }, type: 'object' }, type: 'array' } } } },
      },
    },
  ],
});

/** The object's JSON text with what differs between servers and runs (uid, times, resourceVersion) as `~`. */
function text(body: Json): string {
  const metadata = body.metadata;
  if (metadata !== undefined) {
    for (const key of ['uid', 'resourceVersion', 'creationTimestamp']) if (key in metadata) metadata[key] = '~';
    if ('managedFields' in metadata) metadata['managedFields'] = (metadata['managedFields'] as Json[]).map((entry) => ({ ...entry, time: '~' }));
  }
  return JSON.stringify(body);
}

async function post(backend: Backend, path: string, body: Json, query = ''): Promise<{ status: number; body: Json }> {
  const answer = await raw(backend.kubeConfig, 'POST', `${path}${query}`, JSON.stringify(body));
  return { status: answer.status, body: answer.body as Json };
}

export function storedFormSuite(backend: () => Backend): void {
  describe('the stored form of objects', () => {
    test('a built-in object comes back as Go writes its struct: its order, sorted map keys, empty omitempty fields left out', async () => {
      const name = unique('cm');
      const sent = { metadata: { labels: { z: '1', a: '2' }, annotations: {}, finalizers: [], name }, binaryData: {}, data: { z: '1', a: '2' }, immutable: false, kind: 'ConfigMap', apiVersion: 'v1' };
      const created = await post(backend(), `${NS}/configmaps`, sent);
      assert.equal(created.status, 201);
      const expected = (managed: string): string =>
        `{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"${name}","namespace":"default","uid":"~","resourceVersion":"~","creationTimestamp":"~","labels":{"a":"2","z":"1"},${managed}},"immutable":false,"data":{"a":"2","z":"1"}}`;
      const managed = '"managedFields":[{"manager":"unknown","operation":"Update","apiVersion":"v1","time":"~","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:a":{},"f:z":{}},"f:immutable":{},"f:metadata":{"f:labels":{".":{},"f:a":{},"f:z":{}}}}}]';
      assert.equal(text(created.body), expected(managed));
      const read = await raw(backend().kubeConfig, 'GET', `${NS}/configmaps/${name}`);
      assert.equal(text(read.body as Json), expected(managed));

      // Nothing but empty fields: nothing owned, no managedFields entry.
      const empty = unique('cm');
      const bare = await post(backend(), `${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: empty, labels: {} }, data: {} });
      assert.equal(text(bare.body), `{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"${empty}","namespace":"default","uid":"~","resourceVersion":"~","creationTimestamp":"~"}}`);
    });

    test('zero values inside a pod template are left out where Go omits them, and written where it always does', async () => {
      const name = unique('deploy');
      const created = await post(backend(), '/apis/apps/v1/namespaces/default/deployments', {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name },
        spec: {
          paused: false,
          minReadySeconds: 0,
          selector: { matchLabels: { b: 'b', a: 'a' }, matchExpressions: [] },
          template: {
            metadata: { labels: { b: 'b', a: 'a' }, annotations: {} },
            spec: {
              hostNetwork: false,
              nodeSelector: {},
              tolerations: [],
              volumes: [{ name: 'v', emptyDir: { medium: '' } }],
              containers: [{ image: 'i', name: 'c', args: [], env: [{ value: '', name: 'E' }], ports: [{ containerPort: 80, hostPort: 0, name: '' }], volumeMounts: [{ name: 'v', mountPath: '/v', readOnly: false }], resources: { limits: {}, requests: { memory: '1Gi', cpu: '100m' } }, stdin: false }],
            },
          },
        },
      });
      assert.equal(created.status, 201);
      assert.equal(
        JSON.stringify((created.body.spec as Json)['template']),
        '{"metadata":{"labels":{"a":"a","b":"b"}},"spec":{"volumes":[{"name":"v","emptyDir":{}}],"containers":[{"name":"c","image":"i","ports":[{"containerPort":80,"protocol":"TCP"}],"env":[{"name":"E"}],"resources":{"requests":{"cpu":"100m","memory":"1Gi"}},"volumeMounts":[{"name":"v","mountPath":"/v"}],"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"Always"}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","securityContext":{},"schedulerName":"default-scheduler"}}',
      );
      assert.equal(JSON.stringify(created.body.spec?.['selector']), '{"matchLabels":{"a":"a","b":"b"}}');
      assert.equal('paused' in (created.body.spec ?? {}), false);
    });

    test('a list Go always writes is null when absent or empty (protobuf keeps no empty list), in a dry run too', async () => {
      const roles = '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles';
      const role = (name: string, rules?: unknown[]): Json => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name }, ...(rules === undefined ? {} : { rules }) });
      const empty = await post(backend(), roles, role(unique('role'), []));
      assert.equal(empty.status, 201);
      assert.equal(JSON.stringify(empty.body['rules']), 'null');
      const absent = await post(backend(), roles, role(unique('role')));
      assert.equal(JSON.stringify(absent.body['rules']), 'null');
      assert.ok('rules' in absent.body);
      const dryRun = await post(backend(), roles, role(unique('role'), []), '?dryRun=All');
      assert.equal(dryRun.status, 201);
      assert.equal(JSON.stringify(dryRun.body['rules']), 'null');
      // An Event's fields without omitempty are written though absent.
      const event = await post(backend(), `${NS}/events`, { apiVersion: 'v1', kind: 'Event', metadata: { name: unique('event') }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'R', message: 'm', count: 0 });
      assert.equal(event.status, 201);
      const { metadata: _metadata, ...rest } = event.body;
      assert.equal(
        JSON.stringify(rest),
        '{"kind":"Event","apiVersion":"v1","involvedObject":{"kind":"Pod","namespace":"default","name":"p"},"reason":"R","message":"m","source":{},"firstTimestamp":null,"lastTimestamp":null,"eventTime":null,"reportingComponent":"","reportingInstance":""}',
      );
    });

    test('times are written in seconds (a MicroTime in microseconds), in UTC; a time Go cannot parse is a 400', async () => {
      const event = (times: Json): Json => ({ apiVersion: 'v1', kind: 'Event', metadata: { name: unique('event') }, involvedObject: { kind: 'Pod', name: 'p' }, ...times });
      const written = await post(backend(), `${NS}/events`, event({ firstTimestamp: '2024-01-01T00:00:00.123Z', lastTimestamp: '2024-01-01T01:00:00+02:00', eventTime: '2024-05-06T07:08:09.123456-01:30', reportingComponent: 'c', reportingInstance: 'i', action: 'a', reason: 'r' }));
      assert.equal(written.status, 201, JSON.stringify(written.body));
      assert.deepEqual([written.body['firstTimestamp'], written.body['lastTimestamp'], written.body['eventTime']], ['2024-01-01T00:00:00Z', '2023-12-31T23:00:00Z', '2024-05-06T08:38:09.123456Z']);
      const refused: Array<[Json, string]> = [
        [{ firstTimestamp: '2024-01-01' }, 'parsing time "2024-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"'],
        [{ lastTimestamp: '2024-13-01T00:00:00Z' }, 'parsing time "2024-13-01T00:00:00Z": month out of range'],
        [{ eventTime: '2024-01-01T00:00:00Z' }, 'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"'],
        [{ eventTime: '2024-01-01T00:00:00.1234567Z' }, 'parsing time "2024-01-01T00:00:00.1234567Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "7Z" as "Z07:00"'],
        // A time's error ends decoding: it wins over a value of the wrong type before it.
        [{ count: 'x', firstTimestamp: 'soon' }, 'parsing time "soon" as "2006-01-02T15:04:05Z07:00": cannot parse "soon" as "2006"'],
        [{ firstTimestamp: 5 }, 'json: cannot unmarshal number into Go struct field Event.firstTimestamp of type string'],
      ];
      for (const [times, why] of refused) {
        const answer = await post(backend(), `${NS}/events`, event(times));
        assert.equal(answer.status, 400, why);
        assert.equal(answer.body['message'], `Event in version "v1" cannot be handled as a Event: ${why}`);
      }
    });

    test('a custom resource comes back with its keys sorted at every level; lists and bookmarks are ordered as each kind writes them', async () => {
      await backend().applyCrd(crd);
      // The CRD is a built-in object: its schema in JSONSchemaProps' order, `properties` sorted, down into `items`.
      const stored = await raw(backend().kubeConfig, 'GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/things.${GROUP}`);
      assert.equal(
        JSON.stringify(((stored.body as { spec: { versions: Json[] } }).spec.versions[0] ?? {})['schema']),
        '{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"list":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"},"z":{"type":"string"}}}},"zeta":{"type":"string"}},"x-kubernetes-preserve-unknown-fields":true}},"x-kubernetes-preserve-unknown-fields":true}}',
      );
      const path = `/apis/${GROUP}/v1/namespaces/default/things`;
      const name = unique('thing');
      const created = await post(backend(), path, { spec: { zeta: 'z', alpha: { y: 1, b: 'x' }, list: [{ z: '1', a: '2' }] }, metadata: { labels: { z: '1', a: '2' }, name }, kind: 'Thing', apiVersion: `${GROUP}/v1` });
      assert.equal(created.status, 201);
      assert.equal(
        text(created.body),
        `{"apiVersion":"${GROUP}/v1","kind":"Thing","metadata":{"creationTimestamp":"~","generation":1,"labels":{"a":"2","z":"1"},"managedFields":[{"apiVersion":"${GROUP}/v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:a":{},"f:z":{}}},"f:spec":{".":{},"f:alpha":{".":{},"f:b":{},"f:y":{}},"f:list":{},"f:zeta":{}}},"manager":"unknown","operation":"Update","time":"~"}],"name":"${name}","namespace":"default","resourceVersion":"~","uid":"~"},"spec":{"alpha":{"b":"x","y":1},"list":[{"a":"2","z":"1"}],"zeta":"z"}}`,
      );
      const status = await raw(backend().kubeConfig, 'PATCH', `${path}/${name}/status`, JSON.stringify({ status: { z: 1, a: { d: 1, c: 2 } } }), 'application/merge-patch+json');
      assert.equal(JSON.stringify((status.body as Json).status), '{"a":{"c":2,"d":1},"z":1}');

      const list = await raw(backend().kubeConfig, 'GET', `${path}?limit=500`);
      assert.deepEqual(Object.keys(list.body), ['apiVersion', 'items', 'kind', 'metadata']);
      assert.deepEqual(Object.keys(list.body['metadata'] as Json), ['continue', 'resourceVersion']);
      const builtIn = await raw(backend().kubeConfig, 'GET', `${NS}/configmaps?limit=1`);
      assert.deepEqual(Object.keys(builtIn.body), ['kind', 'apiVersion', 'metadata', 'items']);

      // A watch's bookmark is one more object of each kind.
      const bookmarkOf = async (collection: string): Promise<string> => {
        const query = '?watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan';
        const watch = await rawWatch(backend().kubeConfig, `${collection}${query}`, (events) => events.some((event) => event.type === 'BOOKMARK'), 10_000);
        const object = watch.events.find((event) => event.type === 'BOOKMARK')?.object as Json;
        if (object.metadata !== undefined) object.metadata['resourceVersion'] = '~';
        return JSON.stringify(object);
      };
      assert.equal(await bookmarkOf(path), `{"apiVersion":"${GROUP}/v1","kind":"Thing","metadata":{"annotations":{"k8s.io/initial-events-end":"true"},"resourceVersion":"~"}}`);
      assert.equal(await bookmarkOf(`${NS}/configmaps`), '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"~","annotations":{"k8s.io/initial-events-end":"true"}}}');
    });
  });
}
