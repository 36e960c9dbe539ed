// Hooks and a custom constructor, registered by the names the Katalog uses.
//   npx tsx examples/hooks-and-constructor/main.ts     (an embedded test API server is the cluster)
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime, loadDefinition, type Hooks, type ConstructorFactory } from 'katalog';
import { startTestApiServer } from 'katalog/testing';

const here = dirname(fileURLToPath(import.meta.url));

// Hooks run after the templates of each reconcile (runHooksFirst: true reverses that). They get one context
// object and may ask to run again later.
const GreetingHooks: Hooks = {
  onCreate(ctx) {
    ctx.logger.info('a new greeting', { name: ctx.object.metadata?.name });
    void ctx.events.normal('Greeted', 'the greeting ConfigMap was created');
  },
  onReconcile(ctx) {
    const configMaps = ctx.children['configMaps'] ?? {};
    console.log(`GreetingHooks.onReconcile ${ctx.object.metadata?.name}: children ${Object.keys(configMaps).join(', ')}`);
    return { requeueAfter: '10m' };
  },
  onDelete(ctx) {
    console.log(`GreetingHooks.onDelete ${ctx.object.metadata?.name}: cleaning up before the finalizer goes`);
  },
};

// A constructor is called once per activation of its CRD; its reconciler owns reconcile entirely and is shared by
// all workers. It sees deletions itself (ctx.object is undefined once the object is gone).
const NewBackupReconciler: ConstructorFactory = ({ crd, logger }) => {
  logger.info('backup reconciler constructed', { version: crd.resource.version });
  return {
    async reconcile(request, ctx) {
      if (ctx.object === undefined) return;
      const schedule = (ctx.object['spec'] as { schedule?: string } | undefined)?.schedule ?? '1h';
      console.log(`NewBackupReconciler ${request.key}: next backup in ${schedule}`);
      return { requeueAfter: schedule };
    },
  };
};

const cluster = await startTestApiServer();
const runtime = createRuntime(await loadDefinition(join(here, 'katalog.yaml')), {
  kubeConfig: cluster.kubeConfig,
  installCrds: true,
  hooks: { GreetingHooks },
  constructors: { NewBackupReconciler },
});
const reconciled = new Set<string>();
const both = new Promise<void>((resolve) =>
  runtime.on('reconciled', ({ crd, result }) => {
    if (result === 'success') reconciled.add(crd);
    if (reconciled.size === 2) resolve();
  }),
);
await runtime.start();
cluster.create({ apiVersion: 'example.io/v1', kind: 'Greeting', metadata: { name: 'hi', namespace: 'default' }, spec: { name: 'katalog' } });
cluster.create({ apiVersion: 'example.io/v1', kind: 'Backup', metadata: { name: 'nightly', namespace: 'default' }, spec: { schedule: '24h' } });
await both;
const configMap = cluster.get('v1', 'ConfigMap', 'hi-greeting', 'default') as { data?: Record<string, string> } | undefined;
console.log(`ConfigMap hi-greeting says: ${configMap?.data?.['message'] ?? '(missing)'}`);
await runtime.stop();
await cluster.stop();
