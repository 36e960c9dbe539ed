// Orkestra's template semantics, pinned row by row. Each row cites the Orkestra file (iAlexeze/orkestra at the
// given commit) that defines the behaviour; the same template in the katalog dialect keeps Sprig's semantics.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TemplateError } from '../../src/errors.js';
import { compileTemplate, type TemplateData } from '../../src/template/index.js';

const CONDITIONAL = 'pkg/note/conditional.go @ 1ee60aa970afaebb1a74215fb9ce658887dc956a';
const CONDITIONAL_EQ = 'pkg/note/conditional.go (the later version that adds eqTernary)';
const KUBE = 'pkg/note, kubernetesNotes(): get, hasCondition, ownerKind';
const REPLICA = 'pkg/note/kube_replica.go @ 55261a3efd33116e5f57a1a693d88f46fa1847f5';
const FIELDS = 'pkg/note/kube_fields.go @ 636a8b5eac77c66031fe57fd8741bda53c8f0470';
const CONTAINER = 'pkg/note/kube_container.go @ 24feabff7bc2895377559d33fdaffa3b2889693b';
const SAFE = 'pkg/note/docs/08-safe-access.md @ 30ba66cf08f37734840377e33eae4fde7113453d';

const deployment = {
  metadata: { name: 'web', namespace: 'prod', uid: 'u-1', ownerReferences: [{ kind: 'Website', name: 'site' }] },
  spec: { replicas: 3, template: { spec: { containers: [{ image: 'nginx:1.25', env: [{ name: 'APP_ENV', value: 'prod' }], ports: [{ containerPort: 80 }, { containerPort: 443 }] }] } } },
  status: { readyReplicas: 3, availableReplicas: 2, updatedReplicas: 1, conditions: [{ type: 'Available', status: 'True' }] },
};

const data: TemplateData = {
  metadata: { name: 'site', namespace: 'prod' },
  spec: { replicas: 2, image: 'nginx', tier: 'gold', debug: false, suspend: true, empty: '', noValue: '<no value>', count: 0 },
  children: { deployment, deployments: { web: deployment } },
};

function render(source: string, dialect: 'orkestra' | 'katalog' = 'orkestra'): unknown {
  return compileTemplate(source, { name: 't', dialect }).render(data);
}

