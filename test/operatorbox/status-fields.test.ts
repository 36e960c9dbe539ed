import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { StatusField } from '../../src/definition/types.js';
import { compileStatusFields } from '../../src/operatorbox/status-fields.js';
import { desiredStatus, statusUnchanged } from '../../src/reconcile/status.js';

const field = (path: string, value: string, when: StatusField['when'] = [], anyOf: StatusField['anyOf'] = []): StatusField => ({ path, value, when, anyOf });
const noWarn = (): void => undefined;

describe('status.fields', () => {
  const object = { metadata: { name: 'blog', generation: 2 }, spec: { replicas: 3, tier: 'gold' }, status: {} };

  test('evaluated in order, later wins, values keep their type, nested paths', () => {
    const fields = compileStatusFields('website', [
      field('phase', 'Pending'),
      field('phase', 'Running', [{ field: 'spec.replicas', operator: 'gt', value: 0, valueType: 'int' }]),
      field('replicas', '{{ .spec.replicas }}'),
      field('endpoint.url', 'http://{{ .metadata.name }}'),
      field('missing', '{{ .spec.nothing }}'),
    ]);
    assert.deepEqual(fields.evaluate(object, { ok: true }, noWarn), { phase: 'Running', replicas: 3, endpoint: { url: 'http://blog' } });
  });

  test('on failure only fields with conditions are evaluated; .reconcile tells how it went', () => {
    const fields = compileStatusFields('website', [
      field('phase', 'Ready'),
      field('phase', 'Failed', [{ field: 'reconcile.ok', operator: 'eq', value: false, valueType: 'bool' }]),
      field('lastError', '{{ .reconcile.error }}', [], [{ field: 'reconcile.ok', operator: 'eq', value: 'false' }]),
    ]);
    assert.deepEqual(fields.evaluate(object, { ok: false, message: 'boom' }, noWarn), { phase: 'Failed', lastError: 'boom' });
    assert.deepEqual(fields.evaluate(object, { ok: true }, noWarn), { phase: 'Ready' });
  });

  // Orkestra's clearOnFalse (orkspace/orkestra docs/reference/status.md; examples' crashReason field): when the
  // condition stops holding, the field is written empty instead of keeping its last value.
  test('clearOnFalse writes "" when the conditions fail, unless another field writes the path', () => {
    const crashing = [{ field: 'spec.tier', operator: 'eq' as const, value: 'bronze' }];
    const fields = compileStatusFields('website', [
      { ...field('crashReason', 'OOM', crashing), clearOnFalse: true },
      { ...field('note', 'kept', crashing) },
      { ...field('phase', 'Degraded', crashing), clearOnFalse: true },
      field('phase', 'Ready'),
    ]);
    assert.deepEqual(fields.evaluate(object, { ok: true }, noWarn), { crashReason: '', phase: 'Ready' });
    const bronze = { ...object, spec: { ...object.spec, tier: 'bronze' } };
    assert.deepEqual(fields.evaluate(bronze, { ok: true }, noWarn), { crashReason: 'OOM', note: 'kept', phase: 'Ready' });
  });

  test('a value that fails to render is skipped with a warning', () => {
    const warnings: string[] = [];
    const fields = compileStatusFields('website', [field('a', '{{ div 1 0 }}'), field('b', 'ok')]);
    assert.deepEqual(fields.evaluate(object, { ok: true }, (message) => warnings.push(message)), { b: 'ok' });
    assert.equal(warnings.length, 1);
  });

  test('reserved and invalid paths are refused at compile time, all at once', () => {
    assert.throws(
      () => compileStatusFields('website', [field('conditions', 'x'), field('observedGeneration', '1'), field('a..b', 'x'), field('__proto__.x', 'y'), field('ok', '{{ .a ')]),
      (error: Error) => {
        assert.match(error.message, /fields\[0\]\.path: "conditions" is written by the runtime/);
        assert.match(error.message, /fields\[1\]\.path/);
        assert.match(error.message, /fields\[2\]\.path: "a\.\.b" is not a dot path/);
        assert.match(error.message, /fields\[3\]\.path/);
        assert.match(error.message, /fields\[4\]\.value/);
        return true;
      },
    );
  });
});

describe('desiredStatus with fields', () => {
  const now = '2025-01-01T00:00:00.000Z';
  test('fields are merged, the runtime keys win', () => {
    const status = desiredStatus({ metadata: { generation: 4 } }, { ok: true }, now, { phase: 'Running', observedGeneration: 99 });
    assert.equal(status['phase'], 'Running');
    assert.equal(status['observedGeneration'], 4);
    assert.equal((status['conditions'] as Array<{ type: string }>)[0]?.type, 'Ready');
  });

  test('conditions: false leaves Ready out', () => {
    assert.deepEqual(desiredStatus({ metadata: { generation: 4 } }, { ok: true }, now, { phase: 'x' }, { conditions: false }), { phase: 'x', observedGeneration: 4 });
    assert.deepEqual(desiredStatus({ metadata: { generation: 4 } }, { ok: false, message: 'm' }, now, {}, { conditions: false }), {});
  });

  test('statusUnchanged follows merge-patch rules for fields', () => {
    assert.equal(statusUnchanged({ endpoint: { url: 'u', port: 1 } }, { endpoint: { url: 'u' } }), true);
    assert.equal(statusUnchanged({ endpoint: { url: 'v' } }, { endpoint: { url: 'u' } }), false);
    assert.equal(statusUnchanged({}, { gone: null }), true);
    assert.equal(statusUnchanged({ gone: 1 }, { gone: null }), false);
    assert.equal(statusUnchanged({ list: [1, 2] }, { list: [1] }), false);
    assert.equal(statusUnchanged({ conditions: [{ a: 1, b: 2 }] }, { conditions: [{ a: 1 }] }), false, 'conditions compare exactly');
  });
});
