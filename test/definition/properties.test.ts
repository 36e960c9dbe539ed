// Property tests: normalising is idempotent across equivalent inputs (map form, list form, YAML text, and a
// definition written back with definitionToInput), and what the loader accepts the schemas accept too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { Value } from 'typebox/value';
import { Compile } from 'typebox/schema';
import { normalizeDefinition, parseDefinition } from '../../src/definition/load.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { KatalogSchema } from '../../src/definition/schema.js';
import { editorSchema } from '../../src/definition/editor-schema.js';

const NAMES = ['web', 'db', 'cache', 'queue-1', 'api', 'store', 'a', 'z9'];
const options = { source: '/defs/katalog.yaml' };

const condition = fc.record(
  {
    field: fc.constantFrom('spec.tier', 'spec.replicas', 'metadata.name'),
    operator: fc.constantFrom('eq', 'equals', 'neq', 'notEquals', 'gt', 'greaterThan', 'min', 'max', 'contains', 'in'),
    value: fc.oneof(fc.constantFrom('gold', 'a,b'), fc.integer({ min: 0, max: 9 })),
    valueType: fc.constantFrom('string', 'int', 'float'),
  },
  { requiredKeys: ['field', 'operator', 'value'] },
).filter((c) => c.valueType === undefined || c.valueType === 'string' || typeof c.value === 'number');

const entry = fc.record(
  {
    name: fc.constantFrom('{{ .metadata.name }}-x', 'fixed', '{{ printf "%s-y" .metadata.name }}'),
    image: fc.constantFrom('nginx', '{{ .spec.image | default "nginx" }}'),
    port: fc.integer({ min: 1, max: 65535 }),
    labels: fc.dictionary(fc.constantFrom('app', 'tier', 'example.io/team'), fc.constantFrom('x', '{{ .spec.tier }}'), { maxKeys: 2 }),
    reconcile: fc.boolean(),
    when: fc.array(condition, { maxLength: 2 }),
    anyOf: fc.array(condition, { maxLength: 2 }),
  },
  { requiredKeys: ['name'] },
);

const phase = fc.record({ deployments: fc.array(entry, { maxLength: 2 }), configMaps: fc.array(entry, { maxLength: 2 }) }, { requiredKeys: [] });

const operatorBox = fc.oneof(
  fc.record(
    {
      finalizers: fc.array(fc.constantFrom('a.io/one', 'b.io/two'), { maxLength: 2 }),
      onCreate: phase,
      onReconcile: phase,
      hooks: fc.record({ function: fc.constantFrom('Hooks', 'Other'), runHooksFirst: fc.boolean() }, { requiredKeys: ['function'] }),
      status: fc.record({ conditions: fc.boolean(), fields: fc.array(fc.record({ path: fc.constant('phase'), value: fc.constantFrom('Ready', '{{ .spec.phase }}') }), { maxLength: 2 }) }, { requiredKeys: [] }),
    },
    { requiredKeys: [] },
  ),
  fc.constant({ default: false, constructor: { function: 'NewReconciler' } }),
);

const apiTypes = fc.oneof(
  fc.record({ kind: fc.constantFrom('ConfigMap', 'Deployment', 'Namespace') }),
  fc.record(
    { group: fc.constantFrom('example.io', ''), version: fc.constantFrom('v1', 'v2beta1'), kind: fc.constantFrom('Thing', 'Other'), plural: fc.constantFrom('things', 'others'), scope: fc.constantFrom('Namespaced', 'Cluster') },
    { requiredKeys: ['group', 'version', 'kind', 'plural'] },
  ),
);

