// An operator author's own test suite: node:test against katalog/testing, no cluster needed.
//   node --import tsx --test examples/testing-your-operator/operator.test.ts
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { crdManifest, startTestApiServer, type TestApiServer } from 'katalog/testing';
import { createCounterOperator } from './operator.js';

let cluster: TestApiServer;
before(async () => {
  cluster = await startTestApiServer();
  cluster.applyCrd(crdManifest({ group: 'example.io', kind: 'Counter', plural: 'counters' }));
  await cluster.settled();
});
after(async () => {
  await cluster.stop();
});

async function eventually<T>(check: () => T | undefined, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('a Counter gets its ConfigMap and a doubled status', async () => {
  const operator = createCounterOperator(cluster.kubeConfig);
  await operator.start();
  try {
    cluster.create({ apiVersion: 'example.io/v1', kind: 'Counter', metadata: { name: 'c1', namespace: 'default' }, spec: { count: 21 } });
    const configMap = await eventually(() => cluster.get('v1', 'ConfigMap', 'c1-count', 'default') as { data: { count: string } } | undefined);
    assert.equal(configMap.data.count, '21');
    const counter = await eventually(() => {
      const object = cluster.get('example.io/v1', 'Counter', 'c1', 'default') as { status?: { doubled?: number } } | undefined;
      return object?.status?.doubled === undefined ? undefined : object;
    });
    assert.equal(counter.status?.doubled, 42);
  } finally {
    await operator.stop();
  }
});

test('a negative count fails the reconcile and sets Ready to False with the reason', async () => {
  const operator = createCounterOperator(cluster.kubeConfig);
  await operator.start();
  try {
    cluster.create({ apiVersion: 'example.io/v1', kind: 'Counter', metadata: { name: 'bad', namespace: 'default' }, spec: { count: -1 } });
    const ready = await eventually(() => {
      const object = cluster.get('example.io/v1', 'Counter', 'bad', 'default') as { status?: { conditions?: Array<{ type: string; status: string; message: string }> } } | undefined;
      return object?.status?.conditions?.find((condition) => condition.type === 'Ready' && condition.status === 'False');
    });
    assert.match(ready.message, /count must not be negative, got -1/);
  } finally {
    await operator.stop();
  }
});
