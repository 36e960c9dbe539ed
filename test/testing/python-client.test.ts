// The official Python Kubernetes client (Debian's python3-kubernetes, unpacked into .tools/ by
// scripts/fetch-python-kubernetes.sh) runs test/python/client_checks.py against the test API server: CRUD, the
// four patch types, selectors, watch from a list's resourceVersion, 404/409 Status bodies, dryRun and fieldValidation. Skips with the reason
// when the client cannot be fetched.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { pythonKubernetes, ROOT } from '../support/tools.js';

let server: TestApiServer;
before(async () => {
  server = await startTestApiServer();
  server.applyCrd(crdManifest({ group: 'example.com', kind: 'Widget', plural: 'widgets' }));
});
after(() => server.stop());

test('the Python client: CRUD, patches, selectors, watch, Status errors, a ready Deployment', async (t) => {
  const python = pythonKubernetes();
  if (python.path === undefined) {
    t.skip(python.reason);
    return;
  }
  const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'python3',
      [join(ROOT, 'test', 'python', 'client_checks.py'), server.url],
      { env: { ...process.env, PYTHONPATH: python.path, PYTHONDONTWRITEBYTECODE: '1' }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });
  assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
  assert.deepEqual(result.stdout.trim().split('\n'), [
    'ok create, read, replace',
    'ok 409 AlreadyExists and Conflict Status',
    'ok patch: strategic, json, merge, apply',
    'ok custom objects: create, merge patch, 404, 415 for strategic merge',
    'ok list with label and field selectors, limit and continue',
    "ok watch from a list's resourceVersion",
    'ok delete and 404 NotFound Status',
    'ok dryRun: nothing stored, 422 for another value',
    "ok fieldValidation: Warn's Warning header, Strict's 400",
    'ok a Deployment becomes ready and its Pods run',
  ]);
  const managers = (server.get('v1', 'ConfigMap', 'py-c')?.['metadata'] as { managedFields: { manager: string }[] }).managedFields.map((m) => m.manager);
  assert.deepEqual(managers, ['OpenAPI-Generator'], 'the default field manager comes from the User-Agent');
  assert.ok(server.requests.count({ verb: 'watch', resource: 'configmaps' }) >= 1);
});
