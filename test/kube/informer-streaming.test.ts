// The informer's streaming lists (`streamingLists`, a watch with sendInitialEvents) over real HTTP: the cache filled
// from one watch and no list, the state streamed again after 410 Gone, a server without the WatchList feature listed
// instead (and not asked again), a stream that fails at start followed by a list, and a stream cut before its end
// bookmark that leaves the cache as it was.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { KubeClient } from '../../src/kube/client.js';
import { Informer, type InformerOptions } from '../../src/kube/informer.js';
import type { KubeObject, ResourceRef } from '../../src/kube/resource.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { waitFor } from '../support/cluster.js';
import { localServer } from '../support/local-server.js';

const CONFIG_MAPS: ResourceRef = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };

function configMap(name: string, label: string, data: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels: { streaming: label } }, data } as KubeObject;
}

/** An informer of the ConfigMaps labelled `streaming=<label>`, streaming its lists, with what it told. */
function watched(client: KubeClient, label: string, extra: Partial<InformerOptions> = {}) {
  const events: string[] = [];
  const restarts: string[] = [];
  const errors: Error[] = [];
  const informer = new Informer({
    client,
    resource: CONFIG_MAPS,
    namespace: 'default',
    labelSelector: `streaming=${label}`,
    streamingLists: true,
    backoff: { initialMs: 50, maxMs: 200 },
    onEvent: (event) => void events.push(`${event.type} ${String(event.object.metadata?.name)}`),
    onRestart: (reason) => void restarts.push(reason),
    onError: (error) => void errors.push(error),
    ...extra,
  });
  return { informer, events, restarts, errors };
}

/** The watches of ConfigMaps that asked for a streaming list. */
function streamingWatches(server: TestApiServer): number {
  return server.requests.log().filter((r) => r.verb === 'watch' && r.resource === 'configmaps' && r.path.includes('sendInitialEvents=true')).length;
}

/**
 * Makes the informer's next watch meet 410 Gone, with changes made while it is away: its watch ends, its re-watches
 * are refused until the changes are made and the history compacted.
 */
async function awayAndExpired(server: TestApiServer, changes: () => void): Promise<void> {
  const removeFailure = server.faults.failRequests({ verb: 'watch', resource: 'configmaps', status: 500 });
  const refused = server.requests.count({ verb: 'watch', resource: 'configmaps' }) + 1;
  server.faults.closeWatches();
  await waitFor('a refused re-watch', () => server.requests.count({ verb: 'watch', resource: 'configmaps' }) >= refused);
  changes();
  server.faults.expireResourceVersions();
  removeFailure();
}

describe('Informer with streaming lists', () => {
  let server: TestApiServer;
  let client: KubeClient;
  before(async () => {
    server = await startTestApiServer();
    client = new KubeClient(server.kubeConfig);
  });
  after(async () => {
    client.close();
    await server.stop();
  });

  test('fills its cache from one watch and no list, then hears changes on that same stream', async () => {
    server.create(configMap('one-a', 'one'));
    server.create(configMap('one-b', 'one'));
    server.create(configMap('one-other', 'not-selected'));
    server.requests.reset();
    const { informer, events, restarts, errors } = watched(client, 'one');
    await informer.start();
    try {
      assert.deepEqual([...events].sort(), ['added one-a', 'added one-b']);
      assert.equal(informer.size, 2);
      assert.ok(informer.synced);
      assert.equal(server.requests.count({ verb: 'list', resource: 'configmaps' }), 0, 'no list');
      const watches = server.requests.log().filter((r) => r.verb === 'watch');
      assert.equal(watches.length, 1);
      assert.match(watches[0]?.path ?? '', /sendInitialEvents=true/);
      assert.match(watches[0]?.path ?? '', /resourceVersionMatch=NotOlderThan/);
      assert.match(watches[0]?.path ?? '', /allowWatchBookmarks=true/);
      assert.match(informer.lastResourceVersion, /^\d+$/);

      await client.create(CONFIG_MAPS, configMap('one-c', 'one'));
      await waitFor('the change on the stream', () => events.includes('added one-c'));
      assert.equal(server.requests.count({ verb: 'watch', resource: 'configmaps' }), 1, 'the same stream goes on as the watch');
      assert.deepEqual(restarts, []);
      assert.deepEqual(errors, []);
    } finally {
      await informer.stop();
    }
  });

  test('after 410 Gone it streams the state again and emits only what changed meanwhile', async () => {
    server.create(configMap('two-a', 'two'));
    server.create(configMap('two-b', 'two'));
    const { informer, events, restarts } = watched(client, 'two');
    await informer.start();
    try {
      events.length = 0;
      server.requests.reset();
      await awayAndExpired(server, () => {
        server.delete('v1', 'ConfigMap', 'two-a', 'default');
        server.patch('v1', 'ConfigMap', 'two-b', { data: { x: '1' } }, { namespace: 'default' });
        server.create(configMap('two-c', 'two'));
      });
      await waitFor('the new state', () => events.length === 3 && informer.size === 2);
      assert.deepEqual([...events].sort(), ['added two-c', 'deleted two-a', 'updated two-b']);
      assert.deepEqual(informer.get('default/two-b')?.['data'], { x: '1' });
      assert.ok(restarts.some((r) => r.includes('410')), JSON.stringify(restarts));
      assert.equal(server.requests.count({ verb: 'list', resource: 'configmaps' }), 0, 'streamed, not listed');
      assert.equal(streamingWatches(server), 1);
    } finally {
      await informer.stop();
    }
  });

  test('a streaming list that fails at start is followed by a paged list, and its error is reported', async () => {
    server.create(configMap('three-a', 'three'));
    server.requests.reset();
    server.faults.failRequests({ verb: 'watch', resource: 'configmaps', status: 500, times: 1 });
    const { informer, events, restarts, errors } = watched(client, 'three');
    await informer.start();
    try {
      assert.deepEqual(events, ['added three-a']);
      assert.equal(server.requests.count({ verb: 'list', resource: 'configmaps' }), 1);
      assert.equal(errors.length, 1);
      assert.match(errors[0]?.message ?? '', /500/);
      assert.match(restarts[0] ?? '', /^streaming list incomplete \(.*500.*\): listing instead$/);
    } finally {
      await informer.stop();
    }
  });

  test('start() still fails when the list that follows a failed stream fails', async () => {
    server.faults.failRequests({ verb: 'watch', resource: 'configmaps', status: 500, times: 1 });
    server.faults.failRequests({ verb: 'list', resource: 'configmaps', status: 503, times: 1 });
    const { informer } = watched(client, 'four');
    await assert.rejects(informer.start(), /503/);
    await informer.stop();
  });
});

