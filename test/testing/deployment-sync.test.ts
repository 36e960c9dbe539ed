// The Deployment controller's planning, pure: the scaling cases of kube-controller-manager's own table
// (pkg/controller/deployment/sync_test.go, TestScale) give the same ReplicaSet sizes here.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { planDeploymentSync, type SyncContext } from '../../src/testing/controllers/workloads/deployment-sync.js';
import { podTemplateHash } from '../../src/testing/controllers/workloads/pod-template-hash.js';

type Json = Record<string, unknown>;
const NOW = '2026-01-01T00:10:00Z';
const TIMES = { newer: '2026-01-01T00:03:00Z', old: '2026-01-01T00:02:00Z', older: '2026-01-01T00:01:00Z' } as const;

const template = (image: string): Json => ({ metadata: { labels: { app: 'foo' } }, spec: { containers: [{ name: 'c', image }] } });

function deploymentOf(replicas: number, maxSurge = 0, image = 'current'): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'foo', namespace: 'default', uid: 'd-uid', generation: 2 },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'foo' } },
      template: template(image),
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable: 0 } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status: { observedGeneration: 1 },
  };
}

/** A ReplicaSet sized for a Deployment of `before` replicas with `beforeSurge` (its replica annotations). */
function replicaSet(name: string, replicas: number, created: string, image: string, before: number, beforeSurge: number): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: 'default',
      uid: `${name}-uid`,
      creationTimestamp: created,
      generation: 1,
      annotations: { 'deployment.kubernetes.io/desired-replicas': String(before), 'deployment.kubernetes.io/max-replicas': String(before + beforeSurge) },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'foo', uid: 'd-uid', controller: true }],
    },
    spec: { replicas, template: template(image) },
    status: { replicas, observedGeneration: 1 },
  };
}

const context: SyncContext = { now: NOW, runningPods: () => 0, stuck: () => false, replicaSetNamed: () => undefined };

interface Case {
  name: string;
  before: [replicas: number, surge?: number];
  after: [replicas: number, surge?: number];
  /** [name, size, age]; `new` runs the Deployment's template. */
  sets: [string, number, keyof typeof TIMES][];
  expected: Record<string, number>;
}

const CASES: Case[] = [
  { name: 'normal scaling event: 10 -> 12', before: [10], after: [12], sets: [['foo-v1', 10, 'newer']], expected: { 'foo-v1': 12 } },
  { name: 'normal scaling event: 10 -> 5', before: [10], after: [5], sets: [['foo-v1', 10, 'newer']], expected: { 'foo-v1': 5 } },
  { name: 'proportional scaling: 5 -> 10', before: [5], after: [10], sets: [['foo-v2', 2, 'newer'], ['foo-v1', 3, 'old']], expected: { 'foo-v2': 4, 'foo-v1': 6 } },
  { name: 'proportional scaling: 5 -> 3', before: [5], after: [3], sets: [['foo-v2', 2, 'newer'], ['foo-v1', 3, 'old']], expected: { 'foo-v2': 1, 'foo-v1': 2 } },
  { name: 'proportional scaling: 9 -> 4', before: [9], after: [4], sets: [['foo-v2', 8, 'newer'], ['foo-v1', 1, 'old']], expected: { 'foo-v2': 4, 'foo-v1': 0 } },
  { name: 'proportional scaling: 7 -> 10', before: [7], after: [10], sets: [['foo-v3', 2, 'newer'], ['foo-v2', 3, 'old'], ['foo-v1', 2, 'older']], expected: { 'foo-v3': 3, 'foo-v2': 4, 'foo-v1': 3 } },
  { name: 'proportional scaling: 13 -> 8', before: [13], after: [8], sets: [['foo-v3', 2, 'newer'], ['foo-v2', 8, 'old'], ['foo-v1', 3, 'older']], expected: { 'foo-v3': 1, 'foo-v2': 5, 'foo-v1': 2 } },
  { name: 'leftover distribution: 3 -> 4', before: [3], after: [4], sets: [['foo-v3', 1, 'newer'], ['foo-v2', 1, 'old'], ['foo-v1', 1, 'older']], expected: { 'foo-v3': 2, 'foo-v2': 1, 'foo-v1': 1 } },
  { name: 'leftover distribution: 3 -> 2', before: [3], after: [2], sets: [['foo-v3', 1, 'newer'], ['foo-v2', 1, 'old'], ['foo-v1', 1, 'older']], expected: { 'foo-v3': 1, 'foo-v2': 1, 'foo-v1': 0 } },
  { name: 'proportional scaling (no new rs): 4 -> 5', before: [4], after: [5], sets: [['foo-v2', 2, 'old'], ['foo-v1', 2, 'older']], expected: { 'foo-v2': 3, 'foo-v1': 2 } },
  { name: 'proportional scaling: 6 -> 0', before: [6], after: [0], sets: [['foo-v3', 3, 'newer'], ['foo-v2', 2, 'old'], ['foo-v1', 1, 'older']], expected: { 'foo-v3': 0, 'foo-v2': 0, 'foo-v1': 0 } },
  { name: 'deployment with surge pods', before: [10, 2], after: [20, 2], sets: [['foo-v2', 6, 'newer'], ['foo-v1', 6, 'old']], expected: { 'foo-v2': 11, 'foo-v1': 11 } },
  { name: 'change both surge and size', before: [10, 3], after: [50, 6], sets: [['foo-v2', 5, 'newer'], ['foo-v1', 8, 'old']], expected: { 'foo-v2': 22, 'foo-v1': 34 } },
  { name: 'change both size and template', before: [10], after: [14], sets: [['foo-v2', 7, 'newer'], ['foo-v1', 3, 'old']], expected: { 'foo-v2': 10, 'foo-v1': 4 } },
];

