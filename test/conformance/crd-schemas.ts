// The structure of a CRD's `spec.versions[*].schema.openAPIV3Schema`, as kube-apiserver 1.37.2 checks it when a CRD
// is created (POST) or updated (PUT); every expectation here was probed on it. Every version needs a schema, served or
// not. The schema must be structural: a `type` on every node (object at the root; int-or-string and
// preserve-unknown-fields nodes may leave it out), `items` on every array, no `additionalProperties` at the root or
// beside `properties` (unless `true`), root `metadata` restricting only name and generateName, and inside
// anyOf/allOf/oneOf/not no type, default, description, title, nullable, CEL rules, additionalProperties, vendor
// extensions or metadata; a field a root-level junctor constrains must be declared outside it. Keywords JSON Schema has
// but Kubernetes does not ($ref, uniqueItems, patternProperties, ...) are forbidden one by one; list and map types,
// embedded resources, patterns (Go RE2) and the static parts of CEL rules are checked too. The refusal is a 422 Invalid
// for the CustomResourceDefinition naming the schema node. When every version has the same schema (always, with one
// version) the path starts `spec.validation.openAPIV3Schema`, else `spec.versions[<i>].schema.openAPIV3Schema`.
// Order of several causes: the status-subresource root check first, then the structural errors sorted as text
// ("<field>: <message>"), then keyword errors of the schema walk, then CEL compile errors; defaults and CEL rules are
// only checked on a structural schema. Each CRD below has one problem, unless its causes' order is fixed by those
// rules (errors of one node, sorted structural errors, versions in index order), which is asserted.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend } from './backend.js';
import { answered, invalidAnswer, type Cause } from './invalid-answer.js';
import { raw, type RawAnswer } from './raw-http.js';

const GROUP = 'schemas.conformance.katalog.dev';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const ROOT = 'spec.validation.openAPIV3Schema';
/** The field path of the property `a` of `spec`, in a CRD whose versions share one schema. */
const A = `${ROOT}.properties[spec].properties[a]`;

type Schema = Record<string, unknown>;

const str = { type: 'string' };
const int = { type: 'integer' };
const obj = { type: 'object' };

/** A root schema: an object with `spec`, `spec` having these properties, and more root keywords. */
const specOf = (properties: Schema, root: Schema = {}): Schema => ({ type: 'object', properties: { spec: { type: 'object', properties } }, ...root });
/** A root schema with this schema as the property `a` of `spec`. */
const onA = (a: Schema): Schema => specOf({ a });

/** `status`: the status subresource on every version. */
type Options = { status?: boolean };
type Crd = { name: string; body: { spec: { versions: Schema[] } } & Schema };

/** A CRD of a new plural in GROUP; one version per schema (v1, v2, ...; v1 stored), `null` for a version without one. */
function crdOf(schemas: Array<Schema | null>, options: Options = {}): Crd {
  const plural = unique('schemas').replace(/-/g, 'x');
  const kind = `S${plural.slice(1)}`;
  const name = `${plural}.${GROUP}`;
  const versions = schemas.map((schema, i) => ({
    ...{ name: `v${i + 1}`, served: true, storage: i === 0 },
    ...(schema === null ? {} : { schema: { openAPIV3Schema: schema } }),
    ...(options.status === true ? { subresources: { status: {} } } : {}),
  }));
  const spec = { group: GROUP, scope: 'Namespaced', names: { kind, plural, singular: plural, listKind: `${kind}List` }, versions };
  return { name, body: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name }, spec } };
}

function post(backend: Backend, body: unknown): Promise<RawAnswer> {
  return raw(backend.kubeConfig, 'POST', CRDS, JSON.stringify(body));
}

function invalid(name: string, causes: Cause[]): ReturnType<typeof invalidAnswer> {
  return invalidAnswer('apiextensions.k8s.io', 'CustomResourceDefinition', name, causes);
}

/** Creates the CRD: it must be refused with exactly these causes, and nothing stored. */
async function refusedCrd(backend: Backend, { name, body }: Crd, causes: Cause[]): Promise<void> {
  assert.deepEqual(answered(await post(backend, body)), invalid(name, causes), JSON.stringify(body.spec.versions));
  assert.equal((await raw(backend.kubeConfig, 'GET', `${CRDS}/${name}`)).status, 404, `nothing stored for ${JSON.stringify(body.spec.versions)}`);
}

/** Creates a one-version CRD of each root schema; each must be refused with exactly these causes. */
async function refused(backend: Backend, cases: Array<[Schema, Cause[]]>, options: Options = {}): Promise<void> {
  for (const [schema, causes] of cases) await refusedCrd(backend, crdOf([schema], options), causes);
}

/** Creates a one-version CRD of each root schema; each must be created (201) with no warning, its schema stored as sent (or as given). */
async function accepted(backend: Backend, schemas: Array<Schema | [Schema, Schema]>, options: Options = {}): Promise<void> {
  for (const one of schemas) {
    const [schema, stored] = Array.isArray(one) ? one : [one, one];
    const answer = await post(backend, crdOf([schema], options).body);
    assert.equal(answer.status, 201, `${JSON.stringify(schema)}: ${String(answer.body['message'])}`);
    assert.deepEqual(storedSchema(answer.body), stored, `stored for ${JSON.stringify(schema)}`);
    assert.deepEqual(answer.warnings, [], `warnings for ${JSON.stringify(schema)}`);
  }
}

/**
 * Reads the CRD `name`, gives its first version this root schema and replaces it; again when the server's own
 * controllers wrote the CRD in between (409).
 */
async function putSchema(backend: Backend, name: string, schema: Schema, attempt = 0): Promise<RawAnswer> {
  const url = `${CRDS}/${name}`;
  const current = (await raw(backend.kubeConfig, 'GET', url)).body as { spec: { versions: Array<{ schema: Schema }> } };
  const version = current.spec.versions[0];
  assert.ok(version !== undefined);
  version.schema = { openAPIV3Schema: schema };
  const answer = await raw(backend.kubeConfig, 'PUT', url, JSON.stringify(current));
  return answer.status === 409 && attempt < 5 ? putSchema(backend, name, schema, attempt + 1) : answer;
}

