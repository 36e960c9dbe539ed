// The consumer check's program: what a new user writes first, run from a project that installed the packed
// tarball as the README says. A test API server, a runtime with one CRD, its router mounted in a Hono app served by
// @hono/node-server, one custom resource reconciled into a child, then stop. It must exit by itself (.ci/run gives
// it a time limit): an open handle left behind by katalog would keep it running.
import { createRuntime } from 'katalog';
import { crdManifest, startTestApiServer } from 'katalog/testing';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';

const started = Date.now();
const cluster = await startTestApiServer();
cluster.applyCrd(crdManifest({ group: 'example.io', kind: 'Note', plural: 'notes' }));

const runtime = createRuntime(`
apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: notes }
spec:
  crds:
    note:
      apiTypes: { group: example.io, version: v1, kind: Note, plural: notes }
      operatorBox:
        onCreate:
          configMaps:
            - name: "{{ .metadata.name }}-text"
              reconcile: true
              data: { text: "{{ .spec.text }}" }
`, { kubeConfig: cluster.kubeConfig });

const app = new Hono();
app.get('/', (c) => c.text('my application'));
app.route('/ops', runtime.router);
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

await runtime.start();
cluster.create({ apiVersion: 'example.io/v1', kind: 'Note', metadata: { name: 'hello', namespace: 'default' }, spec: { text: 'hi' } });
const deadline = Date.now() + 30_000;
let child;
while ((child = cluster.get('v1', 'ConfigMap', 'hello-text', 'default')) === undefined) {
  if (Date.now() > deadline) throw new Error('no ConfigMap hello-text within 30 s');
  await new Promise((resolve) => setTimeout(resolve, 20));
}
if (child.data?.text !== 'hi') throw new Error(`ConfigMap hello-text has ${JSON.stringify(child.data)}`);

const ready = await fetch(`${base}/ops/ready`);
const body = await ready.json();
if (ready.status !== 200 || body.crds?.note !== 'healthy') throw new Error(`/ops/ready answered ${ready.status} ${JSON.stringify(body)}`);
const detail = await fetch(`${base}/ops/katalog/note`);
if (detail.status !== 200) throw new Error(`/ops/katalog/note answered ${detail.status}`);
if ((await (await fetch(`${base}/`)).text()) !== 'my application') throw new Error('the host route is gone');

await runtime.stop();
await new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve(undefined))));
await cluster.stop();
console.log(`consumer program: child applied, router mounted, stopped in ${Date.now() - started} ms on Node ${process.version}`);
