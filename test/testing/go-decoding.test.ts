// Go's decoding of a built-in kind's body (resources/go-decoding.ts): what fits every field, what is skipped, and
// how the error names a value inside a list, a map and a nested struct.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goDecodingError } from '../../src/testing/resources/go-decoding.js';

const DEPLOYMENT = 'apps.v1.Deployment';
const withContainer = (container: Record<string, unknown>): unknown => ({ spec: { template: { spec: { containers: [{ name: 'c', ...container }] } } } });

test('null fits every field, unknown fields and a quantity are not its business, and the first error in body order wins', () => {
  assert.equal(goDecodingError(DEPLOYMENT, { spec: { replicas: null, template: null }, bogus: { deep: 1 } }), undefined);
  assert.equal(goDecodingError(DEPLOYMENT, withContainer({ resources: { limits: { cpu: true } }, imagePullPolicyy: 1 })), undefined);
  assert.equal(
    goDecodingError(DEPLOYMENT, { metadata: { labels: { a: 1 } }, spec: { replicas: '3' } }),
    'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
  );
});

test('integers: a fraction and a value out of the type range name the number; an int-or-string is an int32 unless a string', () => {
  assert.equal(goDecodingError(DEPLOYMENT, { spec: { replicas: 2 ** 31 } }), `json: cannot unmarshal number ${2 ** 31} into Go struct field DeploymentSpec.spec.replicas of type int32`);
  assert.equal(goDecodingError(DEPLOYMENT, { spec: { progressDeadlineSeconds: -1 } }), undefined);
  assert.equal(goDecodingError(DEPLOYMENT, { spec: { strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } } } }), undefined);
  assert.equal(
    goDecodingError(DEPLOYMENT, { spec: { strategy: { rollingUpdate: { maxUnavailable: 0.5 } } } }),
    'json: cannot unmarshal number 0.5 into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxUnavailable of type int32',
  );
});

test('lists, maps and structs of the wrong shape name their Go types; a list item adds no index to the path', () => {
  assert.equal(
    goDecodingError(DEPLOYMENT, withContainer({ env: [{ name: 'A', valueFrom: 'x' }] })),
    'json: cannot unmarshal string into Go struct field EnvVar.spec.template.spec.containers.env.valueFrom of type v1.EnvVarSource',
  );
  assert.equal(
    goDecodingError(DEPLOYMENT, { spec: { template: { spec: { nodeSelector: ['a'] } } } }),
    'json: cannot unmarshal array into Go struct field PodSpec.spec.template.spec.nodeSelector of type map[string]string',
  );
  assert.equal(
    goDecodingError('core.v1.Secret', { data: { a: 1 } }),
    'json: cannot unmarshal number into Go struct field Secret.data of type []uint8',
  );
  assert.equal(
    goDecodingError(DEPLOYMENT, { metadata: { creationTimestamp: 5 } }),
    'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string',
  );
});

test("a type's own decoder (a time, an int-or-string) ends decoding: its error wins over a wrong type before it", () => {
  assert.equal(
    goDecodingError('core.v1.Event', { count: 'x', firstTimestamp: 'soon' }),
    'parsing time "soon" as "2006-01-02T15:04:05Z07:00": cannot parse "soon" as "2006"',
  );
  assert.equal(
    goDecodingError(DEPLOYMENT, { spec: { replicas: '3', strategy: { rollingUpdate: { maxUnavailable: true } } } }),
    'json: cannot unmarshal bool into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxUnavailable of type int32',
  );
  // A time that is not a string is the type error of the string Go reads first, and ends decoding too.
  assert.equal(goDecodingError('core.v1.Event', { count: 'x', lastTimestamp: 5 }), 'json: cannot unmarshal number into Go struct field Event.lastTimestamp of type string');
  assert.equal(goDecodingError('events.v1.Event', { eventTime: '2024-01-01T00:00:00.000001Z', deprecatedFirstTimestamp: '2024-01-01T00:00:00.5+01:00' }), undefined);
});

test("a patch's result is decoded where the patch reached: what it shares with the stored object is not walked", () => {
  const stored = { spec: { replicas: 1, template: { spec: { containers: [{ name: 'c' }] } } } };
  const patched = { spec: { ...stored.spec, replicas: '3' } };
  assert.equal(goDecodingError(DEPLOYMENT, patched, stored), 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
  // A shared member is taken as stored (here one that would not decode, which proves it was not walked).
  const odd = { spec: { template: 'x' } };
  assert.equal(goDecodingError(DEPLOYMENT, { ...odd, metadata: { name: 'n' } }, odd), undefined);
});
