// Streaming lists (`sendInitialEvents`, the watch-list that client-go's reflector uses in place of a list then a
// watch): the options kube-apiserver accepts with it, the initial state and the bookmark that ends it, and a watch
// that asks for no initial state.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend } from './backend.js';
import { raw, rawWatch, type RawWatch, type WatchEvent } from './raw-http.js';

const CONFIG_MAPS = '/api/v1/namespaces/default/configmaps';
const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

const names = (events: WatchEvent[]): string[] => events.map((event) => `${event.type} ${event.object.metadata?.name ?? ''}`.trim());

/** A watch that reads until an event names `name`; `open` settles once the watch is registered. */
function watchUntil(backend: Backend, query: string, name: string): { open: Promise<void>; result: Promise<RawWatch> } {
  let opened: () => void = () => undefined;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const result = rawWatch(backend.kubeConfig, `${CONFIG_MAPS}?${query}`, (events) => events.some((event) => event.object.metadata?.name === name), 10_000, () => opened());
  return { open, result };
}

export function watchListSuite(backend: () => Backend): void {
  describe('streaming lists (sendInitialEvents)', () => {
    const configMap = (label: string, name: string): unknown => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels: { stream: label } } });

    // A server that takes a refused watch for a good one streams forever: the time-out makes that a failure.
    test('the options: sendInitialEvents needs resourceVersionMatch=NotOlderThan, which a watch may not send alone; a list may not send it', { timeout: 30_000 }, async () => {
      const kc = backend().kubeConfig;
      const invalid = async (query: string): Promise<{ status: number; message: unknown; causes: unknown }> => {
        const answer = await raw(kc, 'GET', `${CONFIG_MAPS}?${query}`);
        const details = answer.body['details'] as { causes?: unknown } | undefined;
        return { status: answer.status, message: answer.body['message'], causes: details?.causes };
      };
      const prefix = 'ListOptions.meta.k8s.io "" is invalid: ';
      assert.deepEqual(await invalid('watch=1&sendInitialEvents=true'), {
        status: 422,
        message: `${prefix}resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan`,
        causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan', field: 'resourceVersionMatch' }],
      });
      assert.deepEqual(await invalid('watch=1&resourceVersionMatch=NotOlderThan'), {
        status: 422,
        message: `${prefix}resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided`,
        causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided', field: 'resourceVersionMatch' }],
      });
      const exact = await invalid('watch=1&sendInitialEvents=true&resourceVersionMatch=Exact');
      assert.equal(exact.status, 422);
      assert.equal(
        exact.message,
        `${prefix}[resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]`,
      );
      assert.deepEqual(await invalid('sendInitialEvents=true'), {
        status: 422,
        message: `${prefix}sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list`,
        causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: sendInitialEvents is forbidden for list', field: 'sendInitialEvents' }],
      });
    });

    test('sendInitialEvents=true: an ADDED per object, then a bookmark annotated as their end (only when bookmarks are allowed), then changes', async () => {
      const label = unique('stream');
      const a = `${label}-a`;
      const b = `${label}-b`;
      await backend().create(configMap(label, a));
      const last = await backend().create(configMap(label, b));
      const query = `watch=1&labelSelector=stream%3D${label}&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`;

      const ended = (events: WatchEvent[]): boolean => events.some((event) => event.type === 'BOOKMARK');
      const stream = await rawWatch(backend().kubeConfig, `${CONFIG_MAPS}?${query}&allowWatchBookmarks=true`, ended, 10_000);
      assert.equal(stream.status, 200, JSON.stringify(stream.body));
      assert.deepEqual(names(stream.events), [`ADDED ${a}`, `ADDED ${b}`, 'BOOKMARK']);
      const bookmark = stream.events[2];
      assert.equal(bookmark?.object.metadata?.annotations?.[INITIAL_EVENTS_END], 'true');
      assert.ok(BigInt(bookmark?.object.metadata?.resourceVersion ?? '0') >= BigInt(last.metadata?.['resourceVersion'] as string), 'the bookmark is at or after the last write');

      // Without allowWatchBookmarks the initial events come, and nothing says where they end: c, created once the
      // watch is open, comes right after them, with no bookmark between.
      const c = `${label}-c`;
      const unmarked = watchUntil(backend(), query, c);
      await unmarked.open;
      await backend().create(configMap(label, c));
      const answer = await unmarked.result;
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(names(answer.events), [`ADDED ${a}`, `ADDED ${b}`, `ADDED ${c}`]);
    });

    test('sendInitialEvents=false: no initial state, from the newest resourceVersion ("" or "0") on', async () => {
      const label = unique('nostate');
      await backend().create(configMap(label, `${label}-old`));
      for (const resourceVersion of ['', '0']) {
        const fresh = `${label}-new${resourceVersion === '' ? 'a' : 'b'}`;
        const query = `watch=1&labelSelector=stream%3D${label}&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&resourceVersion=${resourceVersion}`;
        const watching = watchUntil(backend(), query, fresh);
        await watching.open;
        await backend().create(configMap(label, fresh));
        const answer = await watching.result;
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.deepEqual(names(answer.events), [`ADDED ${fresh}`], `resourceVersion=${JSON.stringify(resourceVersion)}`);
      }
    });
  });
}
