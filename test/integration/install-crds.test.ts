// installCrds: true applies each CRD's crdFile at start, picks the right manifest out of a file holding several,
// and refuses a file whose CRD does not match the Katalog's apiTypes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { createRuntime } from '../../src/create-runtime.js';
import { loadDefinition } from '../../src/definition/index.js';
import { RuntimeError } from '../../src/errors.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest } from '../support/cluster.js';

let server: TestApiServer;
let dir: string;
before(async () => {
  server = await startTestApiServer();
  dir = await mkdtemp(join(tmpdir(), 'katalog-install-'));
  const both = [crdManifest({ kind: 'Apple', plural: 'apples' }), crdManifest({ kind: 'Pear', plural: 'pears' })];
  await writeFile(join(dir, 'crds.yaml'), both.map((manifest) => stringify(manifest)).join('---\n'));
});
after(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

test('each CRD installs its own manifest from a shared file and activates', async () => {
  await writeFile(
    join(dir, 'katalog.yaml'),
    stringify({
      apiVersion: 'katalog.dev/v1',
      kind: 'Katalog',
      metadata: { name: 'fruit' },
      spec: {
        crds: {
          apple: { apiTypes: { group: 'example.io', version: 'v1', kind: 'Apple', plural: 'apples' }, crdFile: './crds.yaml' },
          pear: { apiTypes: { group: 'example.io', version: 'v1', kind: 'Pear', plural: 'pears' }, crdFile: './crds.yaml' },
        },
      },
    }),
  );
  const runtime = createRuntime(await loadDefinition(join(dir, 'katalog.yaml')), { kubeConfig: server.kubeConfig, installCrds: true, watch: FAST_WATCH });
  await runtime.start();
  try {
    const installed = server.objects({ kind: 'CustomResourceDefinition' }).map((crd) => (crd['metadata'] as { name: string }).name).sort();
    assert.deepEqual(installed, ['apples.example.io', 'pears.example.io']);
  } finally {
    await runtime.stop();
  }
});

test('a crdFile that does not declare what apiTypes say is refused at start, naming both', async () => {
  await writeFile(
    join(dir, 'wrong.yaml'),
    stringify({
      apiVersion: 'katalog.dev/v1',
      kind: 'Katalog',
      metadata: { name: 'wrong' },
      spec: { crds: { plum: { apiTypes: { group: 'example.io', version: 'v1', kind: 'Plum', plural: 'plums' }, crdFile: './crds.yaml' } } },
    }),
  );
  const runtime = createRuntime(await loadDefinition(join(dir, 'wrong.yaml')), { kubeConfig: server.kubeConfig, installCrds: true, watch: FAST_WATCH });
  await assert.rejects(runtime.start(), (error: unknown) => {
    assert.ok(error instanceof RuntimeError);
    assert.equal(error.code, 'E_INSTALL');
    assert.match(error.message, /CRD plum: crdFile .*crds\.yaml holds no CustomResourceDefinition named plums\.example\.io \(found: apples\.example\.io, pears\.example\.io\)/);
    return true;
  });
  assert.equal(runtime.state, 'stopped');
});
