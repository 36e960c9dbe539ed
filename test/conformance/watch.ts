// Informer list/watch, bookmarks and 410 Gone, through katalog's own client and informer: each informer test runs
// with paged lists and with streaming lists (`streamingLists`, which must then fill the cache without a list).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeClient, type ListOptions, type ListPage, type WatchEventType } from '../../src/kube/client.js';
import { Informer, type InformerEvent } from '../../src/kube/informer.js';
import type { KubeObject, ResourceRef } from '../../src/kube/resource.js';
import { unique, waitFor, type Backend } from './backend.js';

const CONFIG_MAPS: ResourceRef = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };

function configMap(name: string, label: string, data: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels: { conformance: label } }, data } as KubeObject;
}

/** Our own client, counting its lists (the informer's cache fills). */
class CountingClient extends KubeClient {
  lists = 0;
  override async list(ref: ResourceRef, options?: ListOptions): Promise<ListPage> {
    this.lists++;
    return super.list(ref, options);
  }
}

/** An informer of the ConfigMaps labelled `conformance=<label>`, with the events and restarts it told. */
function labelledInformer(client: KubeClient, label: string, streamingLists: boolean): { informer: Informer; events: string[]; restarts: string[] } {
  const events: string[] = [];
  const restarts: string[] = [];
  const informer = new Informer({
    client,
    resource: CONFIG_MAPS,
    namespace: 'default',
    labelSelector: `conformance=${label}`,
    backoff: { initialMs: 100, maxMs: 1000 },
    streamingLists,
    onEvent: (event: InformerEvent) => void events.push(`${event.type} ${String(event.object.metadata?.name)}`),
    onRestart: (reason) => void restarts.push(reason),
  });
  return { informer, events, restarts };
}

const MODES = [
  { streamingLists: false, name: 'paged lists' },
  { streamingLists: true, name: 'streaming lists' },
] as const;