describe('planDeploymentSync: scaling, as kube-controller-manager scales', () => {
  for (const c of CASES) {
    test(c.name, () => {
      const [replicas, surge = 0] = c.after;
      const [before, beforeSurge = 0] = c.before;
      // The Deployment's template is the newest ReplicaSet's, unless the case has no new one (or changes the template).
      const hasNew = c.sets[0]?.[2] === 'newer' && c.name !== 'change both size and template';
      const sets = c.sets.map(([name, size, age], index) => replicaSet(name, size, TIMES[age], hasNew && index === 0 ? 'current' : `image-of-${name}`, before, beforeSurge));
      const plan = planDeploymentSync(deploymentOf(replicas, surge), sets, context);
      const sizes = Object.fromEntries(plan.replicaSets.map((rs) => [String((rs.object['metadata'] as Json)['name']), (rs.object['spec'] as Json)['replicas']]));
      assert.deepEqual(sizes, c.expected);
      assert.ok(plan.replicaSets.every((rs) => !rs.isNew), 'a scaling makes no ReplicaSet');
    });
  }
});

describe('planDeploymentSync: the new ReplicaSet', () => {
  test('is made with the revision after the highest, sized within the surge, and a hash collision bumps collisionCount', () => {
    const old = replicaSet('foo-old', 3, TIMES.old, 'before', 3, 1);
    (old['metadata'] as { annotations: Json }).annotations['deployment.kubernetes.io/revision'] = '4';
    const deployment = deploymentOf(3, 1);
    const plan = planDeploymentSync(deployment, [old], context);
    const made = plan.replicaSets.find((rs) => rs.isNew);
    const hash = podTemplateHash(template('current'));
    assert.equal((made?.object['metadata'] as Json)['name'], `foo-${hash}`);
    assert.equal(((made?.object['metadata'] as Json)['annotations'] as Json)['deployment.kubernetes.io/revision'], '5');
    assert.equal((made?.object['spec'] as Json)['replicas'], 1, '3 + maxSurge 1 = 4 Pods at most, 3 are old');
    assert.equal(plan.annotations['deployment.kubernetes.io/revision'], '5');

    const taken = planDeploymentSync(deployment, [old], { ...context, replicaSetNamed: (name) => (name === `foo-${hash}` ? { metadata: { name } } : undefined) });
    assert.equal(taken.retry, true);
    assert.equal(taken.status['collisionCount'], 1);
    assert.ok(taken.replicaSets.every((rs) => !rs.isNew));
    assert.notEqual(podTemplateHash(template('current'), 1), hash, 'the next try hashes with the count');
  });
});
