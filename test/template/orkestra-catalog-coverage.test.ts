// Coverage of Orkestra's note catalog by the Orkestra dialect: every name of
// orkspace/orkestra pkg/note/catalog_generated.go @ eacb2604 (orkestra-catalog.ts) is either defined or refused at
// load with a reason; a catalog name that is merely "not defined" fails this test. Also pinned: the names Orkestra's
// code registers beyond its catalog, and the three names issue 13 lists that are user-defined notes of Orkestra's
// examples, not Orkestra functions.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TemplateError } from '../../src/errors.js';
import { compileTemplate } from '../../src/template/index.js';
import { lookupFunction } from '../../src/template/functions.js';
import { CATALOG_COMMIT, CATALOG_NAMES } from './orkestra-catalog.js';

const catalog = Object.values(CATALOG_NAMES).flat();

/** Why the Orkestra dialect refuses `name`, or undefined when compiling a call is an ordinary "not defined". */
function refusal(name: string): string | undefined {
  try {
    compileTemplate(`{{ ${name} }}`, { name: 't', dialect: 'orkestra' });
    return undefined;
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    return /katalog does not support/.test(error.message) ? error.message : undefined;
  }
}

describe(`Orkestra's note catalog (pkg/note/catalog_generated.go @ ${CATALOG_COMMIT.slice(0, 8)})`, () => {
  test('the fixture holds the catalog as read: 277 distinct names in 32 domains', () => {
    assert.equal(Object.keys(CATALOG_NAMES).length, 32);
    assert.equal(catalog.length, 277);
    assert.equal(new Set(catalog).size, 277);
  });

  test('every catalog name is defined by the Orkestra dialect or refused by name with a reason', () => {
    const silent = catalog.filter((name) => lookupFunction(name, 'orkestra') === undefined && refusal(name) === undefined);
    assert.deepEqual(silent, [], `catalog names neither defined nor refused: ${silent.join(', ')}`);
  });

  test('at this commit none is refused: all 277 are defined', () => {
    assert.deepEqual(catalog.filter((name) => lookupFunction(name, 'orkestra') === undefined), []);
  });

  test('the check can fail: a name no table defines is neither defined nor refused', () => {
    assert.equal(lookupFunction('notAnOrkestraNote', 'orkestra'), undefined);
    assert.equal(refusal('notAnOrkestraNote'), undefined);
  });

  test("names Orkestra's code registers beyond its catalog are defined too (functions-orkestra-registered.ts)", () => {
    // pkg/note/kube_container.go (iAlexeze/orkestra @ 24feabff and a later version), kubernetes.go @ 1ee60aa9,
    // types.go @ 31fdb408, listmap.go (orkspace/orkestra @ eacb2604).
    const registered = ['containerCount', 'containerPorts', 'containerPortByName', 'hasContainerPort', 'name', 'namespace', 'isEmpty', 'isScalar', 'isComposite', 'mapPick', 'mapOmit'];
    assert.deepEqual(registered.filter((name) => catalog.includes(name)), []);
    assert.deepEqual(registered.filter((name) => lookupFunction(name, 'orkestra') === undefined), []);
  });

  test('serviceHost, fullImage and appLabel are user-defined notes of the 09-notes examples, not Orkestra functions', () => {
    for (const name of ['serviceHost', 'fullImage', 'appLabel']) {
      assert.equal(catalog.includes(name), false, name);
      assert.equal(lookupFunction(name, 'orkestra'), undefined, name);
      const note = [{ name, expression: '{{ .metadata.name }}' }];
      assert.equal(compileTemplate(`{{ ${name} }}`, { name: 't', dialect: 'orkestra', notes: note }).render({ metadata: { name: 'web' } }), 'web');
    }
  });
});