/** A valid Katalog in map form: names unique, dependencies only on earlier-generated CRDs (so no cycles), none on disabled ones. */
const katalog = fc
  .shuffledSubarray(NAMES, { minLength: 1, maxLength: 6 })
  .chain((names) =>
    fc.tuple(
      fc.constant(names),
      fc.array(fc.boolean(), { minLength: names.length, maxLength: names.length }),
      fc.array(
        fc.record(
          {
            apiTypes,
            description: fc.constantFrom('one', 'two'),
            mode: fc.constantFrom('dynamic', 'typed'),
            namespace: fc.constantFrom('default', 'web'),
            labelSelector: fc.oneof(fc.constant('app=web'), fc.constant({ app: 'web', tier: 'gold' })),
            fieldSelector: fc.constant('metadata.name=x'),
            workers: fc.integer({ min: 1, max: 16 }),
            resync: fc.constantFrom('30s', '1m30s', '10m', '1h', '500ms'),
            queue: fc.record({ maxDepth: fc.integer({ min: 1, max: 5000 }), failureThreshold: fc.integer({ min: 1, max: 9 }) }, { requiredKeys: [] }),
            crdFile: fc.constantFrom('./crd.yaml', '/abs/crd.yaml'),
            operatorBox,
          },
          { requiredKeys: ['apiTypes'] },
        ),
        { minLength: names.length, maxLength: names.length },
      ),
      fc.array(fc.array(fc.tuple(fc.nat(), fc.constantFrom('started', 'healthy')), { maxLength: 3 }), { minLength: names.length, maxLength: names.length }),
      fc.array(fc.constantFrom('katalog.dev/cleanup', 'x.io/f'), { maxLength: 2 }),
    ),
  )
  .map(([names, enabled, entries, deps, finalizers]) => {
    const crds: Record<string, Record<string, unknown>> = {};
    names.forEach((name, i) => {
      const isEnabled = enabled[i] ?? true;
      const dependsOn: Record<string, string> = {};
      for (const [pick, condition] of deps[i] ?? []) {
        if (i === 0) break;
        const target = pick % i;
        if (isEnabled && !(enabled[target] ?? true)) continue;
        dependsOn[names[target] ?? ''] = condition;
      }
      crds[name] = { ...entries[i], ...(isEnabled ? {} : { enabled: false }), ...(Object.keys(dependsOn).length > 0 ? { dependsOn } : {}) };
    });
    return {
      apiVersion: 'katalog.dev/v1',
      kind: 'Katalog',
      metadata: { name: 'generated' },
      spec: { ...(finalizers.length > 0 ? { finalizers } : {}), crds },
    };
  });

type KatalogSample = typeof katalog extends fc.Arbitrary<infer T> ? T : never;

function listForm(input: KatalogSample): unknown {
  return { ...input, spec: { ...input.spec, crds: Object.entries(input.spec.crds).map(([name, body]) => ({ name, ...body })) } };
}

test('map form and list form normalise to the same definition', () => {
  fc.assert(
    fc.property(katalog, (input) => {
      assert.deepEqual(normalizeDefinition(listForm(input), options), normalizeDefinition(input, options));
    }),
    { numRuns: 150 },
  );
});

test('a definition written back with definitionToInput normalises to itself', () => {
  fc.assert(
    fc.property(katalog, (input) => {
      const once = normalizeDefinition(input, options);
      const twice = normalizeDefinition(definitionToInput(once), options);
      assert.deepEqual(twice, once);
      assert.deepEqual(definitionToInput(twice), definitionToInput(once));
    }),
    { numRuns: 150 },
  );
});

test('the YAML text of an input normalises like the object', () => {
  fc.assert(
    fc.property(katalog, (input) => {
      assert.deepEqual(parseDefinition(stringify(input), options), normalizeDefinition(input, options));
    }),
    { numRuns: 100 },
  );
});

test('what the loader accepts, the TypeBox schema and the editor schema accept', () => {
  const editor = Compile(editorSchema() as Parameters<typeof Compile>[0]);
  fc.assert(
    fc.property(katalog, (input) => {
      assert.ok(Value.Check(KatalogSchema, input));
      assert.ok(editor.Check(input));
      assert.ok(editor.Check(listForm(input)));
    }),
    { numRuns: 100 },
  );
});

test('the start order puts every dependency first', () => {
  fc.assert(
    fc.property(katalog, (input) => {
      const definition = normalizeDefinition(input, options);
      const at = new Map(definition.order.map((name, i) => [name, i]));
      for (const crd of definition.crds.values()) {
        assert.equal(at.has(crd.name), crd.enabled);
        if (!crd.enabled) continue;
        for (const dependency of crd.dependsOn) assert.ok((at.get(dependency.name) ?? Infinity) < (at.get(crd.name) ?? -1));
      }
    }),
    { numRuns: 100 },
  );
});
