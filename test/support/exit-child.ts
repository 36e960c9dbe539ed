// Child process of test/integration/exit.test.ts: a runtime that starts, reconciles one object and stops.
// It must then exit on its own: nothing it opened may keep the event loop alive.
import { KubeConfig } from '@kubernetes/client-node';
import { createRuntime } from '../../src/create-runtime.js';
import { katalog, katalogEntry } from './cluster.js';

const server = process.argv[2] ?? '';
const kubeConfig = new KubeConfig();
kubeConfig.loadFromClusterAndUser({ name: 'test', server, skipTLSVerify: true }, { name: 'test' });
const runtime = createRuntime(katalog({ exit: katalogEntry({ kind: 'Exit', plural: 'exits' }, { operatorBox: { hooks: { function: 'ExitHooks' } } }) }), {
  kubeConfig,
  hooks: {
    ExitHooks: {
      onReconcile: () => {
        process.stdout.write('reconciled\n');
        return { requeueAfter: '1h' };
      },
    },
  },
});
await runtime.start();
const reconciled = new Promise<void>((resolve) => runtime.once('reconciled', () => resolve()));
await reconciled;
const api = await runtime.listen({ port: 0, hostname: '127.0.0.1' });
await fetch(`${api.url}/katalog`);
await api.close();
await runtime.stop();
process.stdout.write(`stopped ${Date.now()}\n`);
