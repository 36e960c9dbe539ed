// The `default` values of a CRD's structural schema, as kube-apiserver 1.37.2 checks them when a CRD is created
// (POST) or updated (PUT); every expectation here was probed on it. Each default is validated against its own schema
// (type, enum, bounds, lengths, pattern, format, item counts, `required`, CEL rules) and must survive pruning
// unchanged ("must not have unknown fields"); defaults are forbidden on the top-level metadata, apiVersion and kind.
// The refusal is a 422 Invalid for the CustomResourceDefinition, its field path naming the schema node and then
// `.default` (and, for a problem inside an object or list default, the path within it). When every version has the
// same schema (always, with one version), the path starts `spec.validation.openAPIV3Schema`, not
// `spec.versions[0].schema.openAPIV3Schema`: the server hoists a shared schema to the internal `spec.validation`.
// The message inside a cause repeats the path within the default before "in body", so a default's own value has an
// empty one (two spaces: `Invalid value: "string":  in body must be of type integer: "string"`). Each CRD below has
// one problem, unless the order of several is fixed (the `required` list's order, one value's errors, versions in
// index order), which is asserted.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend } from './backend.js';
import { answered, invalidAnswer, type Cause } from './invalid-answer.js';
import { raw, type RawAnswer } from './raw-http.js';

const GROUP = 'defaults.conformance.katalog.dev';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
/** The field path of `spec.properties[<name>]` in a CRD whose versions share one schema. */
const SPEC = 'spec.validation.openAPIV3Schema.properties[spec]';
const ROOT = 'spec.validation.openAPIV3Schema';

type Schema = Record<string, unknown>;

const str = { type: 'string' };
const int = { type: 'integer' };

interface Options {
  /** More properties of the root schema, next to `spec`. */
  root?: Schema;
}

function schemaOf(specProperties: Schema, root: Schema = {}): Schema {
  return { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: specProperties }, ...root } } };
}

/** A CRD of a new plural (and kind) in GROUP, one version v1 with these properties under `spec`. */
function crdOf(specProperties: Schema, options: Options = {}): { name: string; plural: string; kind: string; body: Record<string, unknown> } {
  const plural = unique('defaults').replace(/-/g, 'x');
  const kind = `D${plural.slice(1)}`;
  const name = `${plural}.${GROUP}`;
  return {
    name,
    plural,
    kind,
    body: {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name },
      spec: {
        group: GROUP,
        scope: 'Namespaced',
        names: { kind, plural, singular: plural, listKind: `${kind}List` },
        versions: [{ name: 'v1', served: true, storage: true, schema: schemaOf(specProperties, options.root) }],
      },
    },
  };
}

function post(backend: Backend, body: unknown): Promise<RawAnswer> {
  return raw(backend.kubeConfig, 'POST', CRDS, JSON.stringify(body));
}

function invalid(name: string, causes: Cause[]): ReturnType<typeof invalidAnswer> {
  return invalidAnswer('apiextensions.k8s.io', 'CustomResourceDefinition', name, causes);
}

/** Creates a CRD of each `spec` properties; each must be refused with exactly these causes, and nothing stored. */
async function refused(backend: Backend, cases: Array<[Schema, Cause[]] | [Schema, Cause[], Options]>): Promise<void> {
  for (const [properties, causes, options] of cases) {
    const { name, body } = crdOf(properties, options);
    assert.deepEqual(answered(await post(backend, body)), invalid(name, causes), JSON.stringify(properties));
    assert.equal((await raw(backend.kubeConfig, 'GET', `${CRDS}/${name}`)).status, 404, `nothing stored for ${JSON.stringify(properties)}`);
  }
}

/** Creates a CRD of each `spec` properties; each must be created (201) with this schema under `spec` stored. */
async function accepted(backend: Backend, cases: Array<[Schema, Schema]>): Promise<void> {
  for (const [properties, stored] of cases) {
    const { body } = crdOf(properties);
    const answer = await post(backend, body);
    assert.equal(answer.status, 201, `${JSON.stringify(properties)}: ${String(answer.body['message'])}`);
    assert.deepEqual(specSchema(answer.body), stored, `stored for ${JSON.stringify(properties)}`);
  }
}