// [template, Orkestra result, source, katalog-dialect result where it differs (or 'same')]
const ROWS: ReadonlyArray<readonly [string, unknown, string, unknown?]> = [
  ['{{ ternary .spec.debug "debug" "info" }}', 'info', CONDITIONAL, undefined],
  ['{{ ternary .spec.tier "on" "off" }}', 'on', CONDITIONAL],
  ['{{ default 1 .spec.replicas }}', 2, CONDITIONAL, 'same'],
  ['{{ default 1 .spec.missing }}', 1, CONDITIONAL, 'same'],
  ['{{ default .spec.replicas 1 }}', 1, CONDITIONAL, 'same'], // the fallback is always the first argument
  ['{{ .spec.missing | default "latest" }}', 'latest', CONDITIONAL, 'same'],
  ['{{ default "x" .spec.noValue }}', 'x', CONDITIONAL, '<no value>'], // "<no value>" counts as empty in Orkestra
  ['{{ empty .spec.noValue }}', true, CONDITIONAL, false],
  ['{{ notEmpty .spec.image }}', true, CONDITIONAL],
  ['{{ coalesce .spec.empty .spec.count .spec.image }}', 'nginx', CONDITIONAL, 'same'],
  ['{{ boolTernary .spec.suspend "Suspended" "Active" }}', 'Suspended', CONDITIONAL],
  ['{{ boolTernary (boolDefault .spec.missing false) "Suspended" "Active" }}', 'Active', CONDITIONAL],
  ['{{ eqTernary .spec.replicas "2" "two" "other" }}', 'two', CONDITIONAL_EQ],
  ['{{ get .children.deployment "status" "readyReplicas" }}', 3, KUBE],
  ['{{ get .children.deployment "status" "missing" "deeper" }}', undefined, KUBE],
  ['{{ hasCondition .children.deployment "Available" }}', true, KUBE],
  ['{{ ownerKind .children.deployment }}', 'Website', KUBE],
  ['{{ allReplicasReady .children.deployment }}', true, REPLICA],
  ['{{ allReplicasReady .children.missing }}', false, REPLICA], // desired defaults to 1, ready to 0
  ['{{ rolloutComplete .children.deployment }}', false, REPLICA],
  ['{{ availableReplicas .children.deployment }}', 2, REPLICA],
  ['{{ desiredReplicas .children.missing }}', 1, REPLICA],
  ['{{ resourceName .children.deployment }}', 'web', FIELDS],
  ['{{ resourceUID .children.missing }}', '', FIELDS],
  ['{{ containerImage .children.deployment 0 }}', 'nginx:1.25', CONTAINER],
  ['{{ containerImage .children.deployment 5 }}', '', CONTAINER],
  ['{{ containerEnv .children.deployment 0 "APP_ENV" }}', 'prod', CONTAINER],
  ['{{ containerPorts .children.deployment 0 }}', '80,443', CONTAINER],
  ['{{ containerCount .children.deployment }}', 1, CONTAINER],
  ['{{ getIntOr .spec.replicas 1 }}', 2, SAFE],
  ['{{ getIntOr .spec.image 1 }}', 1, SAFE], // a string is not accepted
  ['{{ getStringOr .spec.replicas "x" }}', 'x', SAFE],
  ['{{ getStringOr .spec.image "x" }}', 'nginx', SAFE],
  ['{{ getBoolOr .spec.suspend false }}', true, SAFE],
  ['{{ getOr .spec.empty "fallback" }}', 'fallback', SAFE],
];

describe('Orkestra dialect', () => {
  for (const [source, expected, cited, katalog] of ROWS) {
    test(`${source} → ${JSON.stringify(expected)} (${cited})`, () => {
      assert.deepEqual(render(source), expected);
      if (katalog === 'same') assert.deepEqual(render(source, 'katalog'), expected);
      else if (katalog !== undefined) assert.deepEqual(render(source, 'katalog'), katalog);
    });
  }

  test('ternary: Orkestra puts the condition first, Sprig last (pkg/note/conditional.go)', () => {
    assert.equal(render('{{ ternary true "a" "b" }}'), 'a');
    assert.equal(render('{{ ternary "a" "b" true }}', 'katalog'), 'a');
    assert.equal(render('{{ ternary "a" "b" false }}', 'katalog'), 'b');
  });

  test('random notes: exact lengths and alphabets (pkg/note/docs/06-random.md @ 30ba66cf08f37734840377e33eae4fde7113453d)', () => {
    assert.match(String(render('{{ randomAlphanumeric 32 }}')), /^[A-Za-z0-9]{32}$/);
    assert.match(String(render('{{ randomHex 16 }}')), /^[0-9a-f]{32}$/);
    assert.match(String(render('{{ randomBase64 32 }}')), /^[A-Za-z0-9_-]{43}=$/);
    assert.match(String(render('{{ uuidv4 }}')), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(render('{{ randomAlphanumeric 32 }}'), render('{{ randomAlphanumeric 32 }}'));
  });

  test('Orkestra-only functions do not exist in the katalog dialect', () => {
    assert.throws(() => compileTemplate('{{ allReplicasReady .children.deployment }}'), (error: unknown) => error instanceof TemplateError && error.code === 'E_TEMPLATE_FUNCTION');
    assert.throws(() => compileTemplate('{{ randomAlphanumeric 3 }}', { dialect: 'katalog' }), TemplateError);
  });

  test('every katalog function Orkestra does not redefine stays available (printf, upper, index)', () => {
    assert.equal(render('{{ printf "%s-%d" .metadata.name 3 | upper }}'), 'SITE-3');
    assert.equal(render('{{ index .spec "tier" }}'), 'gold');
  });
});
