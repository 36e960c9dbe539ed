// The TLS plan: a key and certificates are generated only when the Secret needs them (missing, not made for the
// names and lifetime the entry renders, past its renewal time, or its rotation due); otherwise the Secret's data is
// reused and nothing is generated. Lifetime as Orkestra's runner (pkg/runtime/runners/secrets.go): validFor, else
// rotateAfter, else one year; common name default <name>.<namespace>.svc.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/kube/resource.js';
import { TLS_RENEW_AT, TLS_SPEC, planTls, type TlsInputs } from '../../src/operatorbox/tls.js';
import { MAX_ROTATION_WAIT_MS } from '../../src/operatorbox/rotation.js';

const DAY = 86_400_000;
const signal = new AbortController().signal;
const now = Date.parse('2026-01-10T00:00:00Z');
const manifest = (): KubeObject => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'web-tls', namespace: 'shop' } });

function inputs(over: Partial<TlsInputs>, requests: Array<{ commonName: string; dnsNames: readonly string[]; validForMs: number }>): TlsInputs {
  return {
    rendered: { dnsNames: ['web', ''] },
    force: false,
    source: 'entry',
    read: async () => undefined,
    now,
    generate: async (request) => {
      requests.push(request);
      return { certificate: 'CERT', privateKey: 'KEY', caCertificate: 'CA' };
    },
    ...over,
  };
}

describe('planTls', () => {
  test('a missing Secret: generated with the defaults, renewal two thirds into a year', async () => {
    const requests: Array<{ commonName: string; dnsNames: readonly string[]; validForMs: number }> = [];
    const m = manifest();
    const plan = await planTls(m, inputs({}, requests), signal);
    assert.deepEqual(requests.map((r) => [r.commonName, r.dnsNames, r.validForMs]), [['web-tls.shop.svc', ['web'], 365 * DAY]]);
    assert.deepEqual(plan, { regenerate: false, requeueAfterMs: MAX_ROTATION_WAIT_MS });
    assert.equal(m['type'], 'kubernetes.io/tls');
    assert.deepEqual(m['data'], { 'tls.crt': 'Q0VSVA==', 'tls.key': 'S0VZ', 'ca.crt': 'Q0E=' });
    assert.equal(m.metadata?.annotations?.[TLS_RENEW_AT], new Date(now + (365 * DAY * 2) / 3).toISOString());
  });

  test('lifetime: validFor, else rotateAfter', async () => {
    const requests: Array<{ commonName: string; dnsNames: readonly string[]; validForMs: number }> = [];
    await planTls(manifest(), inputs({ rendered: { validFor: '30d' }, rotateAfter: '90d' }, requests), signal);
    await planTls(manifest(), inputs({ rendered: {}, rotateAfter: '90d' }, requests), signal);
    assert.deepEqual(requests.map((r) => r.validForMs), [30 * DAY, 90 * DAY]);
  });

  test('an existing Secret made for the same names, before its renewal: reused, nothing generated', async () => {
    const first: Array<{ commonName: string; dnsNames: readonly string[]; validForMs: number }> = [];
    const made = manifest();
    await planTls(made, inputs({}, first), signal);
    const stored = { ...made, metadata: { ...made.metadata } };
    const requests: typeof first = [];
    const m = manifest();
    const plan = await planTls(m, inputs({ read: async () => stored, now: now + DAY }, requests), signal);
    assert.equal(requests.length, 0);
    assert.equal(plan.regenerate, false);
    assert.deepEqual(m['data'], made['data']);
    assert.equal(m.metadata?.annotations?.[TLS_SPEC], made.metadata?.annotations?.[TLS_SPEC]);
  });

  test('regenerated (overwriting) when the names change, the renewal time passed, the rotation is due, or the Secret is not katalog\'s', async () => {
    const made = manifest();
    await planTls(made, inputs({}, []), signal);
    const stored = made;
    const cases: Array<[string, Partial<TlsInputs>, KubeObject]> = [
      ['names', { rendered: { dnsNames: ['web', 'web.shop'] } }, stored],
      ['renewal', { now: now + 250 * DAY }, stored],
      ['rotation', { force: true }, stored],
      ['foreign', {}, { ...stored, metadata: { name: 'web-tls', namespace: 'shop', annotations: {} } }],
      ['opaque', {}, { ...stored, type: 'Opaque' } as KubeObject],
    ];
    for (const [name, over, existing] of cases) {
      const requests: Array<{ commonName: string; dnsNames: readonly string[]; validForMs: number }> = [];
      const plan = await planTls(manifest(), inputs({ read: async () => existing, ...over }, requests), signal);
      assert.equal(requests.length, 1, name);
      assert.equal(plan.regenerate, true, name);
    }
  });

  test('a validFor that renders no duration is an error naming the entry only', async () => {
    await assert.rejects(planTls(manifest(), inputs({ rendered: { validFor: 'secret-value' } }, []), signal), (error: Error) => {
      assert.match(error.message, /^entry: tls\.validFor must render a duration/);
      assert.doesNotMatch(error.message, /secret-value/);
      return true;
    });
  });
});