function specSchema(crd: Record<string, unknown>): unknown {
  const versions = (crd['spec'] as { versions: Array<{ schema: { openAPIV3Schema: { properties: { spec: { properties: unknown } } } } }> }).versions;
  return versions[0]?.schema.openAPIV3Schema.properties.spec.properties;
}

/** A cause for a default of the wrong JSON type, `inner` being the path within the default ('' for the default itself). */
function typeCause(field: string, want: string, got: string, inner = ''): Cause {
  return ['FieldValueTypeInvalid', field, `Invalid value: "${got}": ${inner} in body must be of type ${want}: "${got}"`];
}

export function crdDefaultsSuite(backend: () => Backend): void {
  describe('CRD schema default values', () => {
    test('a default of the wrong type: FieldValueTypeInvalid at `<schema>.default`; a fraction for an integer is two causes', async () => {
      const at = (field: string): string => `${SPEC}.properties[${field}].default`;
      await refused(backend(), [
        [{ size: { type: 'integer', default: 'x' } }, [typeCause(at('size'), 'integer', 'string')]],
        [{ size: { type: 'string', default: 5 } }, [typeCause(at('size'), 'string', 'integer')]],
        [{ size: { type: 'boolean', default: 'x' } }, [typeCause(at('size'), 'boolean', 'string')]],
        [{ size: { type: 'number', default: 'x' } }, [typeCause(at('size'), 'number', 'string')]],
        [{ size: { type: 'object', default: 'x' } }, [typeCause(at('size'), 'object', 'string')]],
        [{ size: { type: 'array', items: str, default: 'x' } }, [typeCause(at('size'), 'array', 'string')]],
        [
          { size: { type: 'integer', default: 1.5 } },
          [typeCause(at('size'), 'integer', 'number'), ['FieldValueInvalid', at('size'), 'Invalid value: "": Checked value must be of type integer (default format) in ']],
        ],
      ]);
    });

    test('a default outside its enum, bounds, lengths, pattern, format, item count or CEL rule', async () => {
      const at = (field: string): string => `${SPEC}.properties[${field}].default`;
      await refused(backend(), [
        [{ color: { type: 'string', enum: ['red', 'green'], default: 'blue' } }, [['FieldValueNotSupported', at('color'), 'Unsupported value: "blue": supported values: "red", "green"']]],
        [{ count: { type: 'integer', maximum: 10, default: 11 } }, [['FieldValueInvalid', at('count'), 'Invalid value: 11:  in body should be less than or equal to 10']]],
        [{ count: { type: 'integer', minimum: 1, default: 0 } }, [['FieldValueInvalid', at('count'), 'Invalid value: 0:  in body should be greater than or equal to 1']]],
        [{ short: { type: 'string', maxLength: 3, default: 'abcd' } }, [['FieldValueTooLong', at('short'), 'Too long: may not be more than 3 bytes']]],
        [{ code: { type: 'string', pattern: '^[a-z]+$', default: 'AB' } }, [['FieldValueInvalid', at('code'), "Invalid value: \"AB\":  in body should match '^[a-z]+$'"]]],
        // Too long and not matching the pattern: only the length is reported.
        [{ short: { type: 'string', maxLength: 1, pattern: '^[a-z]+$', default: 'AB' } }, [['FieldValueTooLong', at('short'), 'Too long: may not be more than 1 byte']]],
        [{ id: { type: 'string', format: 'uuid', default: 'nope' } }, [typeCause(at('id'), 'uuid', 'nope')]],
        [{ few: { type: 'array', maxItems: 1, items: str, default: ['a', 'b'] } }, [['FieldValueTooMany', at('few'), 'Too many: 2: must have at most 1 item']]],
        [{ size: { type: 'integer', default: 5, 'x-kubernetes-validations': [{ rule: 'self < 3' }] } }, [['FieldValueInvalid', at('size'), 'Invalid value: 5: failed rule: self < 3']]],
      ]);
    });

    test('a default that pruning would change is refused whole: "must not have unknown fields", unless unknown fields are preserved', async () => {
      const at = (field: string): string => `${SPEC}.properties[${field}].default`;
      await refused(backend(), [
        [{ config: { type: 'object', properties: { a: str }, default: { a: 'x', b: 1 } } }, [['FieldValueInvalid', at('config'), 'Invalid value: {"a":"x","b":1}: must not have unknown fields']]],
        [
          { config: { type: 'object', properties: { inner: { type: 'object', properties: { a: str } } }, default: { inner: { a: 'x', z: 1 } } } },
          [['FieldValueInvalid', at('config'), 'Invalid value: {"inner":{"a":"x","z":1}}: must not have unknown fields']],
        ],
        [
          { parts: { type: 'array', items: { type: 'object', properties: { p: int } }, default: [{ p: 1, q: 2 }] } },
          [['FieldValueInvalid', at('parts'), 'Invalid value: [{"p":1,"q":2}]: must not have unknown fields']],
        ],
        // Unknown fields preserved, but a known one still checked.
        [
          { config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: int }, default: { a: 'x', b: 1 } } },
          [typeCause(`${at('config')}.a`, 'integer', 'string', 'a')],
        ],
      ]);
      const preserved = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: str }, default: { a: 'x', b: 1 } };
      await accepted(backend(), [[{ config: preserved }, { config: preserved }]]);
    });

    test("an object default missing a field of its own `required`: FieldValueRequired, in the list's order; a default inside is not applied", async () => {
      const at = (field: string): string => `${SPEC}.properties[${field}].default`;
      await refused(backend(), [
        [{ server: { type: 'object', required: ['host'], properties: { host: str, port: int }, default: { port: 1 } } }, [['FieldValueRequired', `${at('server')}.host`, 'Required value']]],
        [{ server: { type: 'object', required: ['host'], properties: { host: { type: 'string', default: 'h' }, port: int }, default: { port: 1 } } }, [['FieldValueRequired', `${at('server')}.host`, 'Required value']]],
        // An embedded resource's default needs apiVersion and kind.
        [
          { emb: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, default: { foo: 1 } } },
          [
            ['FieldValueRequired', `${at('emb')}.apiVersion`, 'Required value'],
            ['FieldValueRequired', `${at('emb')}.kind`, 'Required value'],
          ],
        ],
      ]);
      // The order of the `required` list, every time.
      for (let i = 0; i < 3; i += 1) {
        await refused(backend(), [
          [
            { server: { type: 'object', required: ['host', 'alpha'], properties: { host: str, alpha: str }, default: {} } },
            [
              ['FieldValueRequired', `${at('server')}.host`, 'Required value'],
              ['FieldValueRequired', `${at('server')}.alpha`, 'Required value'],
            ],
          ],
        ]);
      }
    });

    test('the path of a default inside list items, inside a defaulted object, and of a value inside an object or list default', async () => {
      const at = (field: string): string => `${SPEC}.properties[${field}]`;
      await refused(backend(), [
        [{ parts: { type: 'array', items: { type: 'object', properties: { p: { type: 'integer', default: 'x' } } } } }, [typeCause(`${at('parts')}.items.properties[p].default`, 'integer', 'string')]],
        [{ config: { type: 'object', properties: { a: { type: 'integer', default: 'x' } }, default: {} } }, [typeCause(`${at('config')}.properties[a].default`, 'integer', 'string')]],
        [{ parts: { type: 'array', items: { type: 'object', properties: { p: int } }, default: [{ p: 'x' }] } }, [typeCause(`${at('parts')}.default.[0].p`, 'integer', 'string', '[0].p')]],
        [{ counts: { type: 'object', additionalProperties: int, default: { a: 'x' } } }, [typeCause(`${at('counts')}.default.a`, 'integer', 'string', '.a')]],
        [
          { config: { type: 'object', properties: { a: { type: 'integer', maximum: 3, default: 1 } }, default: { a: 5 } } },
          [['FieldValueInvalid', `${at('config')}.default.a`, 'Invalid value: 5: a in body should be less than or equal to 3']],
        ],
      ]);
    });

    test('at the root: forbidden on metadata, apiVersion and kind; checked on any other field and in status', async () => {
      await refused(backend(), [
        [{}, [['FieldValueForbidden', `${ROOT}.properties[metadata].default`, 'Forbidden: must not be set in top-level metadata']], { root: { metadata: { type: 'object', default: { name: 'x' } } } }],
        [{}, [['FieldValueForbidden', `${ROOT}.properties[apiVersion].default`, 'Forbidden: must not be set in top-level apiVersion']], { root: { apiVersion: { type: 'string', default: 'x' } } }],
        [{}, [['FieldValueForbidden', `${ROOT}.properties[kind].default`, 'Forbidden: must not be set in top-level kind']], { root: { kind: { type: 'string', default: 'x' } } }],
        [{}, [typeCause(`${ROOT}.properties[other].default`, 'integer', 'string')], { root: { other: { type: 'integer', default: 'x' } } }],
        [{}, [typeCause(`${ROOT}.properties[status].properties[phase].default`, 'integer', 'string')], { root: { status: { type: 'object', properties: { phase: { type: 'integer', default: 'x' } } } } }],
      ]);
    });

    test('`default: null` is dropped from the schema and the CRD created; a null inside an object default is checked against nullable', async () => {
      await accepted(backend(), [
        [{ size: { type: 'integer', default: null } }, { size: { type: 'integer' } }],
        [{ size: { type: 'integer', nullable: true, default: null } }, { size: { type: 'integer', nullable: true } }],
        [
          { config: { type: 'object', properties: { a: { type: 'string', nullable: true } }, default: { a: null } } },
          { config: { type: 'object', properties: { a: { type: 'string', nullable: true } }, default: { a: null } } },
        ],
      ]);
      await refused(backend(), [
        [{ config: { type: 'object', properties: { a: str }, default: { a: null } } }, [typeCause(`${SPEC}.properties[config].default.a`, 'string', 'null', 'a')]],
      ]);
    });

    test('valid defaults of each kind are created (201) and kept, and a custom resource gets them, nested ones included', async () => {
      const properties = {
        size: { type: 'integer', default: 3 },
        ratio: { type: 'number', default: 0.5 },
        on: { type: 'boolean', default: true },
        title: { type: 'string', default: 'x' },
        words: { type: 'array', items: str, default: ['a'] },
        config: { type: 'object', properties: { a: { type: 'string', default: 'in' }, b: int }, default: { b: 2 } },
        keep: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: str }, default: { a: 'x', b: 1 } },
      };
      const { plural, kind, body } = crdOf(properties);
      const answer = await post(backend(), body);
      assert.equal(answer.status, 201, String(answer.body['message']));
      assert.deepEqual(specSchema(answer.body), properties);
      const path = `/apis/${GROUP}/v1/namespaces/default/${plural}`;
      // The same CRD again, through the backend: it resolves once the resource is served.
      await backend().applyCrd(body);
      const created = await raw(backend().kubeConfig, 'POST', path, JSON.stringify({ apiVersion: `${GROUP}/v1`, kind, metadata: { name: 'one' }, spec: {} }));
      assert.equal(created.status, 201, String(created.body['message']));
      assert.deepEqual(created.body['spec'], { size: 3, ratio: 0.5, on: true, title: 'x', words: ['a'], config: { a: 'in', b: 2 }, keep: { a: 'x', b: 1 } });

      // Not checked: duplicates in a set's default, an embedded resource's metadata, an int-or-string's type.
      await accepted(backend(), [
        [
          { tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: str, default: ['a', 'a'] } },
          { tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: str, default: ['a', 'a'] } },
        ],
        [
          { emb: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, default: { apiVersion: 'v1', kind: 'X', metadata: { name: 'BAD_NAME' } } } },
          { emb: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, default: { apiVersion: 'v1', kind: 'X', metadata: { name: 'BAD_NAME' } } } },
        ],
        [{ port: { 'x-kubernetes-int-or-string': true, default: true } }, { port: { 'x-kubernetes-int-or-string': true, default: true } }],
      ]);
    });

    test('the same refusals on update (PUT), the CRD unchanged; a valid default is taken (200)', async () => {
      const { name, body } = crdOf({ size: { type: 'integer', default: 1 } });
      assert.equal((await post(backend(), body)).status, 201);
      // Served: the server's controllers are done writing the CRD's status (each write a new resourceVersion).
      await backend().applyCrd(body);
      const at = `${SPEC}.properties[size].default`;
      const cases: Array<[Schema, Cause[]]> = [
        [{ type: 'integer', default: 'x' }, [typeCause(at, 'integer', 'string')]],
        [{ type: 'object', properties: { a: str }, default: { a: 'x', b: 1 } }, [['FieldValueInvalid', at, 'Invalid value: {"a":"x","b":1}: must not have unknown fields']]],
        [{ type: 'object', required: ['host'], properties: { host: str }, default: {} }, [['FieldValueRequired', `${at}.host`, 'Required value']]],
      ];
      const put = async (size: Schema, attempt = 0): Promise<RawAnswer> => {
        const current = (await raw(backend().kubeConfig, 'GET', `${CRDS}/${name}`)).body as { spec: { versions: Array<{ schema: Schema }> } };
        const version = current.spec.versions[0];
        assert.ok(version !== undefined);
        version.schema = schemaOf({ size });
        const answer = await raw(backend().kubeConfig, 'PUT', `${CRDS}/${name}`, JSON.stringify(current));
        // A status write of the server's own controllers in between: read and try again.
        return answer.status === 409 && attempt < 5 ? put(size, attempt + 1) : answer;
      };
      for (const [size, causes] of cases) {
        assert.deepEqual(answered(await put(size)), invalid(name, causes), JSON.stringify(size));
        assert.deepEqual(specSchema((await raw(backend().kubeConfig, 'GET', `${CRDS}/${name}`)).body), { size: { type: 'integer', default: 1 } });
      }
      const ok = await put({ type: 'integer', default: 2 });
      assert.equal(ok.status, 200, String(ok.body['message']));
      assert.deepEqual(specSchema(ok.body), { size: { type: 'integer', default: 2 } });
    });

    test('versions of different schemas: the path is `spec.versions[<i>].schema`, in index order; of one schema, `spec.validation`', async () => {
      const at = (version: number): string => `spec.versions[${version}].schema.openAPIV3Schema.properties[spec].properties[size].default`;
      const twoVersions = (v1: unknown, v2: unknown): { name: string; body: Record<string, unknown> } => {
        const crd = crdOf({});
        const spec = crd.body['spec'] as { versions: unknown[] };
        spec.versions = [
          { name: 'v1', served: true, storage: true, schema: schemaOf({ size: { type: 'integer', default: v1 } }) },
          { name: 'v2', served: true, storage: false, schema: schemaOf({ size: { type: 'integer', default: v2 }, other: str }) },
        ];
        return crd;
      };
      for (let i = 0; i < 3; i += 1) {
        const both = twoVersions('x', 'y');
        assert.deepEqual(answered(await post(backend(), both.body)), invalid(both.name, [typeCause(at(0), 'integer', 'string'), typeCause(at(1), 'integer', 'string')]));
      }
      const second = twoVersions(1, 'y');
      assert.deepEqual(answered(await post(backend(), second.body)), invalid(second.name, [typeCause(at(1), 'integer', 'string')]));

      const shared = crdOf({});
      const schema = schemaOf({ size: { type: 'integer', default: 'x' } });
      (shared.body['spec'] as { versions: unknown[] }).versions = [
        { name: 'v1', served: true, storage: true, schema },
        { name: 'v2', served: true, storage: false, schema },
      ];
      assert.deepEqual(answered(await post(backend(), shared.body)), invalid(shared.name, [typeCause(`${SPEC}.properties[size].default`, 'integer', 'string')]));
    });
  });
}
