// hooks.args and constructor.args (orkspace/orkestra pkg/kubeclient: WithArgs, ScopedFor, ResolveArgsMap; its
// docs "06 — Args") end to end against the test API server: a hook receives its args with every `{{ }}` text
// rendered against the object it runs for (also in nested maps; numbers, booleans and lists as written), afresh
// after a spec change; a template failing at render fails the reconcile (Ready=False) instead of reaching the hook
// unrendered; a constructor receives its args as written, once in its deps and in every reconciler context.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import type { HookContext, ReconcilerContext } from '../../src/operatorbox/types.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown> & { status?: { conditions?: Array<{ type: string; status: string; message?: string }> } };

const GROUP = 'args.orkestra.io';
const API = `${GROUP}/v1alpha1`;
const WAIT = 30_000;

const DEFINITION = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: args }
spec:
  crds:
    database:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Database, plural: databases }
      operatorBox:
        reconciler:
          hooks:
            function: DatabaseHooks
            location: ./hooks
            args:
              region: '{{ default "us-east-1" .spec.region }}'
              label: "{{ .metadata.name }}-worker"
              readReplicaCount: 2
              tls: true
              zones: ["{{ .spec.region }}", b]
              backup:
                bucket: "{{ .metadata.name }}-backups"
                keepDays: 7
              fails: '{{ if eq .spec.region "bad" }}{{ toBool .spec.region }}{{ end }}'
    pipeline:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Pipeline, plural: pipelines }
      operatorBox:
        reconciler:
          default: false
          constructor:
            function: NewPipeline
            args: { source: "{{ .spec.source }}", workers: 3 }
`;

describe('hooks.args and constructor.args, run', () => {
  let server: TestApiServer | undefined;
  let runtime: Runtime | undefined;
  const seen = new Map<string, HookContext['args']>();
  const built: Array<Readonly<Record<string, unknown>> | undefined> = [];
  const reconciled: ReconcilerContext['args'][] = [];
  before(async () => {
    server = await startTestApiServer();
    const definition = parseDefinition(DEFINITION, { source: 'args.yaml' });
    for (const entry of definition.crds.values()) {
      const { group, kind, plural, scope, version } = entry.apiTypes;
      server.create(crdManifest({ group, kind, plural, scope, versions: [{ name: version, served: true, storage: true, status: true }] }));
    }
    runtime = createRuntime(definition, {
      kubeConfig: server.kubeConfig,
      watch: FAST_WATCH,
      installCrds: true,
      rateLimiter: { baseDelay: 5, maxDelay: 200 },
      hooks: {
        DatabaseHooks: {
          onReconcile: (ctx) => {
            seen.set(`${ctx.object.metadata?.name ?? ''}@${String((ctx.object['spec'] as { region?: string } | undefined)?.region)}`, structuredClone(ctx.args));
            (ctx.args as Record<string, unknown>)['label'] = 'changed by the hook'; // a private copy
          },
        },
      },
      constructors: {
        NewPipeline: (deps) => {
          built.push(deps.args);
          return { reconcile: (_request, ctx) => void reconciled.push(ctx.args) };
        },
      },
    });
    await runtime.start();
  });
  after(async () => {
    await runtime?.stop();
    await server?.stop();
  });
  const api = (): TestApiServer => server ?? assert.fail('no test API server');

  test('a hook gets its args rendered against its object, nested maps too, other values as written', async () => {
    api().create({ apiVersion: API, kind: 'Database', metadata: { name: 'orders', namespace: 'default' }, spec: { region: 'eu-west-1' } });
    const args = await waitFor('the hook ran', () => seen.get('orders@eu-west-1'), WAIT);
    assert.deepEqual(args, {
      region: 'eu-west-1',
      label: 'orders-worker',
      readReplicaCount: 2,
      tls: true,
      zones: ['{{ .spec.region }}', 'b'],
      backup: { bucket: 'orders-backups', keepDays: 7 },
      fails: '',
    });
    api().create({ apiVersion: API, kind: 'Database', metadata: { name: 'users', namespace: 'default' }, spec: {} });
    const defaulted = await waitFor('the hook ran for users', () => seen.get('users@undefined'), WAIT);
    assert.equal(defaulted['region'], 'us-east-1');
    assert.equal(defaulted['label'], 'users-worker');

    api().patch(API, 'Database', 'orders', { spec: { region: 'ap-south-1' } }, { namespace: 'default' });
    const again = await waitFor('the hook ran after the change', () => seen.get('orders@ap-south-1'), WAIT);
    assert.equal(again['region'], 'ap-south-1');
    assert.equal(again['label'], 'orders-worker');
  });

  test('an args template that fails at render fails the reconcile; the hook does not run with it', async () => {
    api().create({ apiVersion: API, kind: 'Database', metadata: { name: 'broken', namespace: 'default' }, spec: { region: 'bad' } });
    const ready = await waitFor(
      'Ready=False',
      () => ((api().get(API, 'Database', 'broken', 'default') as Obj | undefined)?.status?.conditions ?? []).find((c) => c.type === 'Ready' && c.status === 'False'),
      WAIT,
    );
    assert.match(ready.message ?? '', /hooks\.args\.fails/);
    assert.equal(seen.has('broken@bad'), false);
  });

  test('a constructor gets its args as written, in its deps and in each reconciler context', async () => {
    api().create({ apiVersion: API, kind: 'Pipeline', metadata: { name: 'p', namespace: 'default' }, spec: { source: 'git' } });
    await waitFor('the reconciler ran', () => reconciled.length > 0, WAIT);
    assert.deepEqual(built, [{ source: '{{ .spec.source }}', workers: 3 }]);
    assert.deepEqual(reconciled[0], { source: '{{ .spec.source }}', workers: 3 });
  });
});
