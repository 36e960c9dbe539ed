// Informer list/watch, bookmarks and 410 Gone, through katalog's own client and informer.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeClient, isGone, type WatchEventType } from '../../src/kube/client.js';
import { Informer, type InformerEvent } from '../../src/kube/informer.js';
import type { KubeObject, ResourceRef } from '../../src/kube/resource.js';
import { unique, waitFor, type Backend } from './backend.js';

const CONFIG_MAPS: ResourceRef = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };

function configMap(name: string, label: string, data: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels: { conformance: label } }, data } as KubeObject;
}

export function watchSuite(backend: () => Backend): void {
  describe('list and watch', () => {
    test('the informer lists, then sees adds, updates and deletes in order, and its cache follows', async () => {
      const label = unique('informer');
      const client = new KubeClient(backend().kubeConfig);
      await client.create(CONFIG_MAPS, configMap(`${label}-a`, label));
      const events: string[] = [];
      const informer = new Informer({
        client,
        resource: CONFIG_MAPS,
        namespace: 'default',
        labelSelector: `conformance=${label}`,
        onEvent: (event: InformerEvent) => void events.push(`${event.type} ${String(event.object.metadata?.name)}`),
      });
      await informer.start();
      try {
        assert.deepEqual(events, [`added ${label}-a`]);
        const b = await client.create(CONFIG_MAPS, configMap(`${label}-b`, label));
        await client.replace(CONFIG_MAPS, { ...b, data: { x: '1' } });
        await client.delete(CONFIG_MAPS, `${label}-a`, 'default');
        await waitFor('four events', () => events.length >= 4);
        assert.deepEqual(events, [`added ${label}-a`, `added ${label}-b`, `updated ${label}-b`, `deleted ${label}-a`]);
        assert.deepEqual(informer.get(`default/${label}-b`)?.['data'], { x: '1' });
        assert.equal(informer.size, 1);
        assert.equal(informer.get(`default/${label}-b`)?.metadata?.managedFields, undefined, 'managedFields are stripped');
      } finally {
        await informer.stop();
      }
    });

    test('a watch that allows bookmarks gets a BOOKMARK with a resourceVersion before its timeout ends it cleanly', async () => {
      const label = unique('bookmark');
      const client = new KubeClient(backend().kubeConfig);
      const list = await client.list(CONFIG_MAPS, { namespace: 'default', labelSelector: `conformance=${label}` });
      const seen: Array<{ type: WatchEventType; rv: string | undefined; name: string | undefined }> = [];
      const started = Date.now();
      const handle = client.watch(
        CONFIG_MAPS,
        { namespace: 'default', labelSelector: `conformance=${label}`, resourceVersion: list.resourceVersion, allowWatchBookmarks: true, timeoutSeconds: 5 },
        (type, object) => void seen.push({ type, rv: object.metadata?.resourceVersion, name: object.metadata?.name }),
      );
      await client.create(CONFIG_MAPS, configMap(`${label}-x`, label));
      const { error } = await handle.done;
      assert.equal(error, undefined, 'the timeout ends the stream cleanly');
      assert.ok(Date.now() - started >= 4000, 'the stream lasted until about its timeout');
      assert.deepEqual(seen.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} ${String(e.name)}`), [`ADDED ${label}-x`]);
      const bookmark = seen.find((e) => e.type === 'BOOKMARK');
      assert.ok(bookmark !== undefined, `a BOOKMARK among ${JSON.stringify(seen.map((e) => e.type))}`);
      assert.match(bookmark.rv ?? '', /^\d+$/);
      assert.equal(bookmark.name, undefined, 'a bookmark carries only the resourceVersion');
    });

    // Known difference, not yet explained: kube-apiserver 1.37 answered neither an ERROR event nor a 410 within 20 s
    // to a watch from resourceVersion "1" (docs/testing.md, "Differences found"). Skipped there, run in-process.
    const onRealServer = process.env['KATALOG_CONFORMANCE_BACKEND'] === 'kube-apiserver';
    test('a watch from an expired resourceVersion ends with 410 Gone (an ERROR event, Status reason Expired)', { skip: onRealServer && 'kube-apiserver 1.37: no answer to a watch from resourceVersion "1" (docs/testing.md)' }, async () => {
      const client = new KubeClient(backend().kubeConfig);
      await client.create(CONFIG_MAPS, configMap(unique('expire'), 'expire'));
      backend().expireHistory();
      const errors: KubeObject[] = [];
      const handle = client.watch(CONFIG_MAPS, { namespace: 'default', resourceVersion: '1', timeoutSeconds: 30 }, (type, object) => {
        if (type === 'ERROR') errors.push(object);
      });
      const { error } = await Promise.race([handle.done, new Promise<{ error: Error }>((resolve) => setTimeout(() => resolve({ error: new Error('no answer in 20 s') }), 20_000))]);
      handle.abort();
      const status = errors[0] as { code?: number; reason?: string } | undefined;
      assert.ok(status !== undefined || isGone(error), `an ERROR event or a 410 error; got ${String(error)}`);
      assert.deepEqual({ code: status?.code, reason: status?.reason }, { code: 410, reason: 'Expired' });
    });
  });
}
