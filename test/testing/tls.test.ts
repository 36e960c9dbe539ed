// tls: true — HTTPS with a throwaway self-signed certificate that the returned kubeconfig trusts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CoreV1Api } from '@kubernetes/client-node';
import { startTestApiServer } from '../../src/testing/index.js';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

test('serves HTTPS that client-node verifies against the kubeconfig CA', { skip: hasOpenssl ? false : 'openssl is not on PATH' }, async () => {
  const server = await startTestApiServer({ tls: true });
  try {
    assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.match(server.kubeconfigYaml, /certificate-authority-data:/);
    assert.equal(server.kubeConfig.getCurrentCluster()?.skipTLSVerify, false);
    const core = server.kubeConfig.makeApiClient(CoreV1Api);
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'secure' } } });
    assert.equal(created.metadata?.name, 'secure');
    await assert.rejects(() => fetch(`${server.url}/version`), 'an untrusting client refuses the self-signed certificate');
  } finally {
    await server.stop();
  }
});
