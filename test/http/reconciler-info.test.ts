// The `reconciler` object of /katalog/{crd}: type, where hooks and constructors come from, finalizers, templates.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/load.js';
import type { CrdDefinition } from '../../src/definition/types.js';
import { reconcilerInfo } from '../../src/http/reconciler-info.js';
import { CodeRegistry } from '../../src/runtime/code-registry.js';

const API = (kind: string) => `{ group: example.io, version: v1, kind: ${kind}, plural: ${kind.toLowerCase()}s }`;

function crdOf(yaml: string, name: string): CrdDefinition {
  const definition = parseDefinition(`apiVersion: katalog.dev/v1\nkind: Katalog\nmetadata: { name: test }\n${yaml}`, { source: 'test.yaml' });
  const crd = definition.crds.get(name);
  assert.ok(crd !== undefined, `no CRD ${name}`);
  return crd;
}

const hooks = { onReconcile: async () => undefined };
const factory = () => ({ reconcile: async () => undefined });

describe('reconcilerInfo', () => {
  test('a bare generic CRD: nothing configured, only the cleanup finalizer, no templates', () => {
    const crd = crdOf(`spec:\n  crds:\n    website:\n      apiTypes: ${API('Website')}\n`, 'website');
    assert.deepEqual(reconcilerInfo(crd, new CodeRegistry().resolve(crd)), {
      type: 'generic',
      hooks: { configured: false, source: null, function: null },
      constructor: { configured: false, source: null, function: null },
      finalizers: { values: ['katalog.dev/cleanup'], source: 'code' },
      templates: {},
    });
  });

  test('hooks named in the definition and registered under that name come from yaml', () => {
    const crd = crdOf(`spec:\n  crds:\n    website:\n      apiTypes: ${API('Website')}\n      operatorBox:\n        hooks: { function: WebsiteHooks }\n`, 'website');
    const code = new CodeRegistry();
    assert.deepEqual(reconcilerInfo(crd, code.resolve(crd)).hooks, { configured: true, source: 'yaml', function: 'WebsiteHooks' }, 'named but not registered yet');
    code.registerHooks('WebsiteHooks', hooks);
    assert.deepEqual(reconcilerInfo(crd, code.resolve(crd)).hooks, { configured: true, source: 'yaml', function: 'WebsiteHooks' });
    assert.deepEqual(reconcilerInfo(crd, undefined).hooks, { configured: true, source: 'yaml', function: 'WebsiteHooks' }, 'no code resolved at all');
  });

  test('hooks registered for the CRD directly come from code, and win over the name in the definition', () => {
    const bare = crdOf(`spec:\n  crds:\n    website:\n      apiTypes: ${API('Website')}\n`, 'website');
    const code = new CodeRegistry();
    code.registerCrdHooks('website', hooks);
    assert.deepEqual(reconcilerInfo(bare, code.resolve(bare)).hooks, { configured: true, source: 'code', function: 'website' });
    const named = crdOf(`spec:\n  crds:\n    website:\n      apiTypes: ${API('Website')}\n      operatorBox:\n        hooks: { function: WebsiteHooks }\n`, 'website');
    code.registerHooks('WebsiteHooks', hooks);
    assert.equal(reconcilerInfo(named, code.resolve(named)).hooks.source, 'code');
  });

  test('a custom constructor: type custom, constructor from yaml or code, no finalizers added by katalog', () => {
    const yaml = `spec:\n  finalizers: [example.io/audit]\n  crds:\n    database:\n      apiTypes: ${API('Database')}\n      operatorBox:\n        default: false\n        constructor: { function: NewDatabase }\n`;
    const crd = crdOf(yaml, 'database');
    const code = new CodeRegistry();
    code.registerConstructor('NewDatabase', factory);
    assert.deepEqual(reconcilerInfo(crd, code.resolve(crd)), {
      type: 'custom',
      hooks: { configured: false, source: null, function: null },
      constructor: { configured: true, source: 'yaml', function: 'NewDatabase' },
      finalizers: { values: [], source: 'code' },
      templates: {},
    });
    const direct = new CodeRegistry();
    direct.registerCrdConstructor('database', factory);
    assert.deepEqual(reconcilerInfo(crd, direct.resolve(crd)).constructor, { configured: true, source: 'code', function: 'NewDatabase' });
  });

  test('declared finalizers (Katalog-wide and the CRD own) follow the cleanup finalizer, once each', () => {
    const yaml = `spec:\n  finalizers: [example.io/audit]\n  crds:\n    website:\n      apiTypes: ${API('Website')}\n      operatorBox:\n        finalizers: [katalog.dev/cleanup, example.io/dns]\n`;
    const crd = crdOf(yaml, 'website');
    assert.deepEqual(reconcilerInfo(crd, undefined).finalizers, { values: ['katalog.dev/cleanup', 'example.io/audit', 'example.io/dns'], source: 'yaml' });
  });

  test('templates are counted per phase and kind, in phase and kind order, leaving out empty ones', () => {
    const yaml = [
      'spec:',
      '  crds:',
      '    website:',
      `      apiTypes: ${API('Website')}`,
      '      operatorBox:',
      '        onCreate:',
      '          services: [{ name: web, port: 80 }]',
      '          deployments: [{ name: web, image: nginx }, { name: worker, image: busybox }]',
      '        onDelete:',
      '          configMaps: [{ name: goodbye, data: { a: b } }]',
    ].join('\n');
    const info = reconcilerInfo(crdOf(yaml, 'website'), undefined);
    assert.deepEqual(info.templates, { onCreate: { deployments: 2, services: 1 }, onDelete: { configMaps: 1 } });
    assert.equal(JSON.stringify(info.templates), '{"onCreate":{"deployments":2,"services":1},"onDelete":{"configMaps":1}}');
  });
});
