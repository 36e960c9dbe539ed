// Lists in pages: a later page reads the state at its first page's resourceVersion (etcd serves the range at the
// revision the continue token holds), whatever was created, changed or deleted between the pages.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend } from './backend.js';
import { raw } from './raw-http.js';

const CONFIG_MAPS = '/api/v1/namespaces/default/configmaps';

interface ListBody {
  metadata?: { resourceVersion?: string; continue?: string };
  items?: Array<{ metadata?: { name?: string; uid?: string }; data?: Record<string, string> }>;
}

export function listSuite(backend: () => Backend): void {
  describe('lists', () => {
    test("a later page reads the first page's state: nothing created since, a deleted object still there, a changed one as it was", async () => {
      const group = unique('pages');
      const name = (suffix: string): string => `${group}-${suffix}`;
      const configMap = (suffix: string, value: string): unknown => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: name(suffix), namespace: 'default', labels: { pages: group } }, data: { v: value } });
      for (const suffix of ['a', 'b', 'c', 'd', 'e']) await backend().create(configMap(suffix, 'old'));
      const page = async (query: string): Promise<ListBody> => {
        const answer = await raw(backend().kubeConfig, 'GET', `${CONFIG_MAPS}?labelSelector=pages%3D${group}&limit=2${query}`);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        return answer.body as ListBody;
      };
      const first = await page('');
      assert.deepEqual(first.items?.map((item) => item.metadata?.name), [name('a'), name('b')]);
      const uidOfC = (await backend().get('v1', 'ConfigMap', name('c'), 'default'))?.metadata?.['uid'];

      await backend().create(configMap('bb', 'new'));
      await backend().delete('v1', 'ConfigMap', name('c'), 'default');
      const d = await backend().get('v1', 'ConfigMap', name('d'), 'default');
      await backend().update({ ...d, data: { v: 'new' } });

      const second = await page(`&continue=${encodeURIComponent(first.metadata?.continue ?? '')}`);
      assert.deepEqual(second.items?.map((item) => `${item.metadata?.name}:${item.data?.['v']}`), [`${name('c')}:old`, `${name('d')}:old`]);
      assert.equal(second.items?.[0]?.metadata?.uid, uidOfC);
      assert.equal(second.metadata?.resourceVersion, first.metadata?.resourceVersion);
      const third = await page(`&continue=${encodeURIComponent(second.metadata?.continue ?? '')}`);
      assert.deepEqual(third.items?.map((item) => item.metadata?.name), [name('e')]);
      assert.equal(third.metadata?.continue ?? '', '');

      const now = (await raw(backend().kubeConfig, 'GET', `${CONFIG_MAPS}?labelSelector=pages%3D${group}`)).body as ListBody;
      assert.deepEqual(now.items?.map((item) => `${item.metadata?.name}:${item.data?.['v']}`), [`${name('a')}:old`, `${name('b')}:old`, `${name('bb')}:new`, `${name('d')}:new`, `${name('e')}:old`]);
    });
  });
}
