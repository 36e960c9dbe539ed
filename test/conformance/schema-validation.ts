// Validation and defaulting of custom resources against their CRD's structural schema, as kube-apiserver 1.37.2
// answers them (every expectation here was probed on it): the 422 Invalid Status of each value validation (type,
// required, enum, numeric bounds, lengths, pattern, item and property counts, formats, list-type set and map,
// additionalProperties, allOf/anyOf/oneOf/not), where nulls are pruned, defaulted, kept or refused, defaults on
// create, update, merge and JSON patch, server-side apply and read, the status subresource, ratcheting after a schema
// is tightened, and the same refusal through every write. A 422's message is `<Kind>.<group> "<name>" is invalid: `
// and then its one cause as `<field>: <message>`, or several as `[<field>: <message>, ...]`. Each body below has one
// problem where kube-apiserver's order of several would be random (it walks an object's properties in Go's map
// order); several errors of one value, of one object's `required` list, of list items (in index order) and of the
// list-type pass (always after the schema pass) come in a fixed order, which is asserted.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, waitFor, type Backend, type Json } from './backend.js';
import { answered, invalidAnswer, type Answered, type Cause } from './invalid-answer.js';
import { raw, type RawAnswer } from './raw-http.js';

const GROUP = 'schema.conformance.katalog.dev';
const API_VERSION = `${GROUP}/v1`;
const SPROCKETS = `/apis/${GROUP}/v1/namespaces/default/sprockets`;
const COGS = `/apis/${GROUP}/v1/namespaces/default/cogs`;
const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';

const str = { type: 'string' };
const int = { type: 'integer' };

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `sprockets.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { kind: 'Sprocket', plural: 'sprockets', singular: 'sprocket', listKind: 'SprocketList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  size: int,
                  ratio: { type: 'number' },
                  enabled: { type: 'boolean' },
                  title: str,
                  config: { type: 'object', properties: { a: str } },
                  words: { type: 'array', items: str },
                  port: { 'x-kubernetes-int-or-string': true },
                  note: str,
                  remark: { type: 'string', nullable: true },
                  mode: { type: 'string', default: 'auto' },
                  color: { type: 'string', enum: ['red', 'green'] },
                  level: { type: 'integer', enum: [1, 2, 3] },
                  count: { type: 'integer', minimum: 1, maximum: 10 },
                  above: { type: 'integer', minimum: 0, exclusiveMinimum: true },
                  below: { type: 'integer', maximum: 10, exclusiveMaximum: true },
                  step: { type: 'integer', multipleOf: 5 },
                  half: { type: 'number', multipleOf: 0.5 },
                  short: { type: 'string', minLength: 3, maxLength: 5 },
                  code: { type: 'string', pattern: '^[a-z]+$' },
                  few: { type: 'array', minItems: 1, maxItems: 2, items: str },
                  props: { type: 'object', minProperties: 1, maxProperties: 2, additionalProperties: str },
                  when: { type: 'string', format: 'date-time' },
                  id: { type: 'string', format: 'uuid' },
                  small: { type: 'integer', format: 'int32' },
                  blob: { type: 'string', format: 'byte' },
                  odd: { type: 'string', format: 'made-up' },
                  tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: str },
                  ports: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['name'],
                    items: { type: 'object', required: ['name'], properties: { name: str, port: int } },
                  },
                  counts: { type: 'object', additionalProperties: int },
                  both: { type: 'integer', allOf: [{ minimum: 1 }, { maximum: 5 }] },
                  either: { type: 'string', anyOf: [{ minLength: 5 }, { pattern: '^x' }] },
                  one: { type: 'integer', oneOf: [{ minimum: 5 }, { maximum: 10 }] },
                  never: { type: 'string', not: { pattern: '^x' } },
                  server: { type: 'object', required: ['host'], properties: { host: str, port: int } },
                  pair: { type: 'object', required: ['zeta', 'alpha'], properties: { alpha: str, zeta: str } },
                  parts: { type: 'array', items: { type: 'object', properties: { size: int } } },
                  nested: { type: 'object', properties: { level: { type: 'string', default: 'low' }, other: str } },
                  limits: { type: 'object', default: {}, properties: { cpu: { type: 'integer', default: 1 }, memory: str } },
                  workers: { type: 'array', items: { type: 'object', properties: { name: str, replicas: { type: 'integer', default: 1 } } } },
                },
              },
              status: {
                type: 'object',
                properties: {
                  phase: { type: 'string', enum: ['Pending', 'Running'] },
                  ready: { type: 'boolean' },
                  stats: { type: 'object', required: ['total'], properties: { total: { type: 'integer', maximum: 5 } } },
                },
              },
            },
          },
        },
      },
    ],
  },
};

/** What every Sprocket's spec gets when it names neither: `mode` and `limits` (with `limits.cpu` inside) have defaults. */
const DEFAULTS = { limits: { cpu: 1 }, mode: 'auto' };

/** The Cog CRD of the ratcheting test: loose at first, then tightened (and given a default). */
function cogCrd(tight: boolean): unknown {
  const spec = tight
    ? { limit: { type: 'integer', maximum: 5 }, label: str, tags: { type: 'array', items: { type: 'string', maxLength: 3 } }, fresh: { type: 'string', default: 'dflt' } }
    : { limit: int, label: str, tags: { type: 'array', items: str } };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `cogs.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { kind: 'Cog', plural: 'cogs', singular: 'cog', listKind: 'CogList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: spec } } } } }],
    },
  };
}

/** kube-apiserver's 422 for `name` with these causes, in this order. */
function invalid(name: string, causes: Cause[], kind = 'Sprocket'): Answered {
  return invalidAnswer(GROUP, kind, name, causes);
}

function specOf(answer: RawAnswer): unknown {
  return answer.body['spec'];
}

function resourceVersion(object: Json | Record<string, unknown>): string {
  return String((object['metadata'] as Record<string, unknown>)['resourceVersion']);
}

function sprocketText(name: string, spec: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ apiVersion: API_VERSION, kind: 'Sprocket', metadata: { name }, spec, ...extra });
}

async function create(backend: Backend, spec: unknown, extra: Record<string, unknown> = {}): Promise<{ name: string; answer: RawAnswer }> {
  const name = unique('sprocket');
  return { name, answer: await raw(backend.kubeConfig, 'POST', SPROCKETS, sprocketText(name, spec, extra)) };
}

