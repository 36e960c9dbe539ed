// The managedFieldsChanged sentinel end to end (the runtime talks to the test API server through the real
// client-node over HTTP). The informer cache drops managedFields but keeps a fingerprint of them, so a gate on the
// sentinel lets through a change another field manager made (its managedFields changed) and holds back the resync
// visits that change nothing; the reconciled object still carries no managedFields.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Hooks } from '../../src/operatorbox/types.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

const GROUP = 'demo.orkestra.io';

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: managed }
spec:
  crds:
    widget:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Widget, plural: widgets }
      operatorBox:
        reconciler:
          resync: 1s
        hooks: { function: WidgetHooks }
        status: { conditions: false }
        preReconcile:
          sentinels: [managedFieldsChanged]
          reconcileGate:
            sentinels: [managedFieldsChanged]
`;

async function reconciles(runtime: Runtime): Promise<number> {
  return Number(/controller_reconcile_total\{crd="widget",result="success"\} (\d+)/.exec(await runtime.registry.metrics())?.[1] ?? '0');
}

describe('preReconcile sentinels: reconcileGate.sentinels [managedFieldsChanged]', () => {
  const seen: Array<{ tier: string; managedFields: unknown }> = [];
  const hooks: Record<string, Hooks> = {
    WidgetHooks: {
      onReconcile: (ctx) => {
        seen.push({ tier: String(ctx.object.metadata?.labels?.['tier']), managedFields: ctx.object.metadata?.managedFields });
      },
    },
  };
  let server: TestApiServer | undefined;
  let runtime: Runtime | undefined;
  before(async () => {
    server = await startTestApiServer();
    server.create(crdManifest({ group: GROUP, kind: 'Widget', plural: 'widgets', scope: 'Namespaced', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    runtime = createRuntime(parseDefinition(KATALOG), { kubeConfig: server.kubeConfig, watch: FAST_WATCH, hooks, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime?.stop();
    await server?.stop();
  });
  const api = (): TestApiServer => server ?? assert.fail('no server');
  const count = (): Promise<number> => reconciles(runtime ?? assert.fail('no runtime'));

  test('resync visits are held back; a write by another field manager passes; the cache holds no managedFields', async () => {
    api().create({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Widget', metadata: { name: 'w', namespace: 'default', labels: { tier: 'a' } }, spec: { size: 1 } });
    await waitFor('the first cycle', () => seen.length === 1);
    const stored = api().get(`${GROUP}/v1alpha1`, 'Widget', 'w', 'default') as { metadata?: { managedFields?: unknown[] } } | undefined;
    assert.ok((stored?.metadata?.managedFields?.length ?? 0) > 0, 'the server records managedFields');
    assert.equal(seen[0]?.managedFields, undefined, 'the cached object the hooks see has none');
    // Two resync visits later (1 s each), the hooks have still run once: the fingerprint did not change.
    const first = await count();
    await waitFor('two resync visits', async () => (await count()) >= first + 2, 20_000);
    assert.equal(seen.length, 1, 'a resync changes no managedFields: the gate held the cycles back');
    api().patch(`${GROUP}/v1alpha1`, 'Widget', 'w', { metadata: { labels: { tier: 'b' } } }, { namespace: 'default', fieldManager: 'someone-else' });
    await waitFor('the change by another manager reconciled', () => seen.length === 2);
    assert.equal(seen[1]?.tier, 'b');
  });
});
