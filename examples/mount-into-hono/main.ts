// A host application with its own routes mounts the inspection router under /ops.
//   npx tsx examples/mount-into-hono/main.ts [port]     (port 0 picks a free one; an embedded test API server is the cluster)
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createRuntime, loadDefinition } from 'katalog';
import { startTestApiServer } from 'katalog/testing';

const here = dirname(fileURLToPath(import.meta.url));
const cluster = await startTestApiServer();
const runtime = createRuntime(await loadDefinition(join(here, '..', 'website', 'katalog.yaml')), { kubeConfig: cluster.kubeConfig, installCrds: true });

const app = new Hono();
app.get('/', (c) => c.text('my application\n'));
app.get('/api/hello', (c) => c.json({ hello: 'world' }));
app.route('/ops', runtime.router); // /ops/health, /ops/ready, /ops/metrics, /ops/katalog, /ops/katalog/website, ...

await runtime.start();
const port = Number(process.argv[2] ?? 3000);
const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
await new Promise<void>((resolve) => server.once('listening', () => resolve()));
const address = server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : port}`;

for (const path of ['/', '/api/hello', '/ops/ready']) {
  const response = await fetch(`${base}${path}`);
  console.log(`GET ${path} → ${response.status} ${(await response.text()).trim()}`);
}
// The summaries' endpoint paths include the mount prefix, with no configuration.
const list = (await (await fetch(`${base}/ops/katalog`)).json()) as { crds: Array<{ name: string; endpoints: unknown }> };
for (const crd of list.crds) console.log(`GET /ops/katalog → ${crd.name} endpoints ${JSON.stringify(crd.endpoints)}`);

await new Promise<void>((resolve) => server.close(() => resolve()));
await runtime.stop();
await cluster.stop();
