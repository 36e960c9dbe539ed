// apimachinery's FromUnstructured on the generated Go types (resources/go-conversion.ts): its words for each
// mismatch, the struct's field order deciding which problem is named, and what it leaves to other checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unstructuredConversionError } from '../../src/testing/resources/go-conversion.js';

const DEPLOYMENT = 'apps.v1.Deployment';

test("scalars: Go's reflect conversions, an integral float taken, a named string type named", () => {
  assert.equal(unstructuredConversionError(DEPLOYMENT, { spec: { replicas: 3, minReadySeconds: 2.0 } }), undefined);
  assert.equal(unstructuredConversionError(DEPLOYMENT, { spec: { replicas: 2.5 } }), 'cannot convert float64 to int32');
  assert.equal(unstructuredConversionError(DEPLOYMENT, { spec: { replicas: '3' } }), 'unrecognized type: int32');
  assert.equal(unstructuredConversionError(DEPLOYMENT, { spec: { paused: 'yes' } }), 'unrecognized type: bool');
  assert.equal(unstructuredConversionError('core.v1.ConfigMap', { data: { a: 1 } }), 'cannot convert int64 to string');
  assert.equal(unstructuredConversionError('core.v1.ConfigMap', { data: { a: 1.5 } }), 'unrecognized type: string');
  assert.equal(
    unstructuredConversionError(DEPLOYMENT, { spec: { template: { spec: { containers: [{ name: 'c', imagePullPolicy: 7 }] } } } }),
    'cannot convert int64 to v1.PullPolicy',
  );
});

test('lists, maps and structs of the wrong shape; null is the zero value; the first field in Go order wins', () => {
  assert.equal(unstructuredConversionError(DEPLOYMENT, { spec: { template: { spec: { containers: 'c' } } } }), 'cannot restore slice from string');
  assert.equal(unstructuredConversionError(DEPLOYMENT, { metadata: { labels: ['a'] } }), 'cannot restore map from slice');
  assert.equal(unstructuredConversionError(DEPLOYMENT, { spec: { selector: 'app=x' } }), 'cannot restore struct from: string');
  assert.equal(unstructuredConversionError(DEPLOYMENT, { spec: { replicas: null, selector: null } }), undefined);
  // The body says progressDeadlineSeconds first; DeploymentSpec declares replicas first.
  assert.equal(unstructuredConversionError(DEPLOYMENT, { spec: { progressDeadlineSeconds: 'x', replicas: 1.5 } }), 'cannot convert float64 to int32');
});

test("a time and an int-or-string are decoded from their JSON: encoding/json's and time.Parse's words; a quantity is not checked here", () => {
  assert.equal(unstructuredConversionError(DEPLOYMENT, { spec: { strategy: { rollingUpdate: { maxSurge: true } } } }), 'json: cannot unmarshal bool into Go value of type int32');
  assert.equal(unstructuredConversionError(DEPLOYMENT, { spec: { strategy: { rollingUpdate: { maxSurge: 0.5 } } } }), 'json: cannot unmarshal number 0.5 into Go value of type int32');
  assert.equal(unstructuredConversionError(DEPLOYMENT, { spec: { strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } } } }), undefined);
  assert.equal(unstructuredConversionError('core.v1.Event', { lastTimestamp: 5 }), 'json: cannot unmarshal number into Go value of type string');
  assert.equal(unstructuredConversionError('core.v1.Event', { lastTimestamp: 'soon' }), 'parsing time "soon" as "2006-01-02T15:04:05Z07:00": cannot parse "soon" as "2006"');
  assert.equal(unstructuredConversionError(DEPLOYMENT, { spec: { template: { spec: { containers: [{ name: 'c', resources: { limits: { cpu: true } } }] } } } }), undefined);
});
