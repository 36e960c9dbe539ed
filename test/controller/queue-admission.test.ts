// queue.behaviour's conditional drops, decided at enqueue over the cached custom resource: below the rule's depth
// every key is admitted; from it on, a key is dropped only when the conditions hold over its object; a key whose
// object is not cached (a deletion) is admitted; rules start at their share of the current bound; and a condition
// that cannot be evaluated admits the key with a warning that names the rule.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { QueueAdmission } from '../../src/controller/queue-admission.js';
import type { QueueBehaviour } from '../../src/definition/queue-types.js';
import type { KubeObject } from '../../src/kube/resource.js';
import { silentLogger, type Logger } from '../../src/observe/logger.js';

const objects = new Map<string, KubeObject>([
  ['default/batch', { apiVersion: 'x.io/v1', kind: 'Job', metadata: { name: 'batch', namespace: 'default' }, spec: { tier: 'batch', size: 3 } }],
  ['default/web', { apiVersion: 'x.io/v1', kind: 'Job', metadata: { name: 'web', namespace: 'default' }, spec: { tier: 'web', size: 30 } }],
]);

function admissionOf(behaviour: QueueBehaviour, warnings: string[] = []): QueueAdmission {
  const logger: Logger = { ...silentLogger, warn: (message, fields) => warnings.push(JSON.stringify({ message, ...fields })) };
  return new QueueAdmission(behaviour, { objectOf: (key) => objects.get(key), logger });
}

const onLimitBatch: QueueBehaviour = {
  unbounded: true,
  drops: [{ rule: 'onLimit', percent: 100, when: [{ field: 'spec.tier', operator: 'eq', value: 'batch' }], anyOf: [], path: 'spec.crds.a.queue.behaviour.onLimit' }],
};

describe('QueueAdmission', () => {
  test('onLimit when: below the bound every key is admitted; at it, only the keys whose objects match are dropped', () => {
    const admission = admissionOf(onLimitBatch);
    assert.equal(admission.unbounded, true);
    assert.equal(admission.drops('default/batch', 9, 10), false, 'below the bound');
    assert.equal(admission.drops('default/batch', 10, 10), true);
    assert.equal(admission.drops('default/web', 10, 10), false, 'admitted past the bound');
    assert.equal(admission.drops('default/web', 25, 10), false);
    assert.equal(admission.drops('default/gone', 10, 10), false, 'no cached object: admitted');
  });

  test('onThreshold starts at its share of the current bound (an autoscaler may raise it); rules are checked lowest first', () => {
    const admission = admissionOf({
      unbounded: false,
      drops: [
        { rule: 'onLimit', percent: 100, when: [], anyOf: [{ field: 'spec.size', operator: 'gt', value: 10, valueType: 'int' }], path: 'l' },
        { rule: 'onThreshold', percent: 50, when: [{ field: 'spec.tier', operator: 'eq', value: 'batch' }], anyOf: [], path: 't' },
      ],
    });
    assert.equal(admission.firstDepth(10), 5);
    assert.equal(admission.drops('default/batch', 4, 10), false);
    assert.equal(admission.drops('default/batch', 5, 10), true, 'threshold rule');
    assert.equal(admission.drops('default/web', 5, 10), false, 'web is not batch');
    assert.equal(admission.drops('default/web', 10, 10), true, 'limit rule: size 30 > 10');
    assert.equal(admission.drops('default/batch', 5, 100), false, 'a raised bound moves the threshold');
  });

  test('a condition whose data does not fit is false: the key is admitted, with a warning naming the rule', () => {
    const warnings: string[] = [];
    const admission = admissionOf(
      { unbounded: true, drops: [{ rule: 'onLimit', percent: 100, when: [{ field: 'spec.tier', operator: 'gt', value: 3, valueType: 'int' }], anyOf: [], path: 'spec.crds.a.queue.behaviour.onLimit' }] },
      warnings,
    );
    assert.equal(admission.drops('default/batch', 1, 1), false);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /spec\.crds\.a\.queue\.behaviour\.onLimit/);
  });
});
