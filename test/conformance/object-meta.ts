// ObjectMeta's validation on creates and updates of a built-in kind and of a custom resource: labels, annotations,
// owner references, finalizer names and generateName, with kube-apiserver's messages and causes; the warnings a
// custom resource's unqualified finalizers get instead of the built-ins' 422.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend, type Json } from './backend.js';
import { raw } from './raw-http.js';
import { crdManifest } from '../../src/testing/index.js';

const GROUP = 'meta.conformance.katalog.dev';
const CONFIG_MAPS = '/api/v1/namespaces/default/configmaps';
const THINGS = `/apis/${GROUP}/v1/namespaces/default/things`;

const crd = crdManifest({ group: GROUP, kind: 'Thing', plural: 'things', versions: [{ name: 'v1', status: false }] });

const LABEL_VALUE_FORM =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const NAME_PART_FORM =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const SUBDOMAIN_FORM =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

interface Cause {
  readonly field?: string;
  readonly reason?: string;
  readonly message?: string;
}

function causesOf(body: Json): string[] {
  const causes = (body['details'] as { causes?: Cause[] } | undefined)?.causes ?? [];
  return causes.map((cause) => `${String(cause.field)} ${String(cause.reason)}: ${String(cause.message)}`);
}

export function objectMetaSuite(backend: () => Backend): void {
  describe('ObjectMeta validation', () => {
    test('labels, annotations, owner references and finalizers are validated on a create, of a built-in kind and a custom resource alike', async () => {
      await backend().applyCrd(crd);
      const kc = backend().kubeConfig;
      const long = 'x'.repeat(64);
      const cases: Array<[Json, string[]]> = [
        [{ labels: { a: long } }, [`metadata.labels FieldValueInvalid: Invalid value: "${long}": must be no more than 63 bytes`]],
        [{ labels: { a: 'has space' } }, [`metadata.labels FieldValueInvalid: Invalid value: "has space": ${LABEL_VALUE_FORM}`]],
        [{ labels: { 'Example.com/a': 'v' } }, [`metadata.labels FieldValueInvalid: Invalid value: "Example.com/a": prefix part ${SUBDOMAIN_FORM}`]],
        [{ annotations: { 'bad key': 'v' } }, [`metadata.annotations FieldValueInvalid: Invalid value: "bad key": ${NAME_PART_FORM}`]],
        [{ annotations: { a: 'x'.repeat(262145) } }, ['metadata.annotations FieldValueTooLong: Too long: may not be more than 262144 bytes']],
        [
          { ownerReferences: [{}] },
          ['apiVersion', 'kind', 'name', 'uid'].map((field) => `metadata.ownerReferences[0].${field} FieldValueRequired: Required value: must not be empty`),
        ],
        [{ ownerReferences: [{ apiVersion: 'a/b/c', kind: 'K', name: 'x', uid: 'u' }] }, ['metadata.ownerReferences[0].apiVersion FieldValueInvalid: Invalid value: "a/b/c": must be <group>/<version> or <version>']],
        [
          {
            ownerReferences: [
              { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'u1', controller: true },
              { apiVersion: 'v1', kind: 'ConfigMap', name: 'y', uid: 'u2', controller: true },
            ],
          },
          [
            'metadata.ownerReferences FieldValueInvalid: Invalid value: [{"apiVersion":"v1","kind":"ConfigMap","name":"x","uid":"u1","controller":true},{"apiVersion":"v1","kind":"ConfigMap","name":"y","uid":"u2","controller":true}]: ' +
              'Only one reference can have Controller set to true. Found "true" in references for ConfigMap/x and ConfigMap/y',
          ],
        ],
      ];
      for (const [metadata, causes] of cases) {
        for (const [path, typeMeta, kind] of [
          [CONFIG_MAPS, { apiVersion: 'v1', kind: 'ConfigMap' }, 'ConfigMap'],
          [THINGS, { apiVersion: `${GROUP}/v1`, kind: 'Thing' }, `Thing.${GROUP}`],
        ] as const) {
          const name = unique('meta');
          const answer = await raw(kc, 'POST', path, JSON.stringify({ ...typeMeta, metadata: { name, ...metadata } }));
          assert.equal(answer.status, 422, `${kind} ${JSON.stringify(metadata).slice(0, 80)}`);
          assert.deepEqual(causesOf(answer.body), causes, kind);
          assert.match(String(answer.body['message']), new RegExp(`^${kind.replace('.', '\\.')} "${name}" is invalid: `));
        }
      }
    });

    test("finalizers: a built-in kind's must be standard or have a '/'; a custom resource's get a warning instead; generateName is checked with the name", async () => {
      await backend().applyCrd(crd);
      const kc = backend().kubeConfig;
      const cm = await raw(kc, 'POST', CONFIG_MAPS, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: unique('meta'), finalizers: ['bad finalizer'] } }));
      assert.deepEqual(causesOf(cm.body), [
        `metadata.finalizers FieldValueInvalid: Invalid value: "bad finalizer": ${NAME_PART_FORM}`,
        'metadata.finalizers[0] FieldValueInvalid: Invalid value: "bad finalizer": name is neither a standard finalizer name nor is it fully qualified',
      ]);
      const name = unique('meta');
      const thing = await raw(kc, 'POST', THINGS, JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: 'Thing', metadata: { name, finalizers: ['plain', 'x/ok'] } }));
      assert.equal(thing.status, 201);
      assert.deepEqual(thing.warnings, ['metadata.finalizers: "plain": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers']);
      const added = await raw(kc, 'PATCH', `${THINGS}/${name}`, JSON.stringify({ metadata: { finalizers: ['plain', 'x/ok', 'dotted.name'] } }), 'application/merge-patch+json');
      assert.equal(added.status, 200);
      assert.deepEqual(added.warnings, ['metadata.finalizers: "dotted.name": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers'], 'only the finalizer the update adds');

      const generated = await raw(kc, 'POST', CONFIG_MAPS, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'Bad_' } }));
      assert.equal(generated.status, 422);
      const causes = causesOf(generated.body);
      assert.equal(causes.length, 2);
      assert.equal(causes[0], `metadata.generateName FieldValueInvalid: Invalid value: "Bad_": ${SUBDOMAIN_FORM}`);
      assert.match(String(causes[1]), /^metadata\.name FieldValueInvalid: Invalid value: "Bad_[a-z0-9]{5}": a lowercase RFC 1123 subdomain/);

      // A v1 Event's name is a path segment (a recorder's `<object>.` prefix is fine), and core's finalizer rule
      // does not apply to it; the generic metadata rules do.
      const event = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { generateName: 'web.', namespace: 'default', finalizers: ['plain'] },
        involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'web', namespace: 'default' },
        reason: 'Tested',
        message: 'm',
        type: 'Normal',
        source: { component: 'conformance' },
      };
      const recorded = await raw(kc, 'POST', '/api/v1/namespaces/default/events', JSON.stringify(event));
      assert.equal(recorded.status, 201, JSON.stringify(recorded.body));
      const labelled = await raw(kc, 'POST', '/api/v1/namespaces/default/events', JSON.stringify({ ...event, metadata: { ...event.metadata, labels: { a: 'has space' } } }));
      assert.deepEqual(causesOf(labelled.body), [`metadata.labels FieldValueInvalid: Invalid value: "has space": ${LABEL_VALUE_FORM}`]);
    });

    test('an update is checked as a create is; a status write keeps the stored metadata', async () => {
      const kc = backend().kubeConfig;
      const name = unique('meta');
      assert.equal((await raw(kc, 'POST', CONFIG_MAPS, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }))).status, 201);
      const labels = await raw(kc, 'PATCH', `${CONFIG_MAPS}/${name}`, '{"metadata":{"labels":{"a":"has space"}}}', 'application/merge-patch+json');
      assert.deepEqual(causesOf(labels.body), [`metadata.labels FieldValueInvalid: Invalid value: "has space": ${LABEL_VALUE_FORM}`]);
      const finalizers = await raw(kc, 'PATCH', `${CONFIG_MAPS}/${name}`, '{"metadata":{"finalizers":["plain","dotted.name"]}}', 'application/merge-patch+json');
      assert.deepEqual(causesOf(finalizers.body), [
        'metadata.finalizers[0] FieldValueInvalid: Invalid value: "plain": name is neither a standard finalizer name nor is it fully qualified',
        'metadata.finalizers[1] FieldValueInvalid: Invalid value: "dotted.name": name is neither a standard finalizer name nor is it fully qualified',
      ]);
      const owner = await raw(kc, 'PATCH', `${CONFIG_MAPS}/${name}`, '{"metadata":{"ownerReferences":[{"apiVersion":"v1","kind":"X","name":"x"}]}}', 'application/merge-patch+json');
      assert.deepEqual(causesOf(owner.body), ['metadata.ownerReferences[0].uid FieldValueRequired: Required value: must not be empty']);
    });
  });
}
