import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConverterRegistry, convertStage } from '../../src/operatorbox/converters.js';

const context = { crd: 'website', version: 'v1', apiVersion: 'example.io/v1' };

test('without a converter objects pass through unchanged', () => {
  const object = { apiVersion: 'example.io/v1', spec: { a: 1 } };
  assert.equal(convertStage(undefined, context)(object), object);
});

test('a registered converter reshapes objects and the internal apiVersion is kept', () => {
  const registry = new ConverterRegistry();
  registry.register('website', (object) => {
    const spec = object['spec'] as Record<string, unknown>;
    if ('replicaCount' in spec) {
      spec['replicas'] = spec['replicaCount'];
      delete spec['replicaCount'];
    }
  });
  const convert = convertStage(registry.get('website'), context);
  assert.deepEqual(convert({ apiVersion: 'example.io/v1alpha1', spec: { replicaCount: 2 } }), { apiVersion: 'example.io/v1', spec: { replicas: 2 } });
  assert.deepEqual(convert({ apiVersion: 'example.io/v1', spec: { replicas: 3 } }), { apiVersion: 'example.io/v1', spec: { replicas: 3 } }, 'idempotent');
  assert.equal(registry.get('other'), undefined);
});

test('a converter that returns something else than an object is an error', () => {
  const convert = convertStage(() => 'nope' as never, context);
  assert.throws(() => convert({}), /converter of website returned string/);
  assert.throws(() => new ConverterRegistry().register('website', 'x' as never), /expected a function/);
});
