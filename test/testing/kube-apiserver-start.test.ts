// startKubeApiServer's failure paths, without the real binaries: missing binaries are named, and a control-plane
// process that dies while starting fails the start with its own output, leaving no process or directory behind.
// (The success path runs in test/conformance against binaries built by scripts/build-apiserver.sh.)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KatalogError, startKubeApiServer } from '../../src/testing/index.js';

let assets: string;
before(async () => {
  assets = await mkdtemp(join(tmpdir(), 'katalog-fake-assets-'));
});
after(() => rm(assets, { recursive: true, force: true }));

async function leftovers(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((name) => name.startsWith('katalog-kube-apiserver-'));
}

test('without binaries the error says which are missing and how to get them', async () => {
  await assert.rejects(startKubeApiServer(), (error: unknown) => {
    assert.ok(error instanceof KatalogError);
    assert.equal(error.code, 'E_CONTROL_PLANE');
    assert.match(error.message, /KUBEBUILDER_ASSETS/);
    return true;
  });
  await assert.rejects(startKubeApiServer({ assets }), /kube-apiserver is not an executable file at .*katalog-fake-assets-.*\/kube-apiserver .*build-apiserver\.sh/);
});

test('an etcd that exits while starting fails the start with its exit code and output; nothing is left behind', async () => {
  for (const name of ['etcd', 'kube-apiserver']) {
    await writeFile(join(assets, name), `#!/bin/sh\necho "${name} refuses: $*" >&2\nexit 3\n`);
    await chmod(join(assets, name), 0o755);
  }
  const before = await leftovers();
  await assert.rejects(startKubeApiServer({ assets, startTimeoutMs: 20_000 }), (error: unknown) => {
    assert.ok(error instanceof KatalogError, String(error));
    assert.match(error.message, /^etcd exited with code 3; its last output:\netcd refuses: --name=default --data-dir=/);
    assert.match(error.message, /--listen-client-urls=http:\/\/127\.0\.0\.1:\d+ /);
    return true;
  });
  assert.deepEqual(await leftovers(), before, 'the temporary directory is removed');
});
