// Lists in pages and at a resourceVersion: a later page reads the state at its first page's resourceVersion (etcd
// serves the range at the revision the continue token holds), whatever was created, changed or deleted between the
// pages; a list at a resourceVersion is served at that revision or at the newest, as kube-apiserver chooses.
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
    test("a later page reads the first page's state: nothing created since, a deleted object still there, a changed one as it was; resourceVersion=0 reads the rest at once", async () => {
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
      // resourceVersion=0 with a token: the rest of the token's snapshot at once, the limit ignored.
      const rest = await page(`&continue=${encodeURIComponent(first.metadata?.continue ?? '')}&resourceVersion=0`);
      assert.deepEqual(rest.items?.map((item) => `${item.metadata?.name}:${item.data?.['v']}`), [`${name('c')}:old`, `${name('d')}:old`, `${name('e')}:old`]);
      assert.equal(rest.metadata?.continue ?? '', '');
      assert.equal(rest.metadata?.resourceVersion, first.metadata?.resourceVersion);
      // A token the server did not issue is 400, in kube-apiserver's words (the decoder's own error follows them).
      const forged = await raw(backend().kubeConfig, 'GET', `${CONFIG_MAPS}?limit=2&continue=${encodeURIComponent('bm90IGEgdG9rZW4')}`);
      assert.equal(forged.status, 400);
      assert.match(String((forged.body as { message?: unknown }).message), /^invalid continue token: continue key is not valid: /);

      const now = (await raw(backend().kubeConfig, 'GET', `${CONFIG_MAPS}?labelSelector=pages%3D${group}`)).body as ListBody;
      assert.deepEqual(now.items?.map((item) => `${item.metadata?.name}:${item.data?.['v']}`), [`${name('a')}:old`, `${name('b')}:old`, `${name('bb')}:new`, `${name('d')}:new`, `${name('e')}:old`]);
    });

    test('a list at a resourceVersion: Exact, or a limit, lists the state then; NotOlderThan and no limit the newest; too new is 504, too old 410', async () => {
      const group = unique('at');
      const name = (suffix: string): string => `${group}-${suffix}`;
      const configMap = (suffix: string, value: string): unknown => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: name(suffix), namespace: 'default', labels: { at: group } }, data: { v: value } });
      const list = async (query: string): Promise<{ status: number; retryAfter: string | undefined; body: ListBody & { message?: unknown; reason?: unknown; details?: { causes?: Array<{ reason?: string }> } } }> =>
        raw(backend().kubeConfig, 'GET', `${CONFIG_MAPS}?labelSelector=at%3D${group}${query}`);
      const items = (body: ListBody): string[] => (body.items ?? []).map((item) => `${item.metadata?.name}:${item.data?.['v']}`);
      await backend().create(configMap('a', 'old'));
      await backend().create(configMap('b', 'old'));
      const then = (await list('')).body.metadata?.resourceVersion ?? '';
      await backend().create(configMap('c', 'new'));
      const a = await backend().get('v1', 'ConfigMap', name('a'), 'default');
      await backend().update({ ...a, data: { v: 'new' } });
      await backend().delete('v1', 'ConfigMap', name('b'), 'default');
      const newest = [`${name('a')}:new`, `${name('c')}:new`];

      for (const query of [`&resourceVersion=${then}`, `&resourceVersion=${then}&resourceVersionMatch=NotOlderThan`, '&resourceVersion=0']) {
        const answer = await list(query);
        assert.deepEqual(items(answer.body), newest, query);
        assert.ok(Number(answer.body.metadata?.resourceVersion) > Number(then), query);
      }
      const exact = await list(`&resourceVersion=${then}&resourceVersionMatch=Exact`);
      assert.deepEqual(items(exact.body), [`${name('a')}:old`, `${name('b')}:old`]);
      assert.equal(exact.body.metadata?.resourceVersion, then);
      const paged = await list(`&resourceVersion=${then}&limit=1`);
      assert.deepEqual(items(paged.body), [`${name('a')}:old`]);
      assert.equal(paged.body.metadata?.resourceVersion, then);
      const token = encodeURIComponent(paged.body.metadata?.continue ?? '');
      assert.deepEqual(items((await list(`&limit=1&continue=${token}`)).body), [`${name('b')}:old`]);
      // resourceVersion=0 with a limit: the newest state whole, from the watch cache, which ignores the limit.
      const any = await list('&resourceVersion=0&limit=1');
      assert.deepEqual(items(any.body), newest);
      assert.equal(any.body.metadata?.continue ?? '', '');
      assert.equal((any.body.metadata as { remainingItemCount?: unknown } | undefined)?.remainingItemCount, undefined);

      const refused = async (query: string): Promise<{ status: number; message: unknown }> => {
        const answer = await list(query);
        return { status: answer.status, message: answer.body.message };
      };
      assert.deepEqual(await refused(`&limit=1&continue=${token}&resourceVersion=${then}`), { status: 400, message: 'specifying resource version is not allowed when using continue' });
      assert.deepEqual(await refused(`&limit=1&continue=${token}&resourceVersion=${then}&resourceVersionMatch=Exact`), {
        status: 422,
        message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
      });
      assert.deepEqual(await refused('&resourceVersion=0&resourceVersionMatch=Exact'), {
        status: 422,
        message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
      });
      // Every cause at once, in kube-apiserver's order.
      const unsupported = 'resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""';
      assert.deepEqual(await refused(`&limit=1&continue=${token}&resourceVersionMatch=Bogus`), {
        status: 422,
        message:
          'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, ' +
          `resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided, ${unsupported}]`,
      });
      const ahead = Number(exact.body.metadata?.resourceVersion) + 1_000_000;
      const tooNew = await list(`&resourceVersion=${ahead}`);
      assert.equal(tooNew.status, 504);
      assert.equal(tooNew.retryAfter, '1');
      assert.equal(tooNew.body.reason, 'Timeout');
      assert.match(String(tooNew.body.message), new RegExp(`^Timeout: Too large resource version: ${ahead}, current: \\d+$`));
      assert.equal(tooNew.body.details?.causes?.[0]?.reason, 'ResourceVersionTooLarge');

      await backend().expireHistory();
      assert.deepEqual(await refused(`&resourceVersion=${then}&resourceVersionMatch=Exact`), { status: 410, message: 'The resourceVersion for the provided list is too old.' });
      assert.deepEqual(await refused(`&resourceVersion=${then}&limit=1`), { status: 410, message: 'The resourceVersion for the provided list is too old.' });
      assert.deepEqual(items((await list(`&resourceVersion=${then}`)).body), newest);
      // The token of the page read at `then` is older than the history now: 410 with a fresh token in the Status,
      // which reads on from the same key at the newest state (b, deleted since, is not there; c, created since, is).
      // A ConfigMap the selector does not match follows c, so c's page is full with an object after it: it has a
      // continue token, and the page after it is empty (both servers stop at the first key past a full page).
      await backend().create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: name('z'), namespace: 'default' }, data: { v: 'unlabelled' } });
      const expired = await list(`&limit=1&continue=${token}`);
      assert.equal(expired.status, 410);
      assert.equal(expired.body.reason, 'Expired');
      assert.match(String(expired.body.message), /^The provided continue parameter is too old to display a consistent list result\. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results\. /);
      const fresh = expired.body.metadata?.continue ?? '';
      assert.notEqual(fresh, '');
      assert.notEqual(fresh, decodeURIComponent(token));
      const readOn = await list(`&limit=1&continue=${encodeURIComponent(fresh)}`);
      assert.equal(readOn.status, 200, JSON.stringify(readOn.body));
      assert.deepEqual(items(readOn.body), [`${name('c')}:new`]);
      assert.ok(Number(readOn.body.metadata?.resourceVersion) > Number(then));
      assert.notEqual(readOn.body.metadata?.continue ?? '', '');
      const last = await list(`&limit=1&continue=${encodeURIComponent(readOn.body.metadata?.continue ?? '')}`);
      assert.equal(last.status, 200, JSON.stringify(last.body));
      assert.deepEqual(items(last.body), []);
      assert.equal(last.body.metadata?.continue ?? '', '');
    });
  });
}
