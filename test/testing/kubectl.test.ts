// kubectl (Debian's kubernetes-client 1.20, unpacked into .tools/ by scripts/fetch-kubectl.sh) against the test API
// server. Never a kubectl from PATH. Skips with a message when the binary cannot be fetched.
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { GADGET_CRD_YAML, WIDGET_CRD_YAML } from './widget-crd.js';
import { waitFor } from './wait-for.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const KUBECTL = join(root, '.tools', 'kubectl', 'usr', 'bin', 'kubectl');

/** The project's kubectl, fetched when missing; undefined (with the reason) when it cannot be had. */
function kubectlBinary(): { path?: string; reason?: string } {
  if (existsSync(KUBECTL)) return { path: KUBECTL };
  const fetched = spawnSync(join(root, 'scripts', 'fetch-kubectl.sh'), { encoding: 'utf8', timeout: 120_000 });
  if (existsSync(KUBECTL)) return { path: KUBECTL };
  return { reason: `kubectl could not be fetched (scripts/fetch-kubectl.sh: ${(fetched.stderr || fetched.error?.message || 'no output').trim()})` };
}

const WIDGET = (size: number): string => `
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w1
  namespace: default
spec:
  size: ${size}
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
    assert.match(table.stdout, /^NAME\s+AGE\nw1\s+\S+/);
    const json = JSON.parse((await kubectl('get', 'widgets', 'w1', '-o', 'json')).stdout) as { kind: string; spec: { size: number } };
    assert.equal(json.kind, 'Widget');
    assert.equal(json.spec.size, 2);
    const all = await kubectl('get', 'configmaps', '-A');
    assert.match(all.stdout, /default\s+settings/);
    const resources = await kubectl('api-resources');
    assert.match(resources.stdout, /widgets\s+wd\s+example.com\/v1\s+true\s+Widget/);
    assert.match(resources.stdout, /deployments\s+deploy\s+apps\/v1\s+true\s+Deployment/);
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
  });
});
