// The admission and conversion routers read the `clock` option (the type of createRuntime's), not the system time:
// a validation rule, a mutation rule and a conversion path whose templates compare a deadline with the clock decide
// differently when only a FakeClock moves (docs/admission.md, docs/orkestra-compatibility.md "Which clock"). The
// deadline lies in 2030, after the system time, so on the system clock every "expired" below reads false.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import { createAdmissionRouter, createConversionRouter } from '../../src/index.js';
import { FakeClock } from '../support/fake-clock.js';

const START = Date.UTC(2030, 5, 1, 12);
const HOUR = 3_600_000;
const DEADLINE = new Date(START + HOUR).toISOString();

const definition = parseDefinition(`
apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: leases }
spec:
  crds:
    lease:
      apiTypes: { group: lease.example.io, version: v1, kind: Lease, plural: leases }
      validation:
        rules:
          - field: '{{ isExpired .spec.until "0s" }}'
            equals: "false"
            message: the lease ran out
      mutation:
        rules:
          - field: spec.state
            override: '{{ if isExpired .spec.until "0s" }}expired{{ else }}live{{ end }}'
      conversion:
        storageVersion: v1
        paths:
          - from: v1alpha1
            to: v1
            spec:
              until: "{{ .spec.until }}"
              state: '{{ if isExpired .spec.until "0s" }}expired{{ else }}live{{ end }}'
`);

const lease = { metadata: { name: 'l' }, spec: { until: DEADLINE } };

function admissionReview(): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: { uid: 'u-1', kind: { group: 'lease.example.io', version: 'v1', kind: 'Lease' }, resource: { group: 'lease.example.io', version: 'v1', resource: 'leases' }, name: 'l', namespace: 'default', operation: 'CREATE', object: lease, oldObject: null },
  });
}

async function answer(router: { request: (path: string, init: RequestInit) => Response | Promise<Response> }, path: string, body: string): Promise<Record<string, unknown>> {
  const response = await router.request(path, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  assert.equal(response.status, 200);
  return ((await response.json()) as { response: Record<string, unknown> }).response;
}

const patchOf = (response: Record<string, unknown>): unknown => JSON.parse(Buffer.from(String(response['patch']), 'base64').toString('utf8'));

test('the admission router: validation and mutation rules read its clock', async () => {
  const clock = new FakeClock(START);
  const router = createAdmissionRouter(definition, { clock });
  assert.equal((await answer(router, '/validate', admissionReview()))['allowed'], true, 'an hour before the deadline');
  assert.deepEqual(patchOf(await answer(router, '/mutate', admissionReview())), [{ op: 'add', path: '/spec/state', value: 'live' }]);

  await clock.advance(2 * HOUR);
  const refused = await answer(router, '/validate', admissionReview());
  assert.equal(refused['allowed'], false, 'an hour after the deadline, on the moved clock');
  assert.match(JSON.stringify(refused['status']), /the lease ran out/);
  assert.deepEqual(patchOf(await answer(router, '/mutate', admissionReview())), [{ op: 'add', path: '/spec/state', value: 'expired' }]);
});

test('the conversion router: a path\'s spec template reads its clock', async () => {
  const clock = new FakeClock(START);
  const router = createConversionRouter(definition, { clock });
  const review = JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'ConversionReview',
    request: { uid: 'c-1', desiredAPIVersion: 'lease.example.io/v1', objects: [{ apiVersion: 'lease.example.io/v1alpha1', kind: 'Lease', ...lease }] },
  });
  const stateOf = async (): Promise<unknown> => ((await answer(router, '/convert', review))['convertedObjects'] as Array<{ spec: Record<string, unknown> }>)[0]?.spec['state'];
  assert.equal(await stateOf(), 'live');
  await clock.advance(2 * HOUR);
  assert.equal(await stateOf(), 'expired', 'on the moved clock');
});

test('without a clock both routers read the system time (the 2030 deadline is ahead)', async () => {
  const admission = createAdmissionRouter(definition);
  assert.equal((await answer(admission, '/validate', admissionReview()))['allowed'], true);
  assert.deepEqual(patchOf(await answer(admission, '/mutate', admissionReview())), [{ op: 'add', path: '/spec/state', value: 'live' }]);
});
