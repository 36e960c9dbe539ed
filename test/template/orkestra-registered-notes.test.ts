// Notes the catalog audit added or corrected in the Orkestra dialect, each row pinned against the Orkestra file it
// comes from (name @ commit):
// - names Orkestra's code registers that its catalog (pkg/note/catalog_generated.go @ eacb2604) does not list;
// - catalog names katalog's own table defined with a different meaning: add sub mul min max mod len toJson, and
//   toJSON asString (Go's encoding/json escapes <, > and &);
// - `X | default Y`, whose fast path used Go's truth where Orkestra's default also empties "<no value>".
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TemplateError } from '../../src/errors.js';
import { compileTemplate, type TemplateData } from '../../src/template/index.js';

const CONTAINER = 'iAlexeze/orkestra pkg/note/kube_container.go @ 24feabff7bc2895377559d33fdaffa3b2889693b';
const CONTAINER_LATER = 'iAlexeze/orkestra pkg/note/kube_container.go (the stored version after 24feabff that adds hasContainerPort)';
const KUBERNETES = 'iAlexeze/orkestra pkg/note/kubernetes.go @ 1ee60aa970afaebb1a74215fb9ce658887dc956a';
const TYPES = 'iAlexeze/orkestra pkg/note/types.go @ 31fdb40858c71acedcbdaeafa58a374579f60828';
const LISTMAP = 'orkspace/orkestra pkg/note/listmap.go @ eacb2604bc775f58156f6f49907c4e5d494ebf30';
const MATH = 'iAlexeze/orkestra pkg/note/math.go @ bac5626edcae4aa79e09514d29f2415546d94885';
const DATA = 'iAlexeze/orkestra pkg/note/data.go @ 636a8b5eac77c66031fe57fd8741bda53c8f0470 (toJSON: json.Marshal)';
const AS = 'iAlexeze/orkestra pkg/note/as.go @ a6f4b734945200ec6d5f32992b3ef1ed31fcad79 (asString)';
const CONDITIONAL = 'pkg/note/catalog_generated.go @ eacb2604 (conditional: default, empty)';

const deployment = {
  metadata: { name: 'web', namespace: 'shop' },
  spec: { template: { spec: { containers: [{ ports: [{ name: 'http', containerPort: 8080 }, { containerPort: 9090 }] }, { ports: [{ name: 'metrics', containerPort: '9100' }] }] } } },
};
const data: TemplateData = {
  metadata: { name: 'site', namespace: 'prod', labels: { app: 'web', tier: 'front', env: 'prod' } },
  spec: { image: 'nginx', replicas: 3, regions: [], name: 'héllo', config: { a: '<b> & c' }, mode: '<no value>' },
  children: { deployment },
};

