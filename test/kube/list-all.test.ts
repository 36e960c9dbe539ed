// listAll: a whole list in pages over real HTTP, and a continue token that expires between pages (410) followed by
// the same list again in one piece, so the state is whole and at one resourceVersion.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeClient, type ListOptions, type ListPage } from '../../src/kube/client.js';
import { listAll } from '../../src/kube/list-all.js';
import type { ResourceRef } from '../../src/kube/resource.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';

const CONFIG_MAPS: ResourceRef = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };

/** Our client, noting each list it sends and running `afterFirst` once the first page is read. */
class NotingClient extends KubeClient {
  readonly lists: string[] = [];
  afterFirst: (() => void) | undefined;
  override async list(ref: ResourceRef, options: ListOptions = {}): Promise<ListPage> {
    this.lists.push(`limit=${String(options.limit)} continue=${options.continue === undefined ? 'no' : 'yes'}`);
    const page = await super.list(ref, options);
    const then = this.afterFirst;
    this.afterFirst = undefined;
    then?.();
    return page;
  }
}

describe('listAll', () => {
  let server: TestApiServer;
  let client: NotingClient;
  before(async () => {
    server = await startTestApiServer();
    client = new NotingClient(server.kubeConfig);
    for (const name of ['a', 'b', 'c', 'd', 'e']) server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels: { listed: 'yes' } } });
  });
  after(async () => {
    client.close();
    await server.stop();
  });
  const options = { namespace: 'default', labelSelector: 'listed=yes', pageSize: 2, signal: new AbortController().signal };

  test('reads every page, keyed, at the resourceVersion of the list', async () => {
    client.lists.length = 0;
    const listed = await listAll(client, CONFIG_MAPS, options, (object) => object);
    assert.deepEqual([...listed.objects.keys()], ['default/a', 'default/b', 'default/c', 'default/d', 'default/e']);
    assert.deepEqual(client.lists, ['limit=2 continue=no', 'limit=2 continue=yes', 'limit=2 continue=yes']);
    assert.match(listed.resourceVersion, /^\d+$/);
  });

  test('a continue token expired between pages lists again in one piece, with what changed meanwhile', async () => {
    client.lists.length = 0;
    client.afterFirst = () => {
      server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'f', namespace: 'default', labels: { listed: 'yes' } } });
      server.faults.expireResourceVersions();
    };
    const listed = await listAll(client, CONFIG_MAPS, options, (object) => object);
    assert.deepEqual(client.lists, ['limit=2 continue=no', 'limit=2 continue=yes', 'limit=undefined continue=no']);
    assert.deepEqual([...listed.objects.keys()], ['default/a', 'default/b', 'default/c', 'default/d', 'default/e', 'default/f']);
  });
});