function applySprocket(backend: Backend, name: string, spec: unknown, query = ''): Promise<RawAnswer> {
  return raw(backend.kubeConfig, 'PATCH', `${SPROCKETS}/${name}?fieldManager=schema${query}`, sprocketText(name, spec), APPLY);
}

/** Creates a Sprocket of each spec; each must be refused with exactly these causes, and nothing stored. */
async function refusedOnCreate(backend: Backend, cases: Array<[unknown, Cause[]]>): Promise<void> {
  for (const [spec, causes] of cases) {
    const { name, answer } = await create(backend, spec);
    assert.deepEqual(answered(answer), invalid(name, causes), JSON.stringify(spec));
    assert.equal(await backend.get(API_VERSION, 'Sprocket', name), undefined, `nothing stored for ${JSON.stringify(spec)}`);
  }
}

/** Creates a Sprocket of each spec; each must be created, answered and stored with this spec. */
async function acceptedOnCreate(backend: Backend, cases: Array<[unknown, unknown]>): Promise<void> {
  for (const [spec, stored] of cases) {
    const { name, answer } = await create(backend, spec);
    assert.equal(answer.status, 201, `${JSON.stringify(spec)}: ${String(answer.body['message'])}`);
    assert.deepEqual(specOf(answer), stored, `answered for ${JSON.stringify(spec)}`);
    assert.deepEqual((await backend.get(API_VERSION, 'Sprocket', name))?.spec, stored, `stored for ${JSON.stringify(spec)}`);
  }
}

function typeInvalid(field: string, want: string, got: string): Cause {
  return ['FieldValueTypeInvalid', field, `Invalid value: "${got}": ${field} in body must be of type ${want}: "${got}"`];
}