export function watchSuite(backend: () => Backend): void {
  describe('list and watch', () => {
    for (const { streamingLists, name } of MODES) {
      test(`the informer (${name}) lists, then sees adds, updates and deletes in order, and its cache follows`, async () => {
        const label = unique('informer');
        const client = new CountingClient(backend().kubeConfig);
        await client.create(CONFIG_MAPS, configMap(`${label}-a`, label));
        const { informer, events, restarts } = labelledInformer(client, label, streamingLists);
        await informer.start();
        try {
          assert.deepEqual(events, [`added ${label}-a`]);
          assert.equal(client.lists, streamingLists ? 0 : 1, `lists made by the informer (restarts: ${JSON.stringify(restarts)})`);
          const b = await client.create(CONFIG_MAPS, configMap(`${label}-b`, label));
          await client.replace(CONFIG_MAPS, { ...b, data: { x: '1' } });
          await client.delete(CONFIG_MAPS, `${label}-a`, 'default');
          await waitFor('four events', () => events.length >= 4);
          assert.deepEqual(events, [`added ${label}-a`, `added ${label}-b`, `updated ${label}-b`, `deleted ${label}-a`]);
          assert.deepEqual(informer.get(`default/${label}-b`)?.['data'], { x: '1' });
          assert.equal(informer.size, 1);
          assert.equal(informer.get(`default/${label}-b`)?.metadata?.managedFields, undefined, 'managedFields are stripped');
          assert.deepEqual(restarts, []);
        } finally {
          await informer.stop();
        }
      });
    }

    test('a watch that allows bookmarks gets a BOOKMARK with a resourceVersion before its timeout ends it cleanly', async () => {
      const client = new KubeClient(backend().kubeConfig);
      /** One watch of a label of its own until its timeout, with one selected write and one it does not select. */
      const watchOnce = async (): Promise<{ label: string; seen: Array<{ type: WatchEventType; rv: string | undefined; name: string | undefined }>; other: KubeObject; error: unknown; lasted: number }> => {
        const label = unique('bookmark');
        const list = await client.list(CONFIG_MAPS, { namespace: 'default', labelSelector: `conformance=${label}` });
        const seen: Array<{ type: WatchEventType; rv: string | undefined; name: string | undefined }> = [];
        const started = Date.now();
        const handle = client.watch(
          CONFIG_MAPS,
          // kube-apiserver sends its last bookmark 2 s before the deadline, with the newest resourceVersion its watch
          // cache has processed; a timeout of 10 s leaves a busy server time to process the writes below first.
          { namespace: 'default', labelSelector: `conformance=${label}`, resourceVersion: list.resourceVersion, allowWatchBookmarks: true, timeoutSeconds: 10 },
          (type, object) => void seen.push({ type, rv: object.metadata?.resourceVersion, name: object.metadata?.name }),
        );
        await client.create(CONFIG_MAPS, configMap(`${label}-x`, label));
        // A write this watch does not select. kube-apiserver sends a bookmark only when its watch cache has moved past
        // the last event the watch was sent (a bookmark at that same resourceVersion would tell the client nothing),
        // so without a later write of the kind it may send none before the timeout. This write is what the bookmark
        // is for: a resourceVersion the client never saw in an event.
        const other = await client.create(CONFIG_MAPS, configMap(`${label}-other`, `${label}-other`));
        const { error } = await handle.done;
        return { label, seen, other, error, lasted: Date.now() - started };
      };
      // kube-apiserver gives no guarantee of a bookmark ("we don't provide any guarantees on sending bookmarks", its
      // cacher says): its pre-timeout bookmark goes out from a one-second timer 2 s before the deadline, which a
      // starved CPU can miss (a CI machine under load once saw none). So up to three watches, one of which must have it.
      let attempt = await watchOnce();
      for (let tries = 1; tries < 3 && !attempt.seen.some((e) => e.type === 'BOOKMARK'); tries++) attempt = await watchOnce();
      const { label, seen, other, error, lasted } = attempt;
      assert.equal(error, undefined, 'the timeout ends the stream cleanly');
      assert.ok(lasted >= 9000, 'the stream lasted until about its timeout');
      assert.deepEqual(seen.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} ${String(e.name)}`), [`ADDED ${label}-x`]);
      const bookmark = seen.findLast((e) => e.type === 'BOOKMARK');
      assert.ok(bookmark !== undefined, `a BOOKMARK among ${JSON.stringify(seen.map((e) => e.type))}`);
      assert.match(bookmark.rv ?? '', /^\d+$/);
      assert.ok(BigInt(bookmark.rv ?? '0') >= BigInt(other.metadata?.resourceVersion ?? ''), `the last bookmark (${String(bookmark.rv)}) is at or after the unselected write (${String(other.metadata?.resourceVersion)})`);
      assert.equal(bookmark.name, undefined, 'a bookmark carries only the resourceVersion');
    });

    test('a watch from an expired resourceVersion ends with 410 Gone (an ERROR event, Status reason Expired)', async () => {
      const client = new KubeClient(backend().kubeConfig);
      const created = await client.create(CONFIG_MAPS, configMap(unique('expire'), 'expire'));
      const before = created.metadata?.resourceVersion ?? '';
      await backend().expireHistory();
      for (const from of ['1', before]) {
        const errors: KubeObject[] = [];
        const handle = client.watch(CONFIG_MAPS, { namespace: 'default', resourceVersion: from, timeoutSeconds: 30 }, (type, object) => {
          if (type === 'ERROR') errors.push(object);
        });
        const { error } = await Promise.race([handle.done, new Promise<{ error: Error }>((resolve) => setTimeout(() => resolve({ error: new Error('no answer in 20 s') }), 20_000))]);
        handle.abort();
        const status = errors[0] as { code?: number; reason?: string; message?: string } | undefined;
        assert.ok(status !== undefined, `an ERROR event for a watch from ${from}; got ${String(error)}`);
        assert.deepEqual({ code: status.code, reason: status.reason }, { code: 410, reason: 'Expired' });
        assert.match(status.message ?? '', new RegExp(`^too old resource version: ${from} \\(\\d+\\)$`));
      }
    });

    for (const { streamingLists, name } of MODES) {
      test(`an informer (${name}) whose re-watch meets 410 fills its cache again, and loses none of the changes made meanwhile`, async () => {
        const label = unique('relist');
        const client = new CountingClient(backend().kubeConfig);
        await client.create(CONFIG_MAPS, configMap(`${label}-a`, label));
        await client.create(CONFIG_MAPS, configMap(`${label}-b`, label));
        const { informer, events, restarts } = labelledInformer(client, label, streamingLists);
        await informer.start();
        try {
          await backend().expireHistory();
          // Changes while the informer finds its watch gone and relists: one of each kind.
          await client.create(CONFIG_MAPS, configMap(`${label}-c`, label));
          await client.delete(CONFIG_MAPS, `${label}-a`, 'default');
          const b = await client.get(CONFIG_MAPS, `${label}-b`, 'default');
          await client.replace(CONFIG_MAPS, { ...b, data: { x: '1' } } as KubeObject);
          await waitFor('the relist after 410', () => restarts.some((r) => r.includes('410')), 60_000);
          await waitFor('the cache to hold b (changed) and c', () => informer.size === 2 && (informer.get(`default/${label}-b`)?.['data'] as Record<string, string> | undefined)?.['x'] === '1' && informer.get(`default/${label}-c`) !== undefined, 60_000);
          assert.equal(informer.get(`default/${label}-a`), undefined);
          assert.deepEqual(informer.get(`default/${label}-b`)?.['data'], { x: '1' });
          // Every change reached the handler exactly once, whether the relist or the new watch carried it.
          const after = events.slice(2);
          assert.deepEqual(events.slice(0, 2).sort(), [`added ${label}-a`, `added ${label}-b`]);
          assert.deepEqual([...after].sort(), [`added ${label}-c`, `deleted ${label}-a`, `updated ${label}-b`]);
          if (streamingLists) {
            assert.equal(client.lists, 0, 'the state was streamed again, not listed');
            assert.ok(!restarts.some((r) => r.startsWith('streaming list')), `no stream fell back to a list: ${JSON.stringify(restarts)}`);
          }
        } finally {
          await informer.stop();
        }
      });
    }
  });
}
