// Code registered for a definition: checked when registered, resolved with its source, missing names reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import type { Hooks } from '../../src/operatorbox/types.js';
import { CodeRegistry } from '../../src/runtime/code-registry.js';

const definition = parseDefinition(`
apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: code }
spec:
  crds:
    web:
      apiTypes: { group: example.io, version: v1, kind: Web, plural: webs }
      operatorBox: { hooks: { function: WebHooks } }
    job:
      apiTypes: { group: example.io, version: v1, kind: Job, plural: jobs }
      operatorBox: { default: false, constructor: { function: NewJob } }
`);
const web = definition.crds.get('web');
const job = definition.crds.get('job');

test('hooks are checked when registered: unknown hook names and non-functions are refused, naming them', () => {
  const registry = new CodeRegistry();
  assert.throws(() => registry.registerHooks('WebHooks', { onReconcil: () => undefined } as unknown as Hooks), /hooks WebHooks: unknown hook "onReconcil"/);
  assert.throws(() => registry.registerCrdHooks('web', { onCreate: 'no' } as unknown as Hooks), /hooks for CRD web: onCreate is not a function/);
  assert.throws(() => registry.registerConstructor('NewJob', {} as never), /constructor NewJob: expected a function/);
});

test('names the definition uses but no code registered are reported; code for a CRD directly wins with source code', () => {
  assert.ok(web !== undefined && job !== undefined);
  const registry = new CodeRegistry();
  assert.deepEqual(registry.missing(definition.crds.values()), [
    'CRD web: hooks "WebHooks" are not registered (pass them in options.hooks or call registerHooks)',
    'CRD job: constructor "NewJob" is not registered (pass it in options.constructors or call registerConstructor)',
  ]);
  const named: Hooks = { onReconcile: () => undefined };
  const direct: Hooks = { onCreate: () => undefined };
  registry.registerHooks('WebHooks', named);
  assert.deepEqual(registry.resolve(web).hooks, { value: named, name: 'WebHooks', source: 'yaml' });
  registry.registerCrdHooks('web', direct);
  assert.deepEqual(registry.resolve(web).hooks, { value: direct, name: 'WebHooks', source: 'code' });
  registry.registerCrdConstructor('job', () => ({ reconcile: () => undefined }));
  assert.equal(registry.resolve(job).constructor?.source, 'code');
  assert.deepEqual(registry.missing(definition.crds.values()), []);
});
