// Orkestra features with runtime behaviour, as pure pieces: namespace guards on queue keys, status field types,
// `.children` keyed as Orkestra keys it, and critical CRDs in /ready.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bothFilters, namespaceGuardFilter } from '../../src/runtime/namespace-guard.js';
import { convert } from '../../src/operatorbox/status-fields.js';
import { orkestraChildren } from '../../src/operatorbox/template-data.js';
import { readiness } from '../../src/observe/runtime-health.js';

describe('namespace guards (allowedNamespaces / restrictedNamespaces)', () => {
  test('allowed wins and takes wildcards; restricted excludes; cluster-scoped keys pass', () => {
    const allowed = namespaceGuardFilter({ allowed: ['demo-*'], restricted: ['demo-01'] });
    assert.equal(allowed?.('demo-01/a'), true);
    assert.equal(allowed?.('prod/a'), false);
    assert.equal(allowed?.('cluster-wide'), true);
    const restricted = namespaceGuardFilter({ allowed: [], restricted: ['kube-*', '*-system', 'cert-manager'] });
    assert.deepEqual(['kube-public/a', 'istio-system/a', 'cert-manager/a', 'default/a'].map((key) => restricted?.(key)), [false, false, false, true]);
    assert.equal(namespaceGuardFilter(undefined), undefined);
    assert.equal(bothFilters(() => false, allowed)?.('demo-01/a'), false);
  });
});

describe('status field types', () => {
  test('Orkestra writes strings unless a type says otherwise', () => {
    assert.equal(convert(3, 'string'), '3');
    assert.equal(convert(true, 'string'), 'true');
    assert.equal(convert('3', 'int'), 3);
    assert.equal(convert('3.5', 'int'), undefined);
    assert.equal(convert('3.5', 'float'), 3.5);
    assert.equal(convert('true', 'bool'), true);
    assert.equal(convert('yes', 'bool'), undefined);
  });
});

describe('.children as Orkestra keys it', () => {
  test('the singular key (and its lowercase form) holds the first child by name; plural maps stay', () => {
    const a = { metadata: { name: 'a' } };
    const b = { metadata: { name: 'b' } };
    const view = orkestraChildren({ deployments: { b, a }, configMaps: { b } });
    assert.equal(view['deployment'], a);
    assert.equal(view['configMap'], b);
    assert.equal(view['configmap'], b);
    assert.deepEqual(view['deployments'], { b, a });
  });
});

describe('critical CRDs', () => {
  test('a degraded critical CRD makes the runtime not ready; a degraded ordinary one does not', () => {
    const crds = [{ name: 'a', state: 'degraded' as const, synced: true, critical: true }];
    assert.equal(readiness({ started: true, crds }).httpStatus, 503);
    assert.equal(readiness({ started: true, crds: [{ name: 'a', state: 'degraded', synced: true, critical: false }] }).httpStatus, 200);
  });
});