const ROWS: ReadonlyArray<readonly [string, unknown, string]> = [
  // names the code registers beyond the catalog
  ['{{ name .children.deployment }}', 'web', KUBERNETES],
  ['{{ namespace .children.deployment }}', 'shop', KUBERNETES],
  ['[{{ name .children.missing }}]', '[]', KUBERNETES],
  ['{{ isEmpty .spec.regions }}', true, TYPES],
  ['{{ isEmpty .spec.missing }}', true, TYPES],
  ['{{ isEmpty "" }}', true, TYPES],
  ['{{ isEmpty 0 }}', false, TYPES],
  ['{{ isEmpty false }}', false, TYPES],
  ['{{ isEmpty .metadata.labels }}', false, TYPES],
  ['{{ isScalar .spec.image }}', true, TYPES],
  ['{{ isScalar 3 }}', true, TYPES],
  ['{{ isScalar .spec.regions }}', false, TYPES],
  ['{{ isScalar .spec.missing }}', false, TYPES],
  ['{{ isComposite .spec.regions }}', true, TYPES],
  ['{{ isComposite .metadata.labels }}', true, TYPES],
  ['{{ isComposite "x" }}', false, TYPES],
  ['{{ toJSON (mapPick .metadata.labels "app" "env" "absent") }}', '{"app":"web","env":"prod"}', LISTMAP],
  ['{{ toJSON (mapOmit .metadata.labels "tier") }}', '{"app":"web","env":"prod"}', LISTMAP],
  ['{{ toJSON (mapPick .spec.image "a") }}', '{}', LISTMAP],
  ['{{ toJSON (mapOmit .spec.missing "a") }}', '{}', LISTMAP],
  ['{{ containerPortByName .children.deployment 0 "http" }}', 8080, CONTAINER],
  ['{{ containerPortByName .children.deployment 1 "metrics" }}', 9100, CONTAINER],
  ['{{ containerPortByName .children.deployment 0 "grpc" }}', 0, CONTAINER],
  ['{{ containerPortByName .children.deployment 0 "" }}', 0, CONTAINER_LATER],
  ['{{ containerPortByName .children.deployment 5 "http" }}', 0, CONTAINER],
  ['{{ hasContainerPort .children.deployment 0 9090 }}', true, CONTAINER_LATER],
  ['{{ hasContainerPort .children.deployment 1 9100 }}', true, CONTAINER_LATER],
  ['{{ hasContainerPort .children.deployment 1 8080 }}', false, CONTAINER_LATER],
  ['{{ hasContainerPort .children.missing 0 8080 }}', false, CONTAINER_LATER],
  // arithmetic and len as Orkestra computes them
  ['{{ add true 1 }}', 2, MATH],
  ['{{ sub 5 false }}', 5, MATH],
  ['{{ mul true 4 }}', 4, MATH],
  ['{{ max true 0 }}', 1, MATH],
  ['{{ min "2.5" 3 }}', 2.5, MATH],
  ['{{ add .spec.replicas "2" }}', 5, MATH],
  ['{{ mod 7.5 2 }}', 1, MATH],
  ['{{ mod 8080 100 }}', 80, MATH],
  ['{{ mod -7 3 }}', -1, MATH],
  ['{{ mod 9 3 }}', 0, MATH],
  ['{{ len .spec.name }}', 6, TYPES],
  ['{{ len .spec.replicas }}', 0, TYPES],
  ['{{ len true }}', 0, TYPES],
  ['{{ len .spec.missing }}', 0, TYPES],
  ['{{ len .metadata.labels }}', 3, TYPES],
  ['{{ len .spec.regions }}', 0, TYPES],
  // JSON as Go's encoding/json writes it
  ['{{ toJSON .spec.config }}', '{"a":"\\u003cb\\u003e \\u0026 c"}', DATA],
  ['{{ toJson .spec.config }}', '{"a":"\\u003cb\\u003e \\u0026 c"}', TYPES],
  ['{{ toJSON .spec.missing }}', 'null', DATA],
  ['{{ asString .spec.config }}', '{"a":"\\u003cb\\u003e \\u0026 c"}', AS],
  ['{{ asString "<a>" }}', '<a>', AS],
  ['{{ asString .spec.missing }}', 'null', AS],
  ['{{ asString 3 }}', '3', AS],
  ['{{ asString true }}', 'true', AS],
  // default: "<no value>" is empty, also through the `X | default Y` fast path
  ['{{ .spec.mode | default "strict" }}', 'strict', CONDITIONAL],
  ['mode={{ .spec.mode | default "strict" }}', 'mode=strict', CONDITIONAL],
  ['{{ default "strict" .spec.mode }}', 'strict', CONDITIONAL],
  ['{{ .spec.image | default "busybox" }}', 'nginx', CONDITIONAL],
];

const render = (source: string, dialect: 'orkestra' | 'katalog' = 'orkestra'): unknown => compileTemplate(source, { name: 't', dialect }).render(data);

describe('Orkestra notes beyond the catalog, and catalog names whose meaning differed (Orkestra dialect)', () => {
  for (const [source, expected, origin] of ROWS) {
    test(`${source} → ${JSON.stringify(expected)}  [${origin}]`, () => {
      assert.deepEqual(render(source), expected);
    });
  }

  test('errors where Orkestra errors: a divisor that cuts to 0, a key that is not a text', () => {
    assert.throws(() => render('{{ mod 7 0.5 }}'), (e: unknown) => e instanceof TemplateError && /division by zero/.test(e.message));
    assert.throws(() => render('{{ mapPick .metadata.labels 3 }}'), (e: unknown) => e instanceof TemplateError && /key 1 must be a text/.test(e.message));
  });

  test("the katalog dialect keeps katalog's meanings and does not define the new names", () => {
    assert.equal(render('{{ len .spec.name }}', 'katalog'), 5);
    assert.equal(render('{{ mod 7.5 2 }}', 'katalog'), 1.5);
    assert.equal(render('{{ toJson .spec.config }}', 'katalog'), '{"a":"<b> & c"}');
    assert.equal(render('{{ .spec.mode | default "strict" }}', 'katalog'), '<no value>');
    assert.throws(() => render('{{ len .spec.replicas }}', 'katalog'), /has no length/);
    for (const call of ['name .', 'isEmpty .', 'mapPick . "a"', 'hasContainerPort . 0 80']) {
      assert.throws(() => render(`{{ ${call} }}`, 'katalog'), (e: unknown) => e instanceof TemplateError && /not defined/.test(e.message), call);
    }
  });
});
