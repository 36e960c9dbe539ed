// Orkestra's `protocol: redis` external calls end to end against a real redis-server (Debian's, from .tools/redis;
// skipped with the reason when it cannot be fetched): the runtime reconciles through the real client-node against
// the test API server, reads a key with the built-in client (password from a Secret through auth.secretRef), and
// a child and status fields use the result. A changed key is read at the next reconcile, except by a call whose
// cacheFor still holds; Redis down is Ready=False naming the call, retried until Redis is back; stop() closes the
// pooled connections.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';
import { redisBinary, startRedisServer, type RedisServer } from '../support/redis-server.js';

type Obj = Record<string, unknown>;

const GROUP = 'cache.orkestra.io';
const PASSWORD = 'redis-pass-marker';
const binary = redisBinary();

function katalog(port: number): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: caches }
spec:
  crds:
    feature:
      apiTypes: { group: ${GROUP}, version: v1, kind: Feature, plural: features }
      operatorBox:
        external:
            - name: flag
              protocol: redis
              url: "redis://127.0.0.1:${port}/0"
              query: "GET flag:{{ .metadata.name }}"
              auth: { secretRef: { name: redis, key: password } }
              poolSize: 2
              timeout: 2s
            - name: pinned
              protocol: redis
              url: "redis://127.0.0.1:${port}"
              query: "GET flag:{{ .metadata.name }}"
              auth: { secretRef: { name: redis, key: password } }
              cacheFor: 1h
            - name: size
              protocol: redis
              url: "redis://127.0.0.1:${port}"
              query: "LLEN queue:{{ .metadata.name }}"
              auth: { secretRef: { name: redis, key: password } }
              continueOnError: true
        onReconcile:
          configMaps:
            - name: "{{ .metadata.name }}-flag"
              data:
                value: "{{ .external.flag.result }}"
        status:
          fields:
            - path: flag
              value: "{{ .external.flag.result }}"
            - path: pinned
              value: "{{ .external.pinned.result }}"
            - path: queueLength
              value: "{{ .external.size.result }}"
`;
}

describe('Orkestra redis calls, run', { skip: binary.reason }, () => {
  let redis: RedisServer;
  let server: TestApiServer;
  let runtime: Runtime;
  before(async () => {
    redis = await startRedisServer(binary.path ?? '', { password: PASSWORD });
    server = await startTestApiServer();
    const definition = parseDefinition(katalog(redis.port), { source: 'caches.yaml' });
    for (const crd of definition.crds.values()) {
      const { group, kind, plural, scope, version } = crd.apiTypes;
      server.create(crdManifest({ group, kind, plural, scope, versions: [{ name: version, served: true, storage: true, status: true }] }));
    }
    server.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'redis', namespace: 'default' }, data: { password: Buffer.from(PASSWORD).toString('base64') } });
    runtime = createRuntime(definition, { kubeConfig: server.kubeConfig, watch: FAST_WATCH, installCrds: true, rateLimiter: { baseDelay: 20, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime?.stop();
    await server?.stop();
    await redis?.stop();
  });

  const feature = (name: string, rev = 1): Obj => ({ apiVersion: `${GROUP}/v1`, kind: 'Feature', metadata: { name, namespace: 'default' }, spec: { rev } });
  const statusOf = (name: string): Obj | undefined => server.get(`${GROUP}/v1`, 'Feature', name, 'default')?.['status'] as Obj | undefined;
  const readyOf = (name: string): Obj | undefined => (statusOf(name)?.['conditions'] as Obj[] | undefined)?.find((condition) => condition['type'] === 'Ready');
  const touch = (name: string, rev: number): void => {
    const current = server.get(`${GROUP}/v1`, 'Feature', name, 'default') as Obj;
    server.update({ ...current, spec: { rev } });
  };

  test('the key read with the Secret\'s password feeds a child and status fields', async () => {
    await redis.command('SET', 'flag:checkout', 'on');
    await redis.command('RPUSH', 'queue:checkout', 'a', 'b');
    server.create(feature('checkout'));
    const child = await waitFor('the flag ConfigMap', () => server.get('v1', 'ConfigMap', 'checkout-flag', 'default') as Obj | undefined);
    assert.deepEqual(child['data'], { value: 'on' });
    const status = await waitFor('the status of checkout', () => (statusOf('checkout')?.['flag'] === undefined ? undefined : statusOf('checkout')));
    assert.equal(status['flag'], 'on');
    assert.equal(status['pinned'], 'on');
    assert.equal(String(status['queueLength']), '2');
    await waitFor('Ready=True on checkout', () => readyOf('checkout')?.['status'] === 'True');
  });

  test('a changed key is read at the next reconcile; the call with cacheFor keeps its result', async () => {
    await redis.command('SET', 'flag:checkout', 'off');
    touch('checkout', 2);
    await waitFor('the ConfigMap to follow the key', () => ((server.get('v1', 'ConfigMap', 'checkout-flag', 'default') as Obj | undefined)?.['data'] as Obj | undefined)?.['value'] === 'off');
    const status = await waitFor('status flag off', () => (statusOf('checkout')?.['flag'] === 'off' ? statusOf('checkout') : undefined));
    assert.equal(status['pinned'], 'on', 'cacheFor: 1h still holds the first answer');
  });

  test('a missing key fails the cycle as Orkestra does (redis: nil), naming the call', async () => {
    server.create(feature('unknown'));
    const ready = await waitFor('Ready=False on unknown', () => (readyOf('unknown')?.['status'] === 'False' ? readyOf('unknown') : undefined));
    assert.match(String(ready['message']), /external call "flag" failed: redis: nil/);
    await redis.command('SET', 'flag:unknown', 'beta');
    await waitFor('the retry succeeds once the key exists', () => server.get('v1', 'ConfigMap', 'unknown-flag', 'default'), 15_000);
  });

  test('Redis down: Ready=False with the call\'s reason (no URL, no password), retried until Redis is back', async () => {
    await redis.stop();
    server.create(feature('outage'));
    const ready = await waitFor('Ready=False on outage', () => (readyOf('outage')?.['status'] === 'False' ? readyOf('outage') : undefined));
    assert.match(String(ready['message']), /external call "flag" failed: redis: the connection failed \(ECONNREFUSED\)/);
    assert.doesNotMatch(JSON.stringify(statusOf('outage')), new RegExp(`${PASSWORD}|127\\.0\\.0\\.1|${redis.port}`));
    await redis.restart();
    await redis.command('SET', 'flag:outage', 'restored');
    await waitFor('the flag ConfigMap of outage', () => server.get('v1', 'ConfigMap', 'outage-flag', 'default'), 15_000);
    await waitFor('Ready=True on outage', () => readyOf('outage')?.['status'] === 'True');
  });

  test('stop() closes the pooled connections', async () => {
    const connected = async (): Promise<number> => (await redis.command('CLIENT', 'LIST')).split('\n').filter((line) => line.includes('cmd=') && !line.includes('cmd=client')).length;
    assert.ok((await connected()) > 0, 'the runtime keeps pooled connections while it runs');
    await runtime.stop();
    await waitFor('no connection of the runtime left', async () => (await connected()) === 0);
  });
});
