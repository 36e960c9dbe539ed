// kubectl (Debian's kubernetes-client 1.20, unpacked into .tools/ by scripts/fetch-kubectl.sh) against the test API
// server. Never a kubectl from PATH. Skips with a message when the binary cannot be fetched.
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { GADGET_CRD_YAML, WIDGET_CRD_YAML } from './widget-crd.js';
import { waitFor } from './wait-for.js';
import { kubectlBinary } from '../support/tools.js';

const WIDGET = (size: number): string => `
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w1
  namespace: default
spec:
  size: ${size}
`;

/** A CRD whose `/scale` reads and writes `.spec.size`. */
const POOL_CRD_YAML = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: pools.example.net
spec:
  group: example.net
  scope: Namespaced
  names: { plural: pools, singular: pool, kind: Pool }
  versions:
    - name: v1
      served: true
      storage: true
      subresources:
        status: {}
        scale: { specReplicasPath: .spec.size, statusReplicasPath: .status.size }
      schema:
        openAPIV3Schema:
          type: object
          x-kubernetes-preserve-unknown-fields: true
`;

const CONFIGMAP = (value: string): string => `
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: default
data:
  mode: ${value}
`;

describe('kubectl', () => {
  const binary = kubectlBinary();
  let server: TestApiServer;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  const skipIfMissing = (t: TestContext): boolean => {
    if (binary.path !== undefined) return false;
    t.skip(binary.reason);
    return true;
  };

  const kubectl = (...args: string[]): Promise<{ stdout: string; stderr: string }> =>
    new Promise((resolvePromise, reject) => {
      execFile(binary.path ?? 'missing-kubectl', args, { env, timeout: 30_000 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`kubectl ${args.join(' ')} failed: ${stderr || error.message}`, { cause: error }));
        else resolvePromise({ stdout, stderr });
      });
    });

  const file = async (name: string, text: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };

  before(async () => {
    server = await startTestApiServer();
    dir = await mkdtemp(join(tmpdir(), 'katalog-kubectl-'));
    const kubeconfig = await file('kubeconfig', server.kubeconfigYaml);
    env = { HOME: dir, KUBECONFIG: kubeconfig, PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
  });
  after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('apply -f a CRD and a custom resource (client-side apply: create, then merge patch)', async (t) => {
    if (skipIfMissing(t)) return;
    const crd = await kubectl('apply', '--validate=false', '-f', await file('crd.yaml', WIDGET_CRD_YAML));
    assert.match(crd.stdout, /customresourcedefinition.apiextensions.k8s.io\/widgets.example.com created/);
    const created = await kubectl('apply', '--validate=false', '-f', await file('w1.yaml', WIDGET(1)));
    assert.match(created.stdout, /widget.example.com\/w1 created/);
    const configured = await kubectl('apply', '--validate=false', '-f', await file('w1.yaml', WIDGET(2)));
    assert.match(configured.stdout, /widget.example.com\/w1 configured/);
    assert.equal((server.get('example.com/v1', 'Widget', 'w1')?.['spec'] as { size: number }).size, 2);
    assert.ok(server.requests.log().some((r) => r.verb === 'patch' && r.resource === 'widgets'));
  });

  test('apply -f a ConfigMap twice (strategic merge patch) and apply --server-side', async (t) => {
    if (skipIfMissing(t)) return;
    await kubectl('apply', '--validate=false', '-f', await file('cm.yaml', CONFIGMAP('a')));
    const configured = await kubectl('apply', '--validate=false', '-f', await file('cm.yaml', CONFIGMAP('b')));
    assert.match(configured.stdout, /configmap\/settings configured/);
    assert.deepEqual(server.get('v1', 'ConfigMap', 'settings')?.['data'], { mode: 'b' });
    const ssa = await kubectl('apply', '--server-side', '--validate=false', '-f', await file('gadget-crd.yaml', GADGET_CRD_YAML));
    assert.match(ssa.stdout, /customresourcedefinition.apiextensions.k8s.io\/gadgets.example.org serverside-applied/);
    const managers = (server.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'gadgets.example.org')?.['metadata'] as { managedFields: { manager: string }[] })
      .managedFields;
    assert.ok(managers.some((m) => m.manager === 'kubectl'));
  });

  test('get (table and -o json), short names, and api-resources', async (t) => {
    if (skipIfMissing(t)) return;
    const table = await kubectl('get', 'wd');
    assert.match(table.stdout, /^NAME\s+SIZE\s+READY\s+AGE\nw1\s+2\s+\d+s\n$/, 'additionalPrinterColumns (a missing value prints empty); priority 1 only with -o wide');
    server.patch('example.com/v1', 'Widget', 'w1', { status: { conditions: [{ type: 'Ready', status: 'True' }] } }, { subresource: 'status' });
    const wide = await kubectl('get', 'wd', '-o', 'wide');
    assert.match(wide.stdout, /^NAME\s+SIZE\s+READY\s+OWNER\s+AGE\nw1\s+2\s+True\s+\d+s\n$/);
    const json = JSON.parse((await kubectl('get', 'widgets', 'w1', '-o', 'json')).stdout) as { kind: string; spec: { size: number } };
    assert.equal(json.kind, 'Widget');
    assert.equal(json.spec.size, 2);
    const all = await kubectl('get', 'configmaps', '-A');
    assert.match(all.stdout, /default\s+settings/);
    const resources = await kubectl('api-resources');
    assert.match(resources.stdout, /widgets\s+wd\s+example.com\/v1\s+true\s+Widget/);
    assert.match(resources.stdout, /deployments\s+deploy\s+apps\/v1\s+true\s+Deployment/);
  });

  test('get prints the columns of built-in kinds, filled by the simulated controllers', async (t) => {
    if (skipIfMissing(t)) return;
    server.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
    });
    server.create({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'once', namespace: 'default' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'run', image: 'busybox' }] } } } });
    await waitFor(() => (server.get('apps/v1', 'Deployment', 'web')?.['status'] as { readyReplicas?: number } | undefined)?.readyReplicas === 2, 'the Deployment to be ready', 20_000);
    await waitFor(() => (server.get('batch/v1', 'Job', 'once')?.['status'] as { succeeded?: number } | undefined)?.succeeded === 1, 'the Job to complete', 20_000);
    const deployments = await kubectl('get', 'deployments');
    assert.match(deployments.stdout, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nweb\s+2\/2\s+2\s+2\s+\d+s\n$/);
    const wide = await kubectl('get', 'deployment', 'web', '-o', 'wide');
    assert.match(wide.stdout, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\nweb\s+2\/2\s+2\s+2\s+\d+s\s+nginx\s+nginx:1.27\s+app=web\n$/);
    const pods = await kubectl('get', 'pods', '-l', 'app=web');
    assert.match(pods.stdout, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\n(web-\S+\s+1\/1\s+Running\s+0\s+\d+s\n){2}$/);
    const jobs = await kubectl('get', 'jobs');
    assert.match(jobs.stdout, /^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE\nonce\s+Complete\s+1\/1\s+\d+s\s+\d+s\n$/);
    const all = await kubectl('get', 'configmaps,namespaces', '-A');
    assert.match(all.stdout, /NAMESPACE\s+NAME\s+DATA\s+AGE\ndefault\s+configmap\/settings\s+1\s+\d+s/);
    assert.match(all.stdout, /NAMESPACE\s+NAME\s+STATUS\s+AGE\n\s+namespace\/default\s+Active/);
    assert.match((await kubectl('get', 'crd')).stdout, /^NAME\s+CREATED AT\n(gadgets.example.org|widgets.example.com)\s+\d{4}-\d\d-\d\dT/);
  });

  test('rollout status, set image, rollout history and rollout undo go through the simulated ReplicaSets', async (t) => {
    if (skipIfMissing(t)) return;
    const created = await kubectl('create', 'deployment', 'shop', '--image=nginx:1.26', '--replicas=2');
    assert.match(created.stdout, /deployment.apps\/shop created/);
    assert.match((await kubectl('rollout', 'status', 'deployment/shop', '--timeout=20s')).stdout, /deployment "shop" successfully rolled out/);
    await kubectl('set', 'image', 'deployment/shop', 'nginx=nginx:1.27');
    const status = await kubectl('rollout', 'status', 'deployment/shop', '--timeout=20s');
    assert.match(status.stdout, /Waiting for deployment "shop" rollout to finish: /, 'the rollout is seen in steps');
    assert.match(status.stdout, /deployment "shop" successfully rolled out\n$/);
    const replicaSets = await kubectl('get', 'replicasets', '-l', 'app=shop');
    assert.match(replicaSets.stdout, /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\n/);
    assert.match(replicaSets.stdout, /\nshop-[bcdf4-9]+\s+2\s+2\s+2\s+\d+s\n/, 'the new ReplicaSet runs both replicas');
    assert.match(replicaSets.stdout, /\nshop-[bcdf4-9]+\s+0\s+0\s+0\s+\d+s\n/, 'the old one is kept, scaled to 0');
    assert.match((await kubectl('rollout', 'history', 'deployment/shop')).stdout, /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>\n/);
    assert.match((await kubectl('rollout', 'undo', 'deployment/shop')).stdout, /deployment.apps\/shop rolled back/);
    assert.match((await kubectl('rollout', 'status', 'deployment/shop', '--timeout=20s')).stdout, /successfully rolled out/);
    const deployment = server.get('apps/v1', 'Deployment', 'shop') as { metadata: { annotations: Record<string, string> }; spec: { template: { spec: { containers: { image: string }[] } } } };
    assert.equal(deployment.spec.template.spec.containers[0]?.image, 'nginx:1.26');
    assert.equal(deployment.metadata.annotations['deployment.kubernetes.io/revision'], '3', 'the first ReplicaSet is taken up again as revision 3');
    assert.match((await kubectl('rollout', 'history', 'deployment/shop')).stdout, /REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>\n/);
    // describe lists the Deployment controller's Events, as on a cluster.
    const described = (await kubectl('describe', 'deployment', 'shop')).stdout;
    assert.match(described, /Events:\n\s+Type\s+Reason\s+Age\s+From\s+Message\n/);
    assert.match(described, /Normal\s+ScalingReplicaSet\s+\S+\s+deployment-controller\s+Scaled up replica set shop-[bcdf4-9]+ from 0 to 2\n/);
    assert.match(described, /Normal\s+ScalingReplicaSet\s+\S+\s+deployment-controller\s+Scaled down replica set shop-[bcdf4-9]+ from 2 to 1\n/);
  });

  test('scale goes through /scale: a Deployment rolls to the new size, a custom resource gets its replicas path', async (t) => {
    if (skipIfMissing(t)) return;
    await kubectl('create', 'deployment', 'stock', '--image=nginx:1.26', '--replicas=1');
    assert.match((await kubectl('scale', 'deployment/stock', '--replicas=3')).stdout, /deployment.apps\/stock scaled/);
    assert.match((await kubectl('rollout', 'status', 'deployment/stock', '--timeout=20s')).stdout, /successfully rolled out/);
    assert.match((await kubectl('get', 'replicasets', '-l', 'app=stock')).stdout, /\nstock-[bcdf4-9]+\s+3\s+3\s+3\s+\d+s\n/);
    // --current-replicas is checked against the Scale kubectl reads first.
    await assert.rejects(kubectl('scale', 'deployment/stock', '--current-replicas=2', '--replicas=1'), /Expected replicas to be 2, was 3/);
    assert.match((await kubectl('scale', 'deployment/stock', '--current-replicas=3', '--replicas=2')).stdout, /deployment.apps\/stock scaled/);
    await kubectl('apply', '--validate=false', '-f', await file('pool-crd.yaml', POOL_CRD_YAML));
    await kubectl('apply', '--validate=false', '-f', await file('pool.yaml', 'apiVersion: example.net/v1\nkind: Pool\nmetadata:\n  name: p1\n  namespace: default\nspec:\n  size: 1\n'));
    assert.match((await kubectl('scale', 'pools/p1', '--replicas=4')).stdout, /pool.example.net\/p1 scaled/);
    const pool = server.get('example.net/v1', 'Pool', 'p1') as { spec: { size: number }; metadata: { generation: number } };
    assert.deepEqual([pool.spec.size, pool.metadata.generation], [4, 2]);
    assert.equal((server.get('apps/v1', 'Deployment', 'stock')?.['spec'] as { replicas: number }).replicas, 2);
  });

  test('get -w prints a row when the object changes', async (t) => {
    if (skipIfMissing(t)) return;
    const child = spawn(binary.path ?? 'missing-kubectl', ['get', 'widgets', '-w'], { env });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    try {
      await waitFor(() => /w1/.test(out), 'the initial row', 20_000);
      await waitFor(() => server.watchCount({ resource: 'widgets' }) > 0, 'kubectl to watch', 20_000);
      server.create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w2', namespace: 'default' }, spec: {} });
      await waitFor(() => /\nw2\s+/.test(out), 'the row of the new object', 20_000);
    } finally {
      child.kill();
    }
    await new Promise((r) => child.once('exit', r));
  });

  test('patch --type=merge and --type=strategic', async (t) => {
    if (skipIfMissing(t)) return;
    const merge = await kubectl('patch', 'widget', 'w1', '--type=merge', '-p', '{"spec":{"size":5}}');
    assert.match(merge.stdout, /widget.example.com\/w1 patched/);
    assert.equal((server.get('example.com/v1', 'Widget', 'w1')?.['spec'] as { size: number }).size, 5);
    const strategic = await kubectl('patch', 'configmap', 'settings', '--type=strategic', '-p', '{"data":{"extra":"yes"}}');
    assert.match(strategic.stdout, /configmap\/settings patched/);
    assert.deepEqual(server.get('v1', 'ConfigMap', 'settings')?.['data'], { mode: 'b', extra: 'yes' });
    const manager = (server.get('v1', 'ConfigMap', 'settings')?.['metadata'] as { managedFields: { manager: string }[] }).managedFields.map((m) => m.manager);
    assert.ok(manager.includes('kubectl-patch'));
  });

  test('delete waits for the object to go', async (t) => {
    if (skipIfMissing(t)) return;
    const deleted = await kubectl('delete', 'widget', 'w1');
    assert.match(deleted.stdout, /widget.example.com "w1" deleted/);
    assert.equal(server.get('example.com/v1', 'Widget', 'w1'), undefined);
    const cm = await kubectl('delete', 'configmap', 'settings');
    assert.match(cm.stdout, /configmap "settings" deleted/);
    // A Pod bound to a node goes gracefully: kubectl waits while the simulated kubelet stops it; --force with
    // --grace-period=0 removes it at once.
    const pod = (name: string): Record<string, unknown> => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'i' }] } });
    server.create(pod('stopping'));
    const graceful = await kubectl('delete', 'pod', 'stopping');
    assert.match(graceful.stdout, /pod "stopping" deleted/);
    assert.equal(server.get('v1', 'Pod', 'stopping'), undefined);
    server.create(pod('forced'));
    const forced = await kubectl('delete', 'pod', 'forced', '--grace-period=0', '--force');
    assert.match(forced.stdout, /pod "forced" (force )?deleted/);
    assert.equal(server.get('v1', 'Pod', 'forced'), undefined);
  });
});