export function schemaValidationSuite(backend: () => Backend): void {
  describe('custom resource schema validation and defaulting', () => {
    test('a value of the wrong type: FieldValueTypeInvalid naming the JSON type it got; an integral number is an integer', async () => {
      await backend().applyCrd(crd);
      await refusedOnCreate(backend(), [
        [{ size: 'big' }, [['FieldValueTypeInvalid', 'spec.size', 'Invalid value: "string": spec.size in body must be of type integer: "string"']]],
        [{ size: false }, [['FieldValueTypeInvalid', 'spec.size', 'Invalid value: "boolean": spec.size in body must be of type integer: "boolean"']]],
        [{ ratio: 'half' }, [['FieldValueTypeInvalid', 'spec.ratio', 'Invalid value: "string": spec.ratio in body must be of type number: "string"']]],
        [{ enabled: 'yes' }, [['FieldValueTypeInvalid', 'spec.enabled', 'Invalid value: "string": spec.enabled in body must be of type boolean: "string"']]],
        [{ title: 5 }, [['FieldValueTypeInvalid', 'spec.title', 'Invalid value: "integer": spec.title in body must be of type string: "integer"']]],
        [{ title: true }, [['FieldValueTypeInvalid', 'spec.title', 'Invalid value: "boolean": spec.title in body must be of type string: "boolean"']]],
        [{ title: ['a', 1] }, [['FieldValueTypeInvalid', 'spec.title', 'Invalid value: "array": spec.title in body must be of type string: "array"']]],
        [{ config: ['a'] }, [['FieldValueTypeInvalid', 'spec.config', 'Invalid value: "array": spec.config in body must be of type object: "array"']]],
        [{ config: 'x' }, [['FieldValueTypeInvalid', 'spec.config', 'Invalid value: "string": spec.config in body must be of type object: "string"']]],
        [{ words: 'x' }, [['FieldValueTypeInvalid', 'spec.words', 'Invalid value: "string": spec.words in body must be of type array: "string"']]],
        // An object where the schema has no fields: also an unknown-field Warning per key (not asserted here).
        [{ words: { a: 1 } }, [['FieldValueTypeInvalid', 'spec.words', 'Invalid value: "object": spec.words in body must be of type array: "object"']]],
        [{ size: { a: 1 } }, [['FieldValueTypeInvalid', 'spec.size', 'Invalid value: "object": spec.size in body must be of type integer: "object"']]],
        [{ port: true }, [['FieldValueTypeInvalid', 'spec.port', 'Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"']]],
        [{ port: 1.5 }, [['FieldValueTypeInvalid', 'spec.port', 'Invalid value: "number": spec.port in body must be of type integer,string: "number"']]],
        [{ props: { a: 1 } }, [['FieldValueTypeInvalid', 'spec.props.a', 'Invalid value: "integer": spec.props.a in body must be of type string: "integer"']]],
        [{ counts: { a: 'x' } }, [['FieldValueTypeInvalid', 'spec.counts.a', 'Invalid value: "string": spec.counts.a in body must be of type integer: "string"']]],
        // A fraction for an integer: the type error, then the format check's error with no field ("<nil>").
        [
          { size: 1.5 },
          [
            ['FieldValueTypeInvalid', 'spec.size', 'Invalid value: "number": spec.size in body must be of type integer: "number"'],
            ['FieldValueInvalid', '<nil>', 'Invalid value: "": Checked value must be of type integer (default format) in spec.size'],
          ],
        ],
      ]);
      await acceptedOnCreate(backend(), [
        [{ port: '50%' }, { ...DEFAULTS, port: '50%' }],
        [{ port: 80 }, { ...DEFAULTS, port: 80 }],
        [{ ratio: 3 }, { ...DEFAULTS, ratio: 3 }],
      ]);
      // 2.0 and 1e3 in the JSON text are integers (stored as 2 and 1000).
      for (const [text, stored] of [['2.0', 2], ['1e3', 1000]] as const) {
        const name = unique('sprocket');
        const answer = await raw(backend().kubeConfig, 'POST', SPROCKETS, `{"apiVersion":"${API_VERSION}","kind":"Sprocket","metadata":{"name":"${name}"},"spec":{"size":${text}}}`);
        assert.equal(answer.status, 201, text);
        assert.deepEqual(specOf(answer), { ...DEFAULTS, size: stored }, text);
      }
    });

    test('nulls on create, update and patches: pruned where neither nullable nor defaulted, kept where nullable, defaulted where there is a default; a null list item is refused', async () => {
      await backend().applyCrd(crd);
      await acceptedOnCreate(backend(), [
        [{ note: null, size: 1 }, { ...DEFAULTS, size: 1 }],
        [{ config: null }, DEFAULTS],
        [{ color: null }, DEFAULTS],
        [{ counts: { a: null } }, { ...DEFAULTS, counts: {} }],
        [{ remark: null }, { ...DEFAULTS, remark: null }],
        [{ mode: null }, DEFAULTS],
        [{ limits: null }, DEFAULTS],
      ]);
      await refusedOnCreate(backend(), [
        [{ words: ['a', null] }, [typeInvalid('spec.words[1]', 'string', 'null')]],
        [{ workers: [null] }, [typeInvalid('spec.workers[0]', 'object', 'null')]],
        [{ ports: [{ name: 'a' }, null] }, [typeInvalid('spec.ports[1]', 'object', 'null')]],
      ]);
      // A null spec is pruned too: the object has no spec at all (and so no defaults).
      const { name: bare, answer: bareAnswer } = await create(backend(), null);
      assert.equal(bareAnswer.status, 201);
      assert.equal(Object.hasOwn(bareAnswer.body, 'spec'), false);
      assert.equal(Object.hasOwn((await backend().get(API_VERSION, 'Sprocket', bare)) ?? {}, 'spec'), false);

      const kc = backend().kubeConfig;
      const { name, answer } = await create(backend(), { note: 'x', size: 1 });
      assert.equal(answer.status, 201);
      const jsonPatch = [
        { op: 'replace', path: '/spec/note', value: null },
        { op: 'add', path: '/spec/remark', value: null },
        { op: 'replace', path: '/spec/mode', value: null },
      ];
      const patched = await raw(kc, 'PATCH', `${SPROCKETS}/${name}`, JSON.stringify(jsonPatch), JSON_PATCH);
      assert.equal(patched.status, 200);
      assert.deepEqual(specOf(patched), { ...DEFAULTS, remark: null, size: 1 }, 'JSON patch: note pruned, remark kept null, mode defaulted');
      const refused = await raw(kc, 'PATCH', `${SPROCKETS}/${name}`, JSON.stringify([{ op: 'add', path: '/spec/words', value: ['a', null] }]), JSON_PATCH);
      assert.deepEqual(answered(refused), invalid(name, [typeInvalid('spec.words[1]', 'string', 'null')]));
      const put = await raw(kc, 'PUT', `${SPROCKETS}/${name}`, JSON.stringify({ apiVersion: API_VERSION, kind: 'Sprocket', metadata: { name, resourceVersion: resourceVersion(patched.body) }, spec: { note: null, size: 2, remark: 'r' } }));
      assert.equal(put.status, 200);
      assert.deepEqual(specOf(put), { ...DEFAULTS, remark: 'r', size: 2 }, 'PUT: note pruned');
      const merged = await raw(kc, 'PATCH', `${SPROCKETS}/${name}`, JSON.stringify({ spec: { remark: null } }), MERGE);
      assert.equal(merged.status, 200);
      assert.deepEqual(specOf(merged), { ...DEFAULTS, size: 2 }, 'a merge patch null removes even a nullable field');
      assert.deepEqual((await backend().get(API_VERSION, 'Sprocket', name))?.spec, { ...DEFAULTS, size: 2 });
    });

    test('nulls in server-side apply are not pruned: a null without a default is refused, a defaulted one gets its default, a nullable one is kept', async () => {
      await backend().applyCrd(crd);
      const refusedCases: Array<[unknown, Cause]> = [
        [{ note: null }, typeInvalid('spec.note', 'string', 'null')],
        [{ config: null }, typeInvalid('spec.config', 'object', 'null')],
        [{ counts: { a: null } }, typeInvalid('spec.counts.a', 'integer', 'null')],
        [{ words: ['a', null] }, typeInvalid('spec.words[1]', 'string', 'null')],
        [null, typeInvalid('spec', 'object', 'null')],
      ];
      for (const [spec, cause] of refusedCases) {
        const name = unique('sprocket');
        assert.deepEqual(answered(await applySprocket(backend(), name, spec)), invalid(name, [cause]), JSON.stringify(spec));
        assert.equal(await backend().get(API_VERSION, 'Sprocket', name), undefined);
      }
      const acceptedCases: Array<[unknown, unknown]> = [
        [{ mode: null }, DEFAULTS],
        [{ limits: null }, DEFAULTS],
        [{ remark: null }, { ...DEFAULTS, remark: null }],
      ];
      for (const [spec, stored] of acceptedCases) {
        const name = unique('sprocket');
        const answer = await applySprocket(backend(), name, spec);
        assert.equal(answer.status, 201, `${JSON.stringify(spec)}: ${String(answer.body['message'])}`);
        assert.deepEqual(specOf(answer), stored, JSON.stringify(spec));
        assert.deepEqual((await backend().get(API_VERSION, 'Sprocket', name))?.spec, stored, JSON.stringify(spec));
      }
    });

    test('required: one Required cause per missing field, in the order the schema lists them', async () => {
      await backend().applyCrd(crd);
      await refusedOnCreate(backend(), [
        [{ server: { port: 1 } }, [['FieldValueRequired', 'spec.server.host', 'Required value']]],
        [{ pair: { zeta: 'z' } }, [['FieldValueRequired', 'spec.pair.alpha', 'Required value']]],
        [
          { pair: {} },
          [
            ['FieldValueRequired', 'spec.pair.zeta', 'Required value'],
            ['FieldValueRequired', 'spec.pair.alpha', 'Required value'],
          ],
        ],
        [{ ports: [{ port: 1 }] }, [['FieldValueRequired', 'spec.ports[0].name', 'Required value']]],
        // Two items without their map key: each is Required (schema pass), then the second a Duplicate of the
        // first's empty key (list-type pass).
        [
          { ports: [{ port: 1 }, { port: 2 }] },
          [
            ['FieldValueRequired', 'spec.ports[0].name', 'Required value'],
            ['FieldValueRequired', 'spec.ports[1].name', 'Required value'],
            ['FieldValueDuplicate', 'spec.ports[1]', 'Duplicate value: {}'],
          ],
        ],
      ]);
    });

    test('enum: FieldValueNotSupported listing the allowed values as quoted strings, numbers too', async () => {
      await backend().applyCrd(crd);
      await refusedOnCreate(backend(), [
        [{ color: 'blue' }, [['FieldValueNotSupported', 'spec.color', 'Unsupported value: "blue": supported values: "red", "green"']]],
        [{ level: 7 }, [['FieldValueNotSupported', 'spec.level', 'Unsupported value: 7: supported values: "1", "2", "3"']]],
        [
          { level: 'x' },
          [
            ['FieldValueTypeInvalid', 'spec.level', 'Invalid value: "string": spec.level in body must be of type integer: "string"'],
            ['FieldValueNotSupported', 'spec.level', 'Unsupported value: "x": supported values: "1", "2", "3"'],
          ],
        ],
      ]);
      await acceptedOnCreate(backend(), [[{ color: 'red', level: 2 }, { ...DEFAULTS, color: 'red', level: 2 }]]);
    });

    test('numeric bounds: minimum, maximum, their exclusive forms and multipleOf', async () => {
      await backend().applyCrd(crd);
      await refusedOnCreate(backend(), [
        [{ count: 0 }, [['FieldValueInvalid', 'spec.count', 'Invalid value: 0: spec.count in body should be greater than or equal to 1']]],
        [{ count: 11 }, [['FieldValueInvalid', 'spec.count', 'Invalid value: 11: spec.count in body should be less than or equal to 10']]],
        [{ above: 0 }, [['FieldValueInvalid', 'spec.above', 'Invalid value: 0: spec.above in body should be greater than 0']]],
        [{ below: 10 }, [['FieldValueInvalid', 'spec.below', 'Invalid value: 10: spec.below in body should be less than 10']]],
        [{ step: 7 }, [['FieldValueInvalid', 'spec.step', 'Invalid value: 7: spec.step in body should be a multiple of 5']]],
        [{ half: 0.7 }, [['FieldValueInvalid', 'spec.half', 'Invalid value: 0.7: spec.half in body should be a multiple of 0.5']]],
      ]);
      await acceptedOnCreate(backend(), [[{ count: 10, above: 1, below: 9, step: 10, half: 1.5 }, { ...DEFAULTS, count: 10, above: 1, below: 9, step: 10, half: 1.5 }]]);
    });

    test('strings: minLength, maxLength (counted in characters, though the message says bytes) and pattern', async () => {
      await backend().applyCrd(crd);
      await refusedOnCreate(backend(), [
        [{ short: 'ab' }, [['FieldValueInvalid', 'spec.short', 'Invalid value: "ab": spec.short in body should be at least 3 chars long']]],
        [{ short: '😀😀' }, [['FieldValueInvalid', 'spec.short', 'Invalid value: "😀😀": spec.short in body should be at least 3 chars long']]],
        [{ short: 'abcdef' }, [['FieldValueTooLong', 'spec.short', 'Too long: may not be more than 5 bytes']]],
        [{ short: 'éééééé' }, [['FieldValueTooLong', 'spec.short', 'Too long: may not be more than 5 bytes']]],
        [{ code: 'ABC' }, [['FieldValueInvalid', 'spec.code', "Invalid value: \"ABC\": spec.code in body should match '^[a-z]+$'"]]],
      ]);
      // Five characters of 10 and 20 UTF-8 bytes (and 10 UTF-16 units) fit a maxLength of 5.
      await acceptedOnCreate(backend(), [
        [{ short: 'ééééé' }, { ...DEFAULTS, short: 'ééééé' }],
        [{ short: '😀😀😀😀😀' }, { ...DEFAULTS, short: '😀😀😀😀😀' }],
      ]);
    });

    test('item and property counts: minItems, maxItems, minProperties, maxProperties', async () => {
      await backend().applyCrd(crd);
      await refusedOnCreate(backend(), [
        [{ few: [] }, [['FieldValueInvalid', 'spec.few', 'Invalid value: 0: spec.few in body should have at least 1 items']]],
        [{ few: ['a', 'b', 'c'] }, [['FieldValueTooMany', 'spec.few', 'Too many: 3: must have at most 2 items']]],
        [{ props: {} }, [['FieldValueInvalid', 'spec.props', 'Invalid value: 0: spec.props in body should have at least 1 properties']]],
        [{ props: { a: 'x', b: 'y', c: 'z' } }, [['FieldValueTooMany', 'spec.props', 'Too many: 3: must have at most 2 items']]],
      ]);
    });

    test('formats: date-time, uuid, byte and int32 are checked; an unknown format is ignored', async () => {
      await backend().applyCrd(crd);
      await refusedOnCreate(backend(), [
        [{ when: 'yesterday' }, [['FieldValueTypeInvalid', 'spec.when', 'Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"']]],
        [{ when: '2024-01-02T03:04:05' }, [['FieldValueTypeInvalid', 'spec.when', 'Invalid value: "2024-01-02T03:04:05": spec.when in body must be of type date-time: "2024-01-02T03:04:05"']]],
        [{ when: '2024-01-02' }, [['FieldValueTypeInvalid', 'spec.when', 'Invalid value: "2024-01-02": spec.when in body must be of type date-time: "2024-01-02"']]],
        [{ id: 'not-a-uuid' }, [['FieldValueTypeInvalid', 'spec.id', 'Invalid value: "not-a-uuid": spec.id in body must be of type uuid: "not-a-uuid"']]],
        [{ blob: '!!!' }, [['FieldValueTypeInvalid', 'spec.blob', 'Invalid value: "!!!": spec.blob in body must be of type byte: "!!!"']]],
        [{ blob: 'aGVsbG8' }, [['FieldValueTypeInvalid', 'spec.blob', 'Invalid value: "aGVsbG8": spec.blob in body must be of type byte: "aGVsbG8"']]],
        [{ small: 3000000000 }, [['FieldValueInvalid', '<nil>', 'Invalid value: "": Checked value must be of type integer with format int32 in spec.small']]],
      ]);
      await acceptedOnCreate(backend(), [
        [{ when: '2024-01-02T03:04:05Z' }, { ...DEFAULTS, when: '2024-01-02T03:04:05Z' }],
        [{ id: 'A0EEBC999C0B4EF8BB6D6BB9BD380A11' }, { ...DEFAULTS, id: 'A0EEBC999C0B4EF8BB6D6BB9BD380A11' }],
        [{ blob: 'aGVsbG8=' }, { ...DEFAULTS, blob: 'aGVsbG8=' }],
        [{ small: 2147483647 }, { ...DEFAULTS, small: 2147483647 }],
        [{ odd: 'anything at all' }, { ...DEFAULTS, odd: 'anything at all' }],
      ]);
    });

    test('x-kubernetes-list-type set and map: a Duplicate cause at the index of each value seen a second time, after the schema errors', async () => {
      await backend().applyCrd(crd);
      await refusedOnCreate(backend(), [
        [{ tags: ['a', 'b', 'a'] }, [['FieldValueDuplicate', 'spec.tags[2]', 'Duplicate value: "a"']]],
        [
          { tags: ['a', 'a', 'a', 'b', 'b'] },
          [
            ['FieldValueDuplicate', 'spec.tags[1]', 'Duplicate value: "a"'],
            ['FieldValueDuplicate', 'spec.tags[4]', 'Duplicate value: "b"'],
          ],
        ],
        [{ ports: [{ name: 'http', port: 1 }, { name: 'http', port: 2 }] }, [['FieldValueDuplicate', 'spec.ports[1]', 'Duplicate value: {"name":"http"}']]],
        [
          { ports: ['x'] },
          [
            ['FieldValueTypeInvalid', 'spec.ports[0]', 'Invalid value: "string": spec.ports[0] in body must be of type object: "string"'],
            ['FieldValueInvalid', 'spec.ports[0]', 'Invalid value: "x": must be an object for an array of list-type map'],
          ],
        ],
        // Two properties, but two passes: every schema error comes before every list-type error.
        [
          { tags: ['x', 'x'], size: 'a' },
          [
            ['FieldValueTypeInvalid', 'spec.size', 'Invalid value: "string": spec.size in body must be of type integer: "string"'],
            ['FieldValueDuplicate', 'spec.tags[1]', 'Duplicate value: "x"'],
          ],
        ],
      ]);
      await acceptedOnCreate(backend(), [
        [{ tags: ['a', 'A'] }, { ...DEFAULTS, tags: ['a', 'A'] }],
        [{ ports: [{ name: 'a', port: 1 }, { name: 'b' }] }, { ...DEFAULTS, ports: [{ name: 'a', port: 1 }, { name: 'b' }] }],
      ]);
    });

    test('allOf, anyOf, oneOf and not: a cause with no field ("<nil>") naming the combinator, beside the failing alternative\'s own cause', async () => {
      await backend().applyCrd(crd);
      await refusedOnCreate(backend(), [
        [
          { both: 7 },
          [
            ['FieldValueInvalid', 'spec.both', 'Invalid value: 7: spec.both in body should be less than or equal to 5'],
            ['FieldValueInvalid', '<nil>', 'Invalid value: "": "spec.both" must validate all the schemas (allOf)'],
          ],
        ],
        [
          { both: 0 },
          [
            ['FieldValueInvalid', 'spec.both', 'Invalid value: 0: spec.both in body should be greater than or equal to 1'],
            ['FieldValueInvalid', '<nil>', 'Invalid value: "": "spec.both" must validate all the schemas (allOf)'],
          ],
        ],
        // Both alternatives fail; only the first one's error is named, after the anyOf cause.
        [
          { either: 'abc' },
          [
            ['FieldValueInvalid', '<nil>', 'Invalid value: "": "spec.either" must validate at least one schema (anyOf)'],
            ['FieldValueInvalid', 'spec.either', 'Invalid value: "abc": spec.either in body should be at least 5 chars long'],
          ],
        ],
        [{ one: 7 }, [['FieldValueInvalid', '<nil>', 'Invalid value: "": "spec.one" must validate one and only one schema (oneOf). Found 2 valid alternatives']]],
        [{ never: 'xyz' }, [['FieldValueInvalid', '<nil>', 'Invalid value: "": "spec.never" must not validate the schema (not)']]],
      ]);
      await acceptedOnCreate(backend(), [[{ both: 3, either: 'xy', one: 3, never: 'abc' }, { ...DEFAULTS, both: 3, either: 'xy', one: 3, never: 'abc' }]]);
    });

    test('errors in several items of one list come in index order; errors in several properties are all named, in a random order', async () => {
      await backend().applyCrd(crd);
      await refusedOnCreate(backend(), [
        [{ parts: [{ size: 'a' }, { size: 'b' }] }, [typeInvalid('spec.parts[0].size', 'integer', 'string'), typeInvalid('spec.parts[1].size', 'integer', 'string')]],
        [{ parts: [{ size: 'a' }, { size: 1 }, { size: 'c' }] }, [typeInvalid('spec.parts[0].size', 'integer', 'string'), typeInvalid('spec.parts[2].size', 'integer', 'string')]],
        [{ parts: ['x'] }, [typeInvalid('spec.parts[0]', 'object', 'string')]],
      ]);
      const { name, answer } = await create(backend(), { size: 'a', title: 1 });
      const size = typeInvalid('spec.size', 'integer', 'string');
      const title = typeInvalid('spec.title', 'string', 'integer');
      const either = [invalid(name, [size, title]), invalid(name, [title, size])];
      assert.ok(either.some((expected) => JSON.stringify(expected.details) === JSON.stringify(answered(answer).details)), JSON.stringify(answer.body));
      assert.ok(either.some((expected) => expected.message === answer.body['message']), String(answer.body['message']));
    });

    test('defaults on create: top-level and nested fields, in an object given or defaulted, in list items; never inside an absent object', async () => {
      await backend().applyCrd(crd);
      await acceptedOnCreate(backend(), [
        [{}, DEFAULTS],
        [
          { nested: { other: 'o' }, limits: { memory: '1Gi' }, workers: [{ name: 'a' }, { name: 'b', replicas: 3 }], mode: 'manual' },
          { limits: { cpu: 1, memory: '1Gi' }, mode: 'manual', nested: { level: 'low', other: 'o' }, workers: [{ name: 'a', replicas: 1 }, { name: 'b', replicas: 3 }] },
        ],
        [{ nested: {} }, { ...DEFAULTS, nested: { level: 'low' } }],
      ]);
      // Without a spec, nothing is defaulted: the defaults live inside spec.
      const name = unique('sprocket');
      const answer = await raw(backend().kubeConfig, 'POST', SPROCKETS, JSON.stringify({ apiVersion: API_VERSION, kind: 'Sprocket', metadata: { name } }));
      assert.equal(answer.status, 201);
      assert.equal(Object.hasOwn(answer.body, 'spec'), false);
    });

    test('defaults on update, merge patch, JSON patch and server-side apply: a field removed gets its default back', async () => {
      await backend().applyCrd(crd);
      const kc = backend().kubeConfig;
      const { name, answer } = await create(backend(), { mode: 'manual', workers: [{ name: 'a', replicas: 2 }] });
      assert.deepEqual(specOf(answer), { limits: { cpu: 1 }, mode: 'manual', workers: [{ name: 'a', replicas: 2 }] });
      const put = await raw(kc, 'PUT', `${SPROCKETS}/${name}`, JSON.stringify({ apiVersion: API_VERSION, kind: 'Sprocket', metadata: { name, resourceVersion: resourceVersion(answer.body) }, spec: { workers: [{ name: 'a' }, { name: 'b' }], nested: {} } }));
      assert.equal(put.status, 200);
      const afterPut = { limits: { cpu: 1 }, mode: 'auto', nested: { level: 'low' }, workers: [{ name: 'a', replicas: 1 }, { name: 'b', replicas: 1 }] };
      assert.deepEqual(specOf(put), afterPut);
      assert.deepEqual((await backend().get(API_VERSION, 'Sprocket', name))?.spec, afterPut);

      const nulls = await raw(kc, 'PATCH', `${SPROCKETS}/${name}`, JSON.stringify({ spec: { mode: null, limits: null, nested: { level: null }, workers: [{ name: 'c' }] } }), MERGE);
      assert.equal(nulls.status, 200);
      assert.deepEqual(specOf(nulls), { limits: { cpu: 1 }, mode: 'auto', nested: { level: 'low' }, workers: [{ name: 'c', replicas: 1 }] });
      const set = await raw(kc, 'PATCH', `${SPROCKETS}/${name}`, JSON.stringify({ spec: { mode: 'manual', limits: { cpu: 4 } } }), MERGE);
      assert.deepEqual(specOf(set), { limits: { cpu: 4 }, mode: 'manual', nested: { level: 'low' }, workers: [{ name: 'c', replicas: 1 }] });
      const removed = await raw(kc, 'PATCH', `${SPROCKETS}/${name}`, JSON.stringify([{ op: 'remove', path: '/spec/mode' }, { op: 'remove', path: '/spec/limits' }]), JSON_PATCH);
      assert.equal(removed.status, 200);
      assert.deepEqual(specOf(removed), { limits: { cpu: 1 }, mode: 'auto', nested: { level: 'low' }, workers: [{ name: 'c', replicas: 1 }] });
      const noSpec = await raw(kc, 'PATCH', `${SPROCKETS}/${name}`, JSON.stringify([{ op: 'remove', path: '/spec' }]), JSON_PATCH);
      assert.equal(noSpec.status, 200);
      assert.equal(Object.hasOwn(noSpec.body, 'spec'), false, 'no spec, no defaults');

      const applied = unique('sprocket');
      const first = await applySprocket(backend(), applied, { mode: 'manual', workers: [{ name: 'a' }] });
      assert.equal(first.status, 201);
      assert.deepEqual(specOf(first), { limits: { cpu: 1 }, mode: 'manual', workers: [{ name: 'a', replicas: 1 }] });
      const owned = (answer: RawAnswer): unknown =>
        ((answer.body['metadata'] as { managedFields?: Array<{ manager?: string; fieldsV1?: unknown }> }).managedFields ?? []).find((entry) => entry.manager === 'schema')?.fieldsV1;
      assert.deepEqual(owned(first), { 'f:spec': { 'f:mode': {}, 'f:workers': {} } }, 'defaulted fields are not the applier\'s');
      const second = await applySprocket(backend(), applied, { size: 2 });
      assert.equal(second.status, 200);
      assert.deepEqual(specOf(second), { limits: { cpu: 1 }, mode: 'auto', size: 2 }, 'mode, no longer applied, is removed and defaulted again');
      assert.deepEqual((await backend().get(API_VERSION, 'Sprocket', applied))?.spec, { limits: { cpu: 1 }, mode: 'auto', size: 2 });
    });

    test('the status subresource validates status (the field path under status, the message\'s path relative to it); the main resource ignores status', async () => {
      await backend().applyCrd(crd);
      const kc = backend().kubeConfig;
      const { name, answer } = await create(backend(), { size: 1 }, { status: { phase: 'Bogus', ready: 'x' } });
      assert.equal(answer.status, 201, 'status is dropped on create, not validated');
      assert.equal(Object.hasOwn(answer.body, 'status'), false);
      let rv = resourceVersion(answer.body);
      const putStatus = (status: unknown, spec: unknown = { size: 1 }): Promise<RawAnswer> =>
        raw(kc, 'PUT', `${SPROCKETS}/${name}/status`, JSON.stringify({ apiVersion: API_VERSION, kind: 'Sprocket', metadata: { name, resourceVersion: rv }, spec, status }));
      const statsTooBig: Cause = ['FieldValueInvalid', 'status.stats.total', 'Invalid value: 6: stats.total in body should be less than or equal to 5'];
      const cases: Array<[unknown, Cause]> = [
        [{ phase: 'Bogus' }, ['FieldValueNotSupported', 'status.phase', 'Unsupported value: "Bogus": supported values: "Pending", "Running"']],
        [{ ready: 'x' }, ['FieldValueTypeInvalid', 'status.ready', 'Invalid value: "string": ready in body must be of type boolean: "string"']],
        [{ stats: { total: 6 } }, statsTooBig],
        [{ stats: { total: 'x' } }, ['FieldValueTypeInvalid', 'status.stats.total', 'Invalid value: "string": stats.total in body must be of type integer: "string"']],
        [{ stats: {} }, ['FieldValueRequired', 'status.stats.total', 'Required value']],
      ];
      for (const [status, cause] of cases) {
        assert.deepEqual(answered(await putStatus(status)), invalid(name, [cause]), JSON.stringify(status));
      }
      const merged = await raw(kc, 'PATCH', `${SPROCKETS}/${name}/status`, JSON.stringify({ status: { phase: 'Nope' } }), MERGE);
      assert.deepEqual(answered(merged), invalid(name, [['FieldValueNotSupported', 'status.phase', 'Unsupported value: "Nope": supported values: "Pending", "Running"']]));
      const applied = await raw(kc, 'PATCH', `${SPROCKETS}/${name}/status?fieldManager=schema`, JSON.stringify({ apiVersion: API_VERSION, kind: 'Sprocket', metadata: { name }, status: { stats: { total: 6 } } }), APPLY);
      assert.deepEqual(answered(applied), invalid(name, [statsTooBig]));

      // A valid status with an invalid spec: /status ignores spec.
      const fine = await putStatus({ phase: 'Running' }, { size: 'x' });
      assert.equal(fine.status, 200, String(fine.body['message']));
      assert.deepEqual(specOf(fine), { ...DEFAULTS, size: 1 });
      assert.deepEqual(fine.body['status'], { phase: 'Running' });
      rv = resourceVersion(fine.body);
      const nulled = await putStatus({ phase: null, ready: true });
      assert.equal(nulled.status, 200);
      assert.deepEqual(nulled.body['status'], { ready: true }, 'a null status field is pruned');
      rv = resourceVersion(nulled.body);

      // The main resource ignores status: an invalid one is neither validated nor stored.
      const main = await raw(kc, 'PUT', `${SPROCKETS}/${name}`, JSON.stringify({ apiVersion: API_VERSION, kind: 'Sprocket', metadata: { name, resourceVersion: rv }, spec: { size: 2 }, status: { phase: 'Bogus' } }));
      assert.equal(main.status, 200, String(main.body['message']));
      assert.deepEqual(specOf(main), { ...DEFAULTS, size: 2 });
      assert.deepEqual(main.body['status'], { ready: true });
      const mainPatch = await raw(kc, 'PATCH', `${SPROCKETS}/${name}`, JSON.stringify({ status: { phase: 'Nope' }, spec: { size: 3 } }), MERGE);
      assert.equal(mainPatch.status, 200, String(mainPatch.body['message']));
      assert.deepEqual(mainPatch.body['status'], { ready: true });
      const stored = await backend().get(API_VERSION, 'Sprocket', name);
      assert.deepEqual([stored?.spec, stored?.status], [{ ...DEFAULTS, size: 3 }, { ready: true }]);
    });

    test('the same refusal through PUT, merge patch, JSON patch and server-side apply; apply refuses a wrong type earlier, with a 500', async () => {
      await backend().applyCrd(crd);
      const kc = backend().kubeConfig;
      const { name, answer } = await create(backend(), { size: 1, count: 5 });
      assert.equal(answer.status, 201);
      const maximum: Cause = ['FieldValueInvalid', 'spec.count', 'Invalid value: 11: spec.count in body should be less than or equal to 10'];
      const type = typeInvalid('spec.size', 'integer', 'string');
      const put = (spec: unknown): Promise<RawAnswer> =>
        raw(kc, 'PUT', `${SPROCKETS}/${name}`, JSON.stringify({ apiVersion: API_VERSION, kind: 'Sprocket', metadata: { name, resourceVersion: resourceVersion(answer.body) }, spec }));
      assert.deepEqual(answered(await put({ size: 1, count: 11 })), invalid(name, [maximum]), 'PUT');
      assert.deepEqual(answered(await put({ size: 'big' })), invalid(name, [type]), 'PUT');
      assert.deepEqual(answered(await raw(kc, 'PATCH', `${SPROCKETS}/${name}`, '{"spec":{"count":11}}', MERGE)), invalid(name, [maximum]), 'merge patch');
      assert.deepEqual(answered(await raw(kc, 'PATCH', `${SPROCKETS}/${name}`, '{"spec":{"size":"big"}}', MERGE)), invalid(name, [type]), 'merge patch');
      assert.deepEqual(answered(await raw(kc, 'PATCH', `${SPROCKETS}/${name}`, '[{"op":"replace","path":"/spec/count","value":11}]', JSON_PATCH)), invalid(name, [maximum]), 'JSON patch');
      assert.deepEqual(answered(await raw(kc, 'PATCH', `${SPROCKETS}/${name}`, '[{"op":"replace","path":"/spec/size","value":"big"}]', JSON_PATCH)), invalid(name, [type]), 'JSON patch');
      assert.deepEqual(answered(await applySprocket(backend(), name, { count: 11 }, '&force=true')), invalid(name, [maximum]), 'apply');
      const wrongType = await applySprocket(backend(), name, { size: 'big' }, '&force=true');
      assert.deepEqual(
        { status: wrongType.status, message: wrongType.body['message'] },
        { status: 500, message: `failed to create typed patch object (/${name}; ${GROUP}/v1, Kind=Sprocket): .spec.size: expected numeric (int or float), got string` },
        'apply of a wrong type',
      );
      assert.deepEqual((await backend().get(API_VERSION, 'Sprocket', name))?.spec, { ...DEFAULTS, count: 5, size: 1 }, 'nothing changed');

      // An apply that creates: the same 422s as a POST (what passes the typed conversion reaches validation).
      const applyCases: Array<[unknown, Cause[]]> = [
        [{ count: 11 }, [maximum]],
        [{ color: 'blue' }, [['FieldValueNotSupported', 'spec.color', 'Unsupported value: "blue": supported values: "red", "green"']]],
        [{ server: { port: 1 } }, [['FieldValueRequired', 'spec.server.host', 'Required value']]],
        [
          { size: 1.5 },
          [
            ['FieldValueTypeInvalid', 'spec.size', 'Invalid value: "number": spec.size in body must be of type integer: "number"'],
            ['FieldValueInvalid', '<nil>', 'Invalid value: "": Checked value must be of type integer (default format) in spec.size'],
          ],
        ],
      ];
      for (const [spec, causes] of applyCases) {
        const created = unique('sprocket');
        assert.deepEqual(answered(await applySprocket(backend(), created, spec)), invalid(created, causes), JSON.stringify(spec));
        assert.equal(await backend().get(API_VERSION, 'Sprocket', created), undefined);
      }
    });

    test('fieldValidation=Strict: an unknown field is refused by the decoder (400) before validation; Warn warns and validates', async () => {
      await backend().applyCrd(crd);
      const kc = backend().kubeConfig;
      const name = unique('sprocket');
      const strictMessage = 'Sprocket in version "v1" cannot be handled as a Sprocket: strict decoding error: unknown field "spec.extra"';
      const strict = await raw(kc, 'POST', `${SPROCKETS}?fieldValidation=Strict`, sprocketText(name, { size: 'big', extra: 1 }));
      assert.deepEqual({ status: strict.status, reason: strict.body['reason'], message: strict.body['message'] }, { status: 400, reason: 'BadRequest', message: strictMessage });
      const warned = await raw(kc, 'POST', SPROCKETS, sprocketText(name, { size: 'big', extra: 1 }));
      assert.deepEqual(answered(warned), invalid(name, [typeInvalid('spec.size', 'integer', 'string')]));
      assert.deepEqual(warned.warnings, ['unknown field "spec.extra"']);

      const created = await raw(kc, 'POST', SPROCKETS, sprocketText(name, { size: 1 }));
      assert.equal(created.status, 201);
      const put = await raw(kc, 'PUT', `${SPROCKETS}/${name}?fieldValidation=Strict`, JSON.stringify({ apiVersion: API_VERSION, kind: 'Sprocket', metadata: { name, resourceVersion: resourceVersion(created.body) }, spec: { size: 'big', extra: 1 } }));
      assert.deepEqual({ status: put.status, reason: put.body['reason'], message: put.body['message'] }, { status: 400, reason: 'BadRequest', message: strictMessage });
      const patchWarned = await raw(kc, 'PATCH', `${SPROCKETS}/${name}`, '{"spec":{"size":"big","extra":1}}', MERGE);
      assert.deepEqual(answered(patchWarned), invalid(name, [typeInvalid('spec.size', 'integer', 'string')]));
      assert.deepEqual(patchWarned.warnings, ['unknown field "spec.extra"']);
      const patchStrict = await raw(kc, 'PATCH', `${SPROCKETS}/${name}?fieldValidation=Strict`, '{"spec":{"size":"big","extra":1}}', MERGE);
      assert.equal(patchStrict.status, 422);
      assert.match(String(patchStrict.body['message']), /^ "" is invalid: patch: Invalid value: ".*": strict decoding error: unknown field "spec\.extra"$/s);
    });

    test('ratcheting: after the schema is tightened, an update that leaves an invalid value as it is passes; changing it to another invalid value does not', async () => {
      const kc = backend().kubeConfig;
      await backend().applyCrd(cogCrd(false));
      const name = unique('cog');
      const cogText = (spec: unknown): string => JSON.stringify({ apiVersion: API_VERSION, kind: 'Cog', metadata: { name }, spec });
      const created = await raw(kc, 'POST', COGS, cogText({ limit: 10, label: 'a', tags: ['long1', 'ok'] }));
      assert.equal(created.status, 201);

      await backend().applyCrd(cogCrd(true));
      // kube-apiserver serves the new schema a moment after the CRD update: wait until a new Cog of limit 10 is refused.
      await waitFor('the tightened schema', async () => {
        const probe = await raw(kc, 'POST', `${COGS}?dryRun=All`, JSON.stringify({ apiVersion: API_VERSION, kind: 'Cog', metadata: { name: unique('cog') }, spec: { limit: 10 } }));
        return probe.status === 422;
      }, 10_000);

      const limit = (value: number): Cause => ['FieldValueInvalid', 'spec.limit', `Invalid value: ${value}: spec.limit in body should be less than or equal to 5`];
      const tooLong = (index: number): Cause => ['FieldValueTooLong', `spec.tags[${index}]`, 'Too long: may not be more than 3 bytes'];
      const stored = (spec: Record<string, unknown>): Record<string, unknown> => ({ fresh: 'dflt', tags: ['long1', 'ok'], ...spec });
      // A default added to the schema shows on read, though the stored object predates it.
      assert.deepEqual((await backend().get(API_VERSION, 'Cog', name))?.spec, stored({ label: 'a', limit: 10 }));

      const merge = (patch: unknown): Promise<RawAnswer> => raw(kc, 'PATCH', `${COGS}/${name}`, JSON.stringify({ spec: patch }), MERGE);
      const label = await merge({ label: 'b' });
      assert.equal(label.status, 200, String(label.body['message']));
      assert.deepEqual(specOf(label), stored({ label: 'b', limit: 10 }));
      assert.deepEqual(answered(await merge({ limit: 11 })), invalid(name, [limit(11)], 'Cog'));

      const current = await backend().get(API_VERSION, 'Cog', name);
      const put = (spec: unknown): Promise<RawAnswer> =>
        raw(kc, 'PUT', `${COGS}/${name}`, JSON.stringify({ apiVersion: API_VERSION, kind: 'Cog', metadata: { name, resourceVersion: resourceVersion(current ?? {}) }, spec }));
      assert.deepEqual(answered(await put(stored({ label: 'b', limit: 12 }))), invalid(name, [limit(12)], 'Cog'));
      const relabeled = await put(stored({ label: 'c', limit: 10 }));
      assert.equal(relabeled.status, 200, String(relabeled.body['message']));
      assert.deepEqual(specOf(relabeled), stored({ label: 'c', limit: 10 }));

      const apply = (spec: unknown): Promise<RawAnswer> => raw(kc, 'PATCH', `${COGS}/${name}?fieldManager=schema&force=true`, cogText(spec), APPLY);
      const applied = await apply({ label: 'd' });
      assert.equal(applied.status, 200, String(applied.body['message']));
      assert.deepEqual(specOf(applied), stored({ label: 'd', limit: 10 }));
      assert.deepEqual(answered(await apply({ label: 'd', limit: 13 })), invalid(name, [limit(13)], 'Cog'));

      // An atomic list that changes is validated whole: its unchanged invalid item is refused too.
      assert.deepEqual(answered(await merge({ tags: ['long1', 'ok', 'x'] })), invalid(name, [tooLong(0)], 'Cog'));
      assert.deepEqual(answered(await merge({ tags: ['ok', 'long1'] })), invalid(name, [tooLong(1)], 'Cog'));

      // Once valid, the old invalid value is refused like any other.
      const fixed = await merge({ limit: 4 });
      assert.equal(fixed.status, 200);
      assert.deepEqual(answered(await merge({ limit: 10 })), invalid(name, [limit(10)], 'Cog'));
      assert.deepEqual((await backend().get(API_VERSION, 'Cog', name))?.spec, stored({ label: 'd', limit: 4 }));
    });
  });
}