describe('Informer with streaming lists, against a server without the WatchList feature', () => {
  let server: TestApiServer;
  let client: KubeClient;
  before(async () => {
    server = await startTestApiServer({ watchList: false });
    client = new KubeClient(server.kubeConfig);
  });
  after(async () => {
    client.close();
    await server.stop();
  });

  test('is refused once (422), lists instead, and lists again after 410 without asking again', async () => {
    server.create(configMap('a', 'old'));
    server.requests.reset();
    const { informer, events, restarts, errors } = watched(client, 'old');
    await informer.start();
    try {
      assert.deepEqual(events, ['added a']);
      assert.match(restarts[0] ?? '', /^streaming list refused \(.*422 Invalid.*\): listing instead$/);
      assert.deepEqual(errors, [], 'a refusal is an answer, not an error');
      assert.equal(server.requests.count({ verb: 'list', resource: 'configmaps' }), 1);

      await awayAndExpired(server, () => server.create(configMap('b', 'old')));
      await waitFor('the relist', () => events.includes('added b'));
      assert.equal(server.requests.count({ verb: 'list', resource: 'configmaps' }), 2);
      assert.equal(streamingWatches(server), 1, 'asked once');
    } finally {
      await informer.stop();
    }
  });
});

describe('Informer with streaming lists, against a server that cuts a stream before its end', () => {
  // A scripted server: the first streaming list completes, then says 410 Gone; the second sends part of the state
  // and ends before its bookmark (as a proxy's time-out would); the list has the whole state; a plain watch stays open.
  const object = (name: string, rv: number): KubeObject => ({ ...configMap(name, 'cut'), metadata: { name, namespace: 'default', resourceVersion: String(rv) } });
  const line = (type: string, body: unknown): string => `${JSON.stringify({ type, object: body })}\n`;
  const bookmark = (rv: number, end: boolean): unknown => ({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: String(rv), ...(end ? { annotations: { 'k8s.io/initial-events-end': 'true' } } : {}) } });
  let streams = 0;
  const requests: string[] = [];
  const open: ServerResponse[] = [];
  const fake = localServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const kind = url.searchParams.get('sendInitialEvents') === 'true' ? 'stream' : url.searchParams.get('watch') === 'true' ? 'watch' : 'list';
    requests.push(kind);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    if (kind === 'list') {
      res.end(JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '20' }, items: [object('x', 1), object('y', 2)] }));
    } else if (kind === 'stream' && ++streams === 1) {
      res.write(line('ADDED', object('x', 1)) + line('ADDED', object('y', 2)) + line('BOOKMARK', bookmark(10, true)));
      setTimeout(() => res.end(line('ERROR', { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 410, reason: 'Expired' })), 50);
    } else if (kind === 'stream') {
      res.end(line('ADDED', object('x', 1)));
    } else {
      open.push(res);
    }
  });
  let client: KubeClient;
  before(async () => {
    const port = await fake.start();
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromClusterAndUser({ name: 'fake', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }, { name: 'fake' });
    client = new KubeClient(kubeConfig);
  });
  after(async () => {
    client.close();
    for (const res of open) res.destroy();
    await fake.stop();
  });

  test('the part it sent changes nothing; a list fills the cache', async () => {
    const { informer, events, restarts } = watched(client, 'cut');
    await informer.start();
    try {
      assert.deepEqual(events, ['added x', 'added y']);
      await waitFor('the list after the cut stream', () => requests.includes('watch'));
      assert.deepEqual(requests, ['stream', 'stream', 'list', 'watch']);
      assert.deepEqual(events, ['added x', 'added y'], 'y was not taken for deleted, nor anything for changed');
      assert.equal(informer.size, 2);
      assert.equal(informer.lastResourceVersion, '20');
      assert.ok(restarts.some((r) => /^streaming list incomplete \(the stream ended before the bookmark that completes it\): listing instead$/.test(r)), JSON.stringify(restarts));
    } finally {
      await informer.stop();
    }
  });
});