function storedSchema(crd: Record<string, unknown>): unknown {
  return (crd['spec'] as { versions: Array<{ schema: { openAPIV3Schema: unknown } }> }).versions[0]?.schema.openAPIV3Schema;
}

const required = (field: string, detail = ''): Cause => ['FieldValueRequired', field, detail === '' ? 'Required value' : `Required value: ${detail}`];
const forbidden = (field: string, detail: string): Cause => ['FieldValueForbidden', field, `Forbidden: ${detail}`];
/** Go's `encoding/json` escapes `<`, `>` and `&`. */
const goJsonText = (value: unknown): string => JSON.stringify(value).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
const invalidValue = (field: string, value: unknown, detail: string): Cause => ['FieldValueInvalid', field, `Invalid value: ${goJsonText(value)}: ${detail}`];
const unsupported = (field: string, value: string, supported: string[]): Cause => ['FieldValueNotSupported', field, `Unsupported value: "${value}": supported values: "${supported.join('", "')}"`];
const notStructural = (field: string, keyword: string, detail = 'must be empty to be structural'): Cause => forbidden(`${field}.${keyword}`, detail);
const TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const INSIDE_META = 'must not be used inside of resource meta';
const ONLY_NAME = 'must not specify anything other than name and generateName, but metadata is implicitly specified';

/** A CEL rule as kube-apiserver shows it in a compile error: its Go struct, as JSON. */
function ruleDump(rule: string): Schema {
  return { Rule: rule, Message: '', MessageExpression: '', Reason: null, FieldPath: '', OptionalOldSelf: null };
}

/** A schema node as kube-apiserver shows it in the status-subresource root check: its whole Go struct, as JSON. */
function schemaDump(set: Schema): Schema {
  const fields = 'ID Schema Ref Description Type Nullable Format Title Default Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Enum MaxProperties MinProperties Required Items AllOf OneOf AnyOf Not Properties AdditionalProperties PatternProperties Dependencies AdditionalItems Definitions ExternalDocs Example XPreserveUnknownFields XEmbeddedResource XIntOrString XListMapKeys XListType XMapType XValidations';
  const strings = new Set(['ID', 'Schema', 'Description', 'Type', 'Format', 'Title', 'Pattern']);
  const flags = new Set(['Nullable', 'ExclusiveMaximum', 'ExclusiveMinimum', 'UniqueItems', 'XEmbeddedResource', 'XIntOrString']);
  return Object.fromEntries(fields.split(' ').map((f) => [f, f in set ? set[f] : strings.has(f) ? '' : flags.has(f) ? false : null]));
}
const ROOT_FIELDS = '[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]';

