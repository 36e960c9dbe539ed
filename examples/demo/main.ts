// The embedded demo (`npm start`): a test API server as the cluster, the example Website operator running on it,
// the inspection API on http://127.0.0.1:8080, and one Website created. Ctrl-C stops everything gracefully.
//
//   npm start                          embedded cluster, API on 127.0.0.1:8080
//   npm start -- --port 0              any free port
//   npm start -- --kubeconfig          the cluster of $KUBECONFIG (or ~/.kube/config) instead
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { KubeClient, createRuntime, consoleLogger, loadDefinition, type KubeObject } from '../../src/index.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const websiteDir = join(here, '..', 'website');

const { values: flags } = parseArgs({
  options: {
    port: { type: 'string', default: '8080' },
    host: { type: 'string', default: '127.0.0.1' },
    kubeconfig: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});

const WEBSITES = { group: 'example.io', version: 'v1', kind: 'Website', plural: 'websites', namespaced: true };
const CHILDREN = [
  { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true, name: 'hello-content' },
  { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true, name: 'hello' },
  { group: '', version: 'v1', kind: 'Service', plural: 'services', namespaced: true, name: 'hello' },
  { group: 'networking.k8s.io', version: 'v1', kind: 'Ingress', plural: 'ingresses', namespaced: true, name: 'hello' },
];

async function main(): Promise<void> {
  let cluster: TestApiServer | undefined;
  let kubeConfig: KubeConfig;
  if (flags.kubeconfig) {
    kubeConfig = new KubeConfig();
    kubeConfig.loadFromDefault();
  } else {
    cluster = await startTestApiServer();
    kubeConfig = cluster.kubeConfig;
  }
  const server = kubeConfig.getCurrentCluster()?.server ?? '(unknown)';
  const logger = consoleLogger({ level: flags.verbose ? 'debug' : 'warn', format: 'text' });

  const runtime = createRuntime(await loadDefinition(join(websiteDir, 'katalog.yaml')), { kubeConfig, installCrds: true, logger });
  runtime.on('activated', ({ crd }) => console.log(`  activated   ${crd}`));
  runtime.on('reconciled', ({ crd, key, result, durationMs, error }) => {
    if (result === 'error' || flags.verbose) console.log(`  reconciled  ${crd} ${key}: ${result} in ${durationMs.toFixed(1)}ms${error ? ` (${error.message})` : ''}`);
  });

  console.log(`katalog demo\n  cluster     ${cluster === undefined ? `${server} (from your kubeconfig)` : `${server} (embedded test API server)`}`);
  await runtime.start();
  const api = await runtime.listen({ port: Number(flags.port), hostname: flags.host });

  const client = new KubeClient(kubeConfig);
  const website = parse(await readFile(join(websiteDir, 'website.yaml'), 'utf8')) as KubeObject;
  await client.apply(WEBSITES, website, { fieldManager: 'katalog-demo', force: true });
  console.log('  created     Website default/hello');

  const deadline = Date.now() + 10_000;
  for (const child of CHILDREN) {
    while ((await client.get(child, child.name, 'default')) === undefined) {
      if (Date.now() > deadline) throw new Error(`the operator did not create ${child.kind} default/${child.name} within 10s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    console.log(`  child       ${child.kind} default/${child.name}`);
  }

  // Only global flags before the verb: Debian's kubectl 1.20 refuses a command-scoped flag such as --validate there.
  const kubectl = `kubectl --server ${server}`;
  console.log(`
inspection API  ${api.url}
  curl ${api.url}/ready
  curl ${api.url}/katalog
  curl ${api.url}/katalog/website
  curl ${api.url}/katalog/website/health
  curl ${api.url}/metrics

the cluster${cluster === undefined ? '' : ' (kubectl from Debian\'s kubernetes-client works against it)'}
  ${kubectl} get websites,deployments,services,configmaps
  ${kubectl} get pods -l app.kubernetes.io/name=hello
  ${kubectl} patch deployment hello --type=merge -p '{"spec":{"replicas":5}}'   # drift: put back to 2
  ${kubectl} patch website hello --type=merge -p '{"spec":{"replicas":3}}'
  ${kubectl} delete website hello

demo ready: ${api.url}
Ctrl-C stops the operator gracefully.`);

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping`);
    await runtime.stop();
    await api.close();
    await cluster?.stop();
    console.log('stopped');
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