export function crdSchemaSuite(backend: () => Backend): void {
  describe('CRD schema structure', () => {
    test('every version needs a schema, served or not: Required at `spec.versions[<i>].schema.openAPIV3Schema`', async () => {
      const at = (i: number): string => `spec.versions[${i}].schema.openAPIV3Schema`;
      await refusedCrd(backend(), crdOf([null]), [required(at(0))]);
      await refusedCrd(backend(), crdOf([specOf({}), null]), [required(at(1))]);
      for (const version of [{ served: false }, { schema: {} }]) {
        const crd = crdOf([null]);
        Object.assign(crd.body.spec.versions[0] ?? {}, version);
        await refusedCrd(backend(), crd, [required(at(0))]);
      }
    });

    test('a missing or unsupported `type`: at the root, on a property, on array items; an array without items; `type: null`', async () => {
      await refused(backend(), [
        [{}, [required(`${ROOT}.type`, 'must not be empty at the root')]],
        [{ properties: { spec: obj } }, [required(`${ROOT}.type`, 'must not be empty at the root')]],
        [{ type: 'string' }, [invalidValue(`${ROOT}.type`, 'string', 'must be object at the root')]],
        [onA({}), [required(`${A}.type`, 'must not be empty for specified object fields')]],
        [onA({ type: 'array', items: {} }), [required(`${A}.items.type`, 'must not be empty for specified array items')]],
        [onA({ type: 'array' }), [required(`${A}.items`, 'must be specified')]],
        [onA({ type: 'foo' }), [unsupported(`${A}.type`, 'foo', TYPES)]],
        // Two checks of one node, in this order.
        [onA({ type: 'null' }), [unsupported(`${A}.type`, 'null', TYPES), forbidden(`${A}.type`, 'type cannot be set to null, use nullable as an alternative')]],
      ]);
    });

    test('x-kubernetes-preserve-unknown-fields must be true or left out; int-or-string needs no type, or the exact anyOf of integer and string', async () => {
      await refused(backend(), [
        [onA({ type: 'object', 'x-kubernetes-preserve-unknown-fields': false }), [invalidValue(`${A}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined')]],
        [onA({ 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true }), [invalidValue(`${A}.x-kubernetes-preserve-unknown-fields`, true, 'must be false if x-kubernetes-int-or-string is true')]],
        // Without int-or-string, the anyOf does not stand in for a type.
        [onA({ anyOf: [int, str] }), [required(`${A}.type`, 'must not be empty for specified object fields')]],
        // String first is not the exception: both types are then "in a junctor" (sorted).
        [onA({ 'x-kubernetes-int-or-string': true, anyOf: [str, int] }), [notStructural(`${A}.anyOf[0]`, 'type'), notStructural(`${A}.anyOf[1]`, 'type')]],
      ]);
      await accepted(backend(), [
        onA({ 'x-kubernetes-int-or-string': true }), onA({ 'x-kubernetes-int-or-string': true, anyOf: [int, str] }),
        onA({ 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [int, str] }, { maxLength: 3 }] }), onA({ type: 'string', 'x-kubernetes-int-or-string': true }),
        { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      ]);
    });

    test('additionalProperties: never at the root, beside properties only as `true`', async () => {
      const mutual = 'additionalProperties and properties are mutual exclusive';
      await refused(backend(), [
        [{ type: 'object', additionalProperties: str }, [forbidden(`${ROOT}.additionalProperties`, 'must not be used at the root')]],
        [onA({ type: 'object', properties: { x: str }, additionalProperties: str }), [forbidden(`${A}.additionalProperties`, mutual)]],
        [onA({ type: 'object', properties: { x: str }, additionalProperties: false }), [forbidden(`${A}.additionalProperties`, mutual)]],
      ]);
      await accepted(backend(), [onA({ type: 'object', additionalProperties: false }), onA({ type: 'object', additionalProperties: true }), onA({ type: 'object', properties: { x: str }, additionalProperties: true })]);
    });

    test('at the root, metadata may only restrict name and generateName; kind and apiVersion must be strings; not nullable', async () => {
      const meta = `${ROOT}.properties[metadata]`;
      const withRoot = (root: Schema): Schema => ({ type: 'object', properties: { spec: obj, ...root } });
      await refused(backend(), [
        [withRoot({ metadata: { type: 'object', properties: { name: str, labels: obj } } }), [forbidden(meta, ONLY_NAME)]],
        [withRoot({ metadata: { type: 'object', properties: { labels: obj } } }), [forbidden(meta, ONLY_NAME)]],
        [withRoot({ metadata: { type: 'object', description: 'x' } }), [forbidden(meta, ONLY_NAME)]],
        [withRoot({ metadata: str }), [invalidValue(`${meta}.type`, 'string', 'must be object')]],
        // Sorted: "Invalid value" before "Required value".
        [withRoot({ metadata: { properties: { name: str } } }), [invalidValue(`${meta}.type`, '', 'must be object'), required(`${meta}.type`, 'must not be empty for specified object fields')]],
        [withRoot({ kind: int }), [invalidValue(`${ROOT}.properties[kind].type`, 'integer', 'must be string')]],
        [withRoot({ apiVersion: int }), [invalidValue(`${ROOT}.properties[apiVersion].type`, 'integer', 'must be string')]],
        [{ type: 'object', nullable: true }, [forbidden(`${ROOT}.nullable`, 'nullable cannot be true at the root')]],
      ]);
      await accepted(backend(), [
        withRoot({ metadata: obj }), withRoot({ metadata: { type: 'object', properties: { name: str } } }),
        withRoot({ metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 5 }, generateName: str } } }),
      ]);
    });

    test('inside anyOf, allOf, oneOf and not: no type, default, description, title, nullable, CEL rules, additionalProperties, extensions or metadata', async () => {
      const nested = 'must not be specified in a nested context';
      await refused(backend(), [
        [onA({ type: 'string', anyOf: [str] }), [notStructural(`${A}.anyOf[0]`, 'type')]],
        [onA({ type: 'string', allOf: [str] }), [notStructural(`${A}.allOf[0]`, 'type')]],
        [onA({ type: 'string', oneOf: [str] }), [notStructural(`${A}.oneOf[0]`, 'type')]],
        [onA({ type: 'string', not: str }), [notStructural(`${A}.not`, 'type')]],
        [onA({ type: 'object', properties: { b: str }, anyOf: [{ properties: { b: str } }] }), [notStructural(`${A}.anyOf[0].properties[b]`, 'type')]],
        [onA({ type: 'string', anyOf: [{ default: 'x' }] }), [notStructural(`${A}.anyOf[0]`, 'default', 'must be undefined to be structural')]],
        [onA({ type: 'string', anyOf: [{ description: 'x' }] }), [notStructural(`${A}.anyOf[0]`, 'description')]],
        [onA({ type: 'string', anyOf: [{ title: 'x' }] }), [notStructural(`${A}.anyOf[0]`, 'title')]],
        [onA({ type: 'string', anyOf: [{ nullable: true }] }), [notStructural(`${A}.anyOf[0]`, 'nullable', 'must be false to be structural')]],
        [onA({ type: 'string', anyOf: [{ 'x-kubernetes-validations': [{ rule: 'true' }] }] }), [notStructural(`${A}.anyOf[0]`, 'x-kubernetes-validations')]],
        [onA({ type: 'string', allOf: [{ 'x-kubernetes-validations': [{ rule: 'true' }] }] }), [notStructural(`${A}.allOf[0]`, 'x-kubernetes-validations')]],
        [onA({ type: 'object', additionalProperties: str, anyOf: [{ additionalProperties: { minLength: 1 } }] }), [notStructural(`${A}.anyOf[0]`, 'additionalProperties', 'must be undefined to be structural')]],
        [onA({ type: 'object', anyOf: [{ 'x-kubernetes-preserve-unknown-fields': true }] }), [notStructural(`${A}.anyOf[0]`, 'x-kubernetes-preserve-unknown-fields', 'must be false to be structural')]],
        // A structural error, then the list-type check of the same junctor node.
        [
          onA({ type: 'array', items: str, anyOf: [{ 'x-kubernetes-list-type': 'set' }] }),
          [notStructural(`${A}.anyOf[0]`, 'x-kubernetes-list-type', 'must be undefined to be structural'), required(`${A}.anyOf[0].type`, 'must be array if x-kubernetes-list-type is specified')],
        ],
        [onA({ type: 'object', properties: { metadata: obj }, anyOf: [{ properties: { metadata: { required: ['x'] } } }] }), [forbidden(`${A}.anyOf[0].properties[metadata]`, nested)]],
        [onA({ type: 'object', properties: { metadata: obj }, anyOf: [{ not: { properties: { metadata: { required: ['x'] } } } }] }), [forbidden(`${A}.anyOf[0].not.properties[metadata]`, nested)]],
        [{ type: 'object', properties: { metadata: obj }, anyOf: [{ properties: { metadata: { required: ['name'] } } }] }, [forbidden(`${ROOT}.anyOf[0].properties[metadata]`, nested)]],
      ]);
    });

    test('a field constrained by a root-level junctor must be declared outside it ("because it is defined in"); deeper junctors are not checked', async () => {
      const because = (field: string, where: string): Cause => required(field, `because it is defined in ${where}`);
      await refused(backend(), [
        [specOf({}, { anyOf: [{ properties: { other: { minLength: 1 } } }] }), [because(`${ROOT}.properties[other]`, `${ROOT}.anyOf[0].properties[other]`)]],
        [specOf({}, { not: { properties: { other: { minLength: 1 } } } }), [because(`${ROOT}.properties[other]`, `${ROOT}.not.properties[other]`)]],
        [specOf({}, { anyOf: [{ properties: { spec: { properties: { b: { minLength: 1 } } } } }] }), [because(`${ROOT}.properties[spec].properties[b]`, `${ROOT}.anyOf[0].properties[spec].properties[b]`)]],
        [specOf({ a: str }, { anyOf: [{ properties: { spec: { properties: { a: { items: { minLength: 1 } } } } } }] }), [because(`${A}.items`, `${ROOT}.anyOf[0].properties[spec].properties[a].items`)]],
        // Sorted by field: aa before zz.
        [
          specOf({}, { anyOf: [{ properties: { zz: { minLength: 1 } } }, { properties: { aa: { minLength: 1 } } }] }),
          [because(`${ROOT}.properties[aa]`, `${ROOT}.anyOf[1].properties[aa]`), because(`${ROOT}.properties[zz]`, `${ROOT}.anyOf[0].properties[zz]`)],
        ],
      ]);
      await accepted(backend(), [
        specOf({ a: str }, { allOf: [{ properties: { spec: { properties: { a: { minLength: 1 } } } } }] }),
        onA({ type: 'object', properties: { b: str }, anyOf: [{ properties: { b: { minLength: 1 } } }, { required: ['b'] }] }),
        onA({ type: 'object', anyOf: [{ properties: { b: { minLength: 1 } } }] }), onA({ type: 'object', anyOf: [{ items: { minLength: 1 } }] }),
      ]);
    });

    test('unsupported JSON Schema: uniqueItems, $ref, patternProperties, definitions, dependencies, additionalItems, id, items as a list, $schema, a pattern Go (RE2) cannot compile', async () => {
      const notSupported = (keyword: string): Cause => forbidden(`${A}.${keyword}`, `${keyword} is not supported`);
      const regexp = (pattern: string, error: string, at = A): Cause => invalidValue(`${at}.pattern`, pattern, `must be a valid regular expression, but isn't: error parsing regexp: ${error}`);
      await refused(backend(), [
        [onA({ type: 'array', items: str, uniqueItems: true }), [forbidden(`${A}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic')]],
        [onA({ $ref: '#/definitions/x' }), [notSupported('$ref')]],
        [onA({ type: 'object', patternProperties: { '^x': str } }), [notSupported('patternProperties')]],
        [onA({ type: 'object', definitions: { x: str } }), [notSupported('definitions')]],
        [onA({ type: 'object', dependencies: { x: ['y'] } }), [notSupported('dependencies')]],
        [onA({ type: 'object', dependencies: { x: obj } }), [notSupported('dependencies')]],
        [onA({ type: 'array', items: str, additionalItems: false }), [notSupported('additionalItems')]],
        [onA({ type: 'array', items: str, additionalItems: str }), [notSupported('additionalItems')]],
        [onA({ type: 'string', id: 'x' }), [notSupported('id')]],
        [onA({ type: 'array', items: [str] }), [forbidden(`${A}.items`, 'items must be a schema object and not an array')]],
        // Only the structural conversion refuses $schema, at the root's path with an empty value.
        [onA({ type: 'string', $schema: 'http://json-schema.org/draft-04/schema#' }), [invalidValue(ROOT, '', "OpenAPIV3Schema 'schema' is not supported")]],
        [onA({ type: 'string', pattern: '(?=x)' }), [regexp('(?=x)', 'invalid or unsupported Perl syntax: `(?=`')]],
        [onA({ type: 'string', pattern: '(a)\\1' }), [regexp('(a)\\1', 'invalid escape sequence: `\\1`')]],
        [onA({ type: 'string', pattern: '(' }), [regexp('(', 'missing closing ): `(`')]],
        [onA({ type: 'string', anyOf: [{ pattern: '(' }] }), [regexp('(', 'missing closing ): `(`', `${A}.anyOf[0]`)]],
      ]);
    });

    test('x-kubernetes-embedded-resource: an object, with properties or preserve-unknown-fields, no additionalProperties, never inside metadata', async () => {
      const emb = { 'x-kubernetes-embedded-resource': true };
      const keep = { 'x-kubernetes-preserve-unknown-fields': true };
      const embedded = 'x-kubernetes-embedded-resource';
      await refused(backend(), [
        [onA({ ...emb, ...keep }), [required(`${A}.type`, 'must be object if x-kubernetes-embedded-resource is true')]],
        [onA({ type: 'string', ...emb, ...keep }), [invalidValue(`${A}.type`, 'string', 'must be object if x-kubernetes-embedded-resource is true')]],
        [onA({ type: 'object', ...emb }), [required(`${A}.properties`, 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields')]],
        [onA({ type: 'object', ...emb, ...keep, additionalProperties: str }), [forbidden(`${A}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set')]],
        [onA({ type: 'object', ...emb, properties: { kind: int } }), [invalidValue(`${A}.properties[kind].type`, 'integer', 'must be string')]],
        [onA({ type: 'object', ...emb, properties: { metadata: str } }), [invalidValue(`${A}.properties[metadata].type`, 'string', 'must be object')]],
        [onA({ type: 'object', ...emb, properties: { metadata: { type: 'object', properties: { x: { type: 'object', ...emb, ...keep } } } } }), [forbidden(`${A}.properties[metadata].properties[x].${embedded}`, INSIDE_META)]],
        // The structural error about metadata first, then the keyword check.
        [{ type: 'object', properties: { metadata: { type: 'object', ...emb, ...keep } } }, [forbidden(`${ROOT}.properties[metadata]`, ONLY_NAME), forbidden(`${ROOT}.properties[metadata].${embedded}`, INSIDE_META)]],
      ]);
      await accepted(backend(), [
        onA({ type: 'object', ...emb, ...keep }), onA({ type: 'object', ...emb, properties: { a: str } }),
        onA({ type: 'object', ...emb, properties: { metadata: { type: 'object', properties: { labels: { type: 'object', additionalProperties: str } } } } }),
      ]);
    });

    test('list and map types: values, the type they need, map keys, nullable items, sets of objects only atomic', async () => {
      const item = (properties: Schema, more: Schema = {}): Schema => ({ type: 'object', required: ['k'], properties, ...more });
      const map = (items: Schema, keys: unknown = ['k']): Schema => onA({ type: 'array', items, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys });
      const atomicForSet = 'must be atomic as item of a list with x-kubernetes-list-type=set';
      await refused(backend(), [
        [onA({ type: 'string', 'x-kubernetes-list-type': 'set' }), [invalidValue(`${A}.type`, 'string', 'must be array if x-kubernetes-list-type is specified')]],
        [onA({ 'x-kubernetes-list-type': 'atomic', 'x-kubernetes-preserve-unknown-fields': true }), [required(`${A}.type`, 'must be array if x-kubernetes-list-type is specified')]],
        [onA({ type: 'array', items: str, 'x-kubernetes-list-type': 'bag' }), [unsupported(`${A}.x-kubernetes-list-type`, 'bag', ['atomic', 'set', 'map'])]],
        [onA({ type: 'array', items: item({ k: str }), 'x-kubernetes-list-type': 'map' }), [required(`${A}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map')]],
        [onA({ type: 'array', items: item({ k: str }), 'x-kubernetes-list-map-keys': ['k'] }), [required(`${A}.x-kubernetes-list-type`, 'must be map if x-kubernetes-list-map-keys is non-empty')]],
        [map(item({ k: str }), ['nope']), [invalidValue(`${A}.x-kubernetes-list-map-keys`, ['nope'], 'entries must all be names of item properties')]],
        [map(item({ k: str }), ['k', 'k']), [invalidValue(`${A}.x-kubernetes-list-map-keys`, ['k', 'k'], 'must not contain duplicate entries')]],
        [map(str), [invalidValue(`${A}.items.type`, 'string', "must be object if parent array's x-kubernetes-list-type is map")]],
        [map(item({ k: obj })), [invalidValue(`${A}.items.properties[k].type`, 'object', "must be a scalar type if parent array's x-kubernetes-list-type is map")]],
        [map({ type: 'object', properties: { k: str } }), [required(`${A}.items.properties[k].default`, 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property')]],
        [map(item({ k: { type: 'string', nullable: true } })), [forbidden(`${A}.items.properties[k].nullable`, 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable')]],
        [map(item({ k: str }, { nullable: true })), [forbidden(`${A}.items.nullable`, 'cannot be nullable when x-kubernetes-list-type is map')]],
        [onA({ type: 'array', items: { type: 'string', nullable: true }, 'x-kubernetes-list-type': 'set' }), [forbidden(`${A}.items.nullable`, 'cannot be nullable when x-kubernetes-list-type is set')]],
        // The value shown is the items' list type (none), not their map type.
        [onA({ type: 'array', items: item({ k: str }), 'x-kubernetes-list-type': 'set' }), [invalidValue(`${A}.items.x-kubernetes-map-type`, null, atomicForSet)]],
        [onA({ type: 'array', items: item({ k: str }, { 'x-kubernetes-map-type': 'granular' }), 'x-kubernetes-list-type': 'set' }), [invalidValue(`${A}.items.x-kubernetes-map-type`, null, atomicForSet)]],
        [onA({ type: 'array', items: { type: 'array', items: str, 'x-kubernetes-list-type': 'set' }, 'x-kubernetes-list-type': 'set' }), [invalidValue(`${A}.items.x-kubernetes-list-type`, 'set', atomicForSet)]],
        [onA({ type: 'object', 'x-kubernetes-map-type': 'bag' }), [unsupported(`${A}.x-kubernetes-map-type`, 'bag', ['atomic', 'granular'])]],
        [onA({ type: 'string', 'x-kubernetes-map-type': 'atomic' }), [invalidValue(`${A}.type`, 'string', 'must be object if x-kubernetes-map-type is specified')]],
        [onA({ 'x-kubernetes-map-type': 'atomic', 'x-kubernetes-preserve-unknown-fields': true }), [required(`${A}.type`, 'must be object if x-kubernetes-map-type is specified')]],
      ]);
      await accepted(backend(), [map(item({ k: str, v: str })), map({ type: 'object', properties: { k: { type: 'string', default: 'x' } } })]);
      // A set of atomic objects is created, with a warning.
      const set = onA({ type: 'array', items: item({ k: str }, { 'x-kubernetes-map-type': 'atomic' }), 'x-kubernetes-list-type': 'set' });
      const answer = await post(backend(), crdOf([set]).body);
      assert.equal(answer.status, 201, String(answer.body['message']));
      assert.deepEqual(answer.warnings, ['x-kubernetes-list-type: set for items of type "object" is not supported by server-side apply or CEL validation rules']);
    });

    test('CEL rules, checked before compiling: rule, message, messageExpression, reason, fieldPath, optionalOldSelf, oldSelf in a list', async () => {
      const V = `${A}.x-kubernetes-validations[0]`;
      const rules = (list: Schema[], schema: Schema = str): Schema => onA({ ...schema, 'x-kubernetes-validations': list });
      const withB = { type: 'object', properties: { b: str } };
      const uncorrelatable = (where: string): Cause => invalidValue(`${where}.x-kubernetes-validations[0].rule`, 'self == oldSelf', `oldSelf cannot be used on the uncorrelatable portion of the schema within ${A}`);
      const oldSelfRule = { 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] };
      const oldSelf = { type: 'string', maxLength: 5, ...oldSelfRule };
      await refused(backend(), [
        [rules([{ rule: '' }]), [required(`${V}.rule`, 'rule is not specified')]],
        [rules([{ rule: '  ', message: 'm' }]), [required(`${V}.rule`, 'rule is not specified')]],
        [rules([{ rule: 'true' }, { rule: '' }]), [required(`${A}.x-kubernetes-validations[1].rule`, 'rule is not specified')]],
        [rules([{ rule: 'true', message: '  ' }]), [invalidValue(`${V}.message`, '  ', 'must be non-empty if specified')]],
        [rules([{ rule: 'true', message: 'a\nb' }]), [invalidValue(`${V}.message`, 'a\nb', 'must not contain line breaks')]],
        [rules([{ rule: 'self.size() > 0 &&\nself.size() < 5' }]), [required(`${V}.message`, 'message must be specified if rule contains line breaks')]],
        [rules([{ rule: 'true', messageExpression: ' ' }]), [required(`${V}.messageExpression`, 'messageExpression must be non-empty if specified')]],
        [rules([{ rule: 'true', reason: 'FieldValueBad' }]), [unsupported(`${V}.reason`, 'FieldValueBad', ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'])]],
        [rules([{ rule: 'true', fieldPath: '.nope' }], withB), [invalidValue(`${V}.fieldPath`, '.nope', 'must be a valid path')]],
        [rules([{ rule: 'true', fieldPath: 'b' }], withB), [invalidValue(`${V}.fieldPath`, 'b', 'must be a valid path')]],
        // Two checks of one fieldPath, in this order.
        [rules([{ rule: 'true', fieldPath: ' ' }], withB), [invalidValue(`${V}.fieldPath`, ' ', 'must be non-empty if specified'), invalidValue(`${V}.fieldPath`, ' ', 'must be a valid path')]],
        [rules([{ rule: 'true', fieldPath: '.b\n' }], withB), [invalidValue(`${V}.fieldPath`, '.b\n', 'must not contain line breaks'), invalidValue(`${V}.fieldPath`, '.b\n', 'must be a valid path')]],
        [rules([{ rule: 'self.size() > 0', optionalOldSelf: true }]), [invalidValue(`${V}.optionalOldSelf`, true, 'may not be set if oldSelf is not used in rule')]],
        [rules([{ rule: 'self.size() > 0', optionalOldSelf: false }]), [invalidValue(`${V}.optionalOldSelf`, false, 'may not be set if oldSelf is not used in rule')]],
        // Bounded lists, so that the rule's estimated cost stays within budget.
        [onA({ type: 'array', maxItems: 5, items: oldSelf }), [uncorrelatable(`${A}.items`)]],
        [onA({ type: 'array', maxItems: 5, 'x-kubernetes-list-type': 'set', items: oldSelf }), [uncorrelatable(`${A}.items`)]],
        [onA({ type: 'array', maxItems: 5, items: { type: 'object', properties: { b: oldSelf } } }), [uncorrelatable(`${A}.items.properties[b]`)]],
      ]);
      await accepted(backend(), [
        rules([{ rule: 'self.size() > 0 &&\nself.size() < 5', message: 'm' }]), rules([{ rule: 'true', reason: 'FieldValueForbidden', fieldPath: '.b' }], withB),
        onA({ type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { b: oldSelf } }),
        onA({ type: 'array', maxItems: 5, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', required: ['k'], properties: { k: str }, ...oldSelfRule } }),
      ]);
    });

    test('a CEL rule with a syntax error: the rule shown as its Go struct in JSON, then the compiler\'s messages, each at its place', async () => {
      const V = `${A}.x-kubernetes-validations[0].rule`;
      const operands = "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
      const withRule = (rule: string): Schema => onA({ type: 'object', properties: { b: str }, 'x-kubernetes-validations': [{ rule }] });
      const error = (rule: string, column: number, message: string): string => `ERROR: <input>:1:${column}: Syntax error: ${message}\n | ${rule}\n | ${'.'.repeat(column - 1)}^`;
      const fails = (rule: string, ...errors: Array<[column: number, message: string]>): [Schema, Cause[]] => [
        withRule(rule),
        [invalidValue(V, ruleDump(rule), `compilation failed: ${errors.map(([column, message]) => error(rule, column, message)).join('\n')}`)],
      ];
      await refused(backend(), [
        fails('self ==', [8, `mismatched input '<EOF>' expecting ${operands}`]),
        fails("(self.b == 'x'", [15, "missing ')' at '<EOF>'"]),
        fails("self.b == 'x' 'y'", [15, "extraneous input ''y'' expecting <EOF>"]),
        fails('self.b = 1', [8, "token recognition error at: '= '"], [10, "extraneous input '1' expecting <EOF>"]),
        fails('[1,', [4, "missing ']' at '<EOF>'"]),
      ]);
      // A field name in backquotes is CEL too.
      await accepted(backend(), [withRule("self.`b` != 'x'")]);
    });

    test('a CEL rule that reads a field the schema does not declare, or is not a bool, does not compile: at the `.` (of has(: the `(`), with the line and a caret', async () => {
      const V = `${A}.x-kubernetes-validations[0].rule`;
      const B = `${ROOT}.properties[spec].properties[b]`;
      /** `undefined field` errors of `rule`, each at the offset of its `.`, in cel-go's words. */
      const undefinedFields = (rule: string, ...fields: Array<[name: string, at: number]>): string => {
        const lines = rule.split('\n');
        const shown = fields.map(([name, at]) => {
          const before = rule.slice(0, at);
          const line = before.split('\n').length;
          const column = at - (before.lastIndexOf('\n') + 1);
          return `ERROR: <input>:${line}:${column + 1}: undefined field '${name}'\n | ${lines[line - 1] ?? ''}\n | ${'.'.repeat(column)}^`;
        });
        return `compilation failed: ${shown.join('\n')}`;
      };
      const on = (a: Schema, rule: string, entry: Schema = {}): Schema => onA({ ...a, 'x-kubernetes-validations': [{ rule, ...entry }] });
      const withB = { type: 'object', properties: { b: str } };
      const items = { type: 'array', maxItems: 5, items: { type: 'object', properties: { n: int } } };
      const values = { type: 'object', maxProperties: 3, additionalProperties: { type: 'object', properties: { p: str } } };
      const embedded = { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true };
      const fails = (a: Schema, rule: string, detail: string, message?: string): [Schema, Cause[]] => [
        on(a, rule, message === undefined ? {} : { message }),
        [invalidValue(V, { ...ruleDump(rule), ...(message === undefined ? {} : { Message: message }) }, detail)],
      ];
      const multiLine = "self.b == 'x' ||\n  self.nope == 'y'";
      await refused(backend(), [
        fails(withB, 'self.nope == 1', undefinedFields('self.nope == 1', ['nope', 4])),
        // Unknown fields are preserved, but only declared ones can be read.
        fails({ ...withB, 'x-kubernetes-preserve-unknown-fields': true }, 'self.undeclared == 1', undefinedFields('self.undeclared == 1', ['undeclared', 4])),
        fails({ type: 'object', additionalProperties: true, properties: undefined }, 'self.x == 1', undefinedFields('self.x == 1', ['x', 4])),
        fails(withB, 'has(self.nope)', undefinedFields('has(self.nope)', ['nope', 3])),
        fails({ type: 'object', properties: { items } }, 'self.items.all(i, i.nope == 0)', undefinedFields('self.items.all(i, i.nope == 0)', ['nope', 19])),
        fails({ type: 'object', properties: { items } }, 'self.items[0].q == 1', undefinedFields('self.items[0].q == 1', ['q', 13])),
        fails({ type: 'object', properties: { m: values } }, "self.m.all(k, self.m[k].q == 'x')", undefinedFields("self.m.all(k, self.m[k].q == 'x')", ['q', 23])),
        fails({ type: 'object', properties: { n: int } }, 'self.n == oldSelf.m', undefinedFields('self.n == oldSelf.m', ['m', 17])),
        // An embedded resource's metadata has only its name and generateName.
        fails(embedded, 'self.metadata.labels == {}', undefinedFields('self.metadata.labels == {}', ['labels', 13])),
        fails(withB, multiLine, undefinedFields(multiLine, ['nope', 23]), 'm'),
        fails(withB, 'self.x == self.y', undefinedFields('self.x == self.y', ['x', 4], ['y', 14])),
        fails(withB, 'self', 'cel expression must evaluate to a bool'),
        fails(withB, 'self.b.size()', 'cel expression must evaluate to a bool'),
        fails({ type: 'object', properties: { n: int } }, "self.n > 1 ? 'a' : 'b'", 'cel expression must evaluate to a bool'),
        fails({ type: 'object', properties: { when: { type: 'string', format: 'date-time' } } }, 'self.when', 'cel expression must evaluate to a bool'),
        fails({ type: 'object', properties: { items } }, 'self.items.map(x, x)', 'cel expression must evaluate to a bool'),
        // A static rule error (b) before a compile error (a): the schema errors of every node come first.
        [
          specOf({ a: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self' }] }, b: { type: 'string', 'x-kubernetes-validations': [{ rule: '' }] } }),
          [required(`${B}.x-kubernetes-validations[0].rule`, 'rule is not specified'), invalidValue(V, ruleDump('self'), 'cel expression must evaluate to a bool')],
        ],
        // At the root of the resource, metadata has only its name and generateName too.
        [specOf({ b: str }, { 'x-kubernetes-validations': [{ rule: 'self.metadata.labels.size() > 0' }] }), [invalidValue(`${ROOT}.x-kubernetes-validations[0].rule`, ruleDump('self.metadata.labels.size() > 0'), undefinedFields('self.metadata.labels.size() > 0', ['labels', 13]))]],
      ]);
      await accepted(backend(), [
        on({ type: 'object', additionalProperties: str }, "self.anykey == 'x'"),
        on({ type: 'object', properties: { i: { 'x-kubernetes-int-or-string': true } } }, 'self.i.b == 1'),
        on({ type: 'object', properties: { 'foo-bar': str } }, "self.foo__dash__bar == 'x'"),
        on({ type: 'object', properties: { when: { type: 'string', format: 'date-time' } } }, "self.when > timestamp('2020-01-01T00:00:00Z')"),
        on(embedded, "self.kind == 'X' && self.metadata.name == 'n'"),
        specOf({ b: str }, { 'x-kubernetes-validations': [{ rule: "self.metadata.name == 'x' && self.apiVersion != ''" }] }),
      ]);
    });

    test('with the status subresource, the root may only use some keywords: the root schema shown whole as its Go struct in JSON', async () => {
      const only = `only ${ROOT_FIELDS} fields are allowed at the root of the schema if the status subresource is enabled`;
      const status = { status: true };
      const objectOnly = 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled';
      await refused(backend(), [
        [{ type: 'object', maxProperties: 3 }, [invalidValue(ROOT, schemaDump({ Type: 'object', MaxProperties: 3 }), only)]],
        [{ type: 'object', anyOf: [{ required: ['a'] }] }, [invalidValue(ROOT, schemaDump({ Type: 'object', AnyOf: [schemaDump({ Required: ['a'] })] }), only)]],
        // The root check first, then the checks without the status subresource.
        [{ type: 'object', nullable: true }, [invalidValue(ROOT, schemaDump({ Type: 'object', Nullable: true }), only), forbidden(`${ROOT}.nullable`, 'nullable cannot be true at the root')]],
        [{ type: 'string' }, [invalidValue(`${ROOT}.type`, 'string', objectOnly), invalidValue(`${ROOT}.type`, 'string', 'must be object at the root')]],
      ], status);
      // An empty `properties` is not stored.
      const spec = { spec: obj };
      await accepted(backend(), [
        [specOf({}, { 'x-kubernetes-preserve-unknown-fields': true }), { type: 'object', properties: spec, 'x-kubernetes-preserve-unknown-fields': true }],
        { type: 'object', properties: spec, 'x-kubernetes-validations': [{ rule: 'true' }], required: ['spec'], description: 'd' },
        { type: 'object', example: { a: 1 }, externalDocs: { url: 'x' } },
      ], status);
    });

    test('several problems: structural errors first; defaults and CEL rules only checked on a structural schema, CEL errors last; versions in index order', async () => {
      const B = `${ROOT}.properties[spec].properties[b]`;
      const untyped = required(`${A}.type`, 'must not be empty for specified object fields');
      await refused(backend(), [
        // The bad default of b is not reported while a has no type.
        [specOf({ a: {}, b: { type: 'integer', default: 'x' } }), [untyped]],
        [specOf({ a: {}, b: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self ==' }] } }), [untyped]],
        // Structural errors sorted as text (b before z), whatever the property order.
        [specOf({ z: {}, b: { type: 'array' } }), [required(`${B}.items`, 'must be specified'), required(`${ROOT}.properties[spec].properties[z].type`, 'must not be empty for specified object fields')]],
        [specOf({ a: {}, b: { type: 'string', pattern: '(' } }), [untyped, invalidValue(`${B}.pattern`, '(', "must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `(`")]],
        [specOf({ a: {}, b: { type: 'string', 'x-kubernetes-validations': [{ rule: '' }] } }), [untyped, required(`${B}.x-kubernetes-validations[0].rule`, 'rule is not specified')]],
        // A bad default: the CEL rules are not compiled.
        [
          specOf({ a: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self' }] }, b: { type: 'integer', default: 'x' } }),
          [['FieldValueTypeInvalid', `${B}.default`, 'Invalid value: "string":  in body must be of type integer: "string"']],
        ],
      ]);
      const inVersion = (i: number): Cause => required(`spec.versions[${i}].schema.openAPIV3Schema.properties[spec].properties[a].type`, 'must not be empty for specified object fields');
      await refusedCrd(backend(), crdOf([specOf({}), specOf({ a: {} })]), [inVersion(1)]);
      await refusedCrd(backend(), crdOf([specOf({ a: {} }), specOf({ a: {}, b: str })]), [inVersion(0), inVersion(1)]);
      await refusedCrd(backend(), crdOf([specOf({ a: {} }), specOf({ a: {} })]), [untyped]);
      const ids = crdOf([specOf({ a: { type: 'string', id: 'x' } }), specOf({ a: { type: 'string', id: 'y' } })]);
      await refusedCrd(backend(), ids, [0, 1].map((i) => forbidden(`spec.versions[${i}].schema.openAPIV3Schema.properties[spec].properties[a].id`, 'id is not supported')));
    });

    test('a format kube-apiserver does not know is a warning, not a refusal; on update only a format new to the CRD', async () => {
      const warned = async (properties: Schema, warnings: string[]): Promise<Crd> => {
        const crd = crdOf([specOf(properties)]);
        const answer = await post(backend(), crd.body);
        assert.equal(answer.status, 201, String(answer.body['message']));
        assert.deepEqual(answer.warnings, warnings, JSON.stringify(properties));
        return crd;
      };
      await warned({ a: { type: 'string', format: 'date-time' }, b: { type: 'string', format: 'k8s-short-name' }, c: { type: 'integer', format: 'int32' }, d: { type: 'number', format: 'float' } }, []);
      await warned({ a: { type: 'string', format: 'phone' } }, ['unrecognized format "phone"']);
      await warned({ a: { type: 'integer', format: 'uuid' } }, ['unrecognized format "uuid"']);
      await warned({ a: { type: 'boolean', format: 'flag' } }, ['unrecognized format "flag"']);
      // Twice the same unknown format: a warning each time.
      await warned({ a: { type: 'array', items: { type: 'string', format: 'phone' } } }, ['unrecognized format "phone"']);
      const crd = await warned({ a: { type: 'string', format: 'phone' } }, ['unrecognized format "phone"']);
      // Served: the server's controllers are done writing the CRD's status.
      await backend().applyCrd(crd.body);
      const put = (properties: Schema): Promise<RawAnswer> => putSchema(backend(), crd.name, specOf(properties));
      const kept = await put({ a: { type: 'string', format: 'phone' }, b: str });
      assert.deepEqual([kept.status, kept.warnings], [200, []], 'a format the CRD already had: no warning');
      const added = await put({ a: { type: 'string', format: 'phone' }, b: { type: 'string', format: 'fax' } });
      assert.deepEqual([added.status, added.warnings], [200, ['unrecognized format "fax"']]);
    });

    test('an update (PUT) that makes the schema non-structural is refused the same way, the CRD unchanged', async () => {
      const crd = crdOf([onA(str)]);
      assert.equal((await post(backend(), crd.body)).status, 201);
      // Served: the server's controllers are done writing the CRD's status (each write a new resourceVersion).
      await backend().applyCrd(crd.body);
      const url = `${CRDS}/${crd.name}`;
      const put = (a: Schema): Promise<RawAnswer> => putSchema(backend(), crd.name, onA(a));
      const cases: Array<[Schema, Cause[]]> = [
        [{}, [required(`${A}.type`, 'must not be empty for specified object fields')]],
        [{ type: 'string', anyOf: [str] }, [notStructural(`${A}.anyOf[0]`, 'type')]],
        [{ type: 'array', items: str, uniqueItems: true }, [forbidden(`${A}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic')]],
      ];
      for (const [a, causes] of cases) {
        assert.deepEqual(answered(await put(a)), invalid(crd.name, causes), JSON.stringify(a));
        assert.deepEqual(storedSchema((await raw(backend().kubeConfig, 'GET', url)).body), onA(str));
      }
      const ok = await put({ type: 'integer' });
      assert.equal(ok.status, 200, String(ok.body['message']));
      assert.deepEqual(storedSchema(ok.body), onA(int));
    });
  });
}
