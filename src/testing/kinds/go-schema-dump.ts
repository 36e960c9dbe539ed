/**
 * CRD parts as kube-apiserver prints them in its messages: its internal Go structs through `encoding/json`, every
 * field in the struct's order, unset ones as their zero value (`""`, `false` or `null`), map keys sorted. A schema
 * node (`JSONSchemaProps`, in the status-subresource root check), a validation rule (in CEL compile errors) and the
 * versions (in the `spec.versions` causes).
 */
import { goJson } from '../go/go-values.js';
import { asSchema, keyword, type SchemaNode } from '../resources/schema-keywords.js';

/** The struct's fields in order: its Go name, the JSON keyword it holds, and how it prints. */
type Shape = 'string' | 'flag' | 'value' | 'schema' | 'schemas' | 'schemaMap' | 'items' | 'additional' | 'docs' | 'rules';

const FIELDS: ReadonlyArray<readonly [string, string, Shape]> = [
  ['ID', 'id', 'string'], ['Schema', '$schema', 'string'], ['Ref', '$ref', 'value'], ['Description', 'description', 'string'], ['Type', 'type', 'string'],
  ['Nullable', 'nullable', 'flag'], ['Format', 'format', 'string'], ['Title', 'title', 'string'], ['Default', 'default', 'value'], ['Maximum', 'maximum', 'value'],
  ['ExclusiveMaximum', 'exclusiveMaximum', 'flag'], ['Minimum', 'minimum', 'value'], ['ExclusiveMinimum', 'exclusiveMinimum', 'flag'], ['MaxLength', 'maxLength', 'value'],
  ['MinLength', 'minLength', 'value'], ['Pattern', 'pattern', 'string'], ['MaxItems', 'maxItems', 'value'], ['MinItems', 'minItems', 'value'], ['UniqueItems', 'uniqueItems', 'flag'],
  ['MultipleOf', 'multipleOf', 'value'], ['Enum', 'enum', 'value'], ['MaxProperties', 'maxProperties', 'value'], ['MinProperties', 'minProperties', 'value'],
  ['Required', 'required', 'value'], ['Items', 'items', 'items'], ['AllOf', 'allOf', 'schemas'], ['OneOf', 'oneOf', 'schemas'], ['AnyOf', 'anyOf', 'schemas'], ['Not', 'not', 'schema'],
  ['Properties', 'properties', 'schemaMap'], ['AdditionalProperties', 'additionalProperties', 'additional'], ['PatternProperties', 'patternProperties', 'schemaMap'],
  ['Dependencies', 'dependencies', 'value'], ['AdditionalItems', 'additionalItems', 'value'], ['Definitions', 'definitions', 'schemaMap'], ['ExternalDocs', 'externalDocs', 'docs'],
  ['Example', 'example', 'value'], ['XPreserveUnknownFields', 'x-kubernetes-preserve-unknown-fields', 'value'], ['XEmbeddedResource', 'x-kubernetes-embedded-resource', 'flag'],
  ['XIntOrString', 'x-kubernetes-int-or-string', 'flag'], ['XListMapKeys', 'x-kubernetes-list-map-keys', 'value'], ['XListType', 'x-kubernetes-list-type', 'value'],
  ['XMapType', 'x-kubernetes-map-type', 'value'], ['XValidations', 'x-kubernetes-validations', 'rules'],
];

const RULE_FIELDS: ReadonlyArray<readonly [string, string, 'string' | 'value']> = [
  ['Rule', 'rule', 'string'], ['Message', 'message', 'string'], ['MessageExpression', 'messageExpression', 'string'], ['Reason', 'reason', 'value'],
  ['FieldPath', 'fieldPath', 'string'], ['OptionalOldSelf', 'optionalOldSelf', 'value'],
];

const struct = (entries: ReadonlyArray<readonly [string, string]>): string => `{${entries.map(([name, value]) => `${goJson(name)}:${value}`).join(',')}}`;

/** `node` as kube-apiserver's Go struct prints as JSON. */
export function goSchemaDump(node: SchemaNode): string {
  return struct(FIELDS.map(([name, json, shape]) => [name, dumpField(keyword(node, json), shape)]));
}

function dumpField(value: unknown, shape: Shape): string {
  if (shape === 'string') return goJson(typeof value === 'string' ? value : '');
  if (shape === 'flag') return String(value === true);
  if (value === undefined || value === null) return 'null';
  switch (shape) {
    case 'schema':
      return goSchemaDump(asSchema(value) ?? {});
    case 'schemas':
      return Array.isArray(value) ? `[${value.map((item) => goSchemaDump(asSchema(item) ?? {})).join(',')}]` : 'null';
    case 'schemaMap': {
      const map = asSchema(value) ?? {};
      return `{${Object.keys(map).sort().map((key) => `${goJson(key)}:${goSchemaDump(asSchema(map[key]) ?? {})}`).join(',')}}`;
    }
    case 'items':
      return Array.isArray(value)
        ? struct([['Schema', 'null'], ['JSONSchemas', `[${value.map((item) => goSchemaDump(asSchema(item) ?? {})).join(',')}]`]])
        : struct([['Schema', goSchemaDump(asSchema(value) ?? {})], ['JSONSchemas', 'null']]);
    case 'additional':
      return typeof value === 'boolean' ? struct([['Allows', String(value)], ['Schema', 'null']]) : struct([['Allows', 'true'], ['Schema', goSchemaDump(asSchema(value) ?? {})]]);
    case 'docs': {
      const docs = asSchema(value) ?? {};
      return struct([['Description', goJson(docs['description'] ?? '')], ['URL', goJson(docs['url'] ?? '')]]);
    }
    case 'rules':
      return Array.isArray(value) ? `[${value.map((rule) => goRuleDump(asSchema(rule) ?? {})).join(',')}]` : 'null';
    default:
      return goJson(value);
  }
}

/** An `x-kubernetes-validations` rule as kube-apiserver's Go struct prints as JSON. */
export function goRuleDump(rule: Readonly<Record<string, unknown>>): string {
  return struct(RULE_FIELDS.map(([name, json, shape]) => [name, shape === 'string' ? goJson(typeof rule[json] === 'string' ? rule[json] : '') : goJson(rule[json] ?? null)]));
}

/** What kube-apiserver moved from the versions up to the spec (printed as null in each version). */
export interface HoistedParts {
  readonly schema: boolean;
  readonly subresources: boolean;
  readonly additionalPrinterColumns: boolean;
  readonly selectableFields: boolean;
}

/** A CRD's versions as kube-apiserver's internal Go structs print as JSON (`spec.versions` causes). */
export function goVersionsDump(versions: readonly Readonly<Record<string, unknown>>[], hoisted: HoistedParts): string {
  return `[${versions.map((version) => goVersionDump(version, hoisted)).join(',')}]`;
}

function goVersionDump(version: Readonly<Record<string, unknown>>, hoisted: HoistedParts): string {
  const schema = asSchema(asSchema(version['schema'])?.['openAPIV3Schema']);
  const subresources = asSchema(version['subresources']);
  const columns = Array.isArray(version['additionalPrinterColumns']) && version['additionalPrinterColumns'].length > 0 ? version['additionalPrinterColumns'] : undefined;
  const fields = Array.isArray(version['selectableFields']) && version['selectableFields'].length > 0 ? version['selectableFields'] : undefined;
  return struct([
    ['Name', goJson(typeof version['name'] === 'string' ? version['name'] : '')],
    ['Served', String(version['served'] === true)],
    ['Storage', String(version['storage'] === true)],
    ['Deprecated', String(version['deprecated'] === true)],
    ['DeprecationWarning', typeof version['deprecationWarning'] === 'string' ? goJson(version['deprecationWarning']) : 'null'],
    ['Schema', hoisted.schema || schema === undefined ? 'null' : struct([['OpenAPIV3Schema', goSchemaDump(schema)]])],
    ['Subresources', hoisted.subresources || subresources === undefined ? 'null' : goSubresourcesDump(subresources)],
    ['AdditionalPrinterColumns', hoisted.additionalPrinterColumns || columns === undefined ? 'null' : `[${columns.map((column) => goColumnDump(asSchema(column) ?? {})).join(',')}]`],
    ['SelectableFields', hoisted.selectableFields || fields === undefined ? 'null' : `[${fields.map((field) => struct([['JSONPath', goJson(asSchema(field)?.['jsonPath'] ?? '')]])).join(',')}]`],
  ]);
}

function goSubresourcesDump(subresources: SchemaNode): string {
  const scale = asSchema(subresources['scale']);
  return struct([
    ['Status', asSchema(subresources['status']) === undefined ? 'null' : '{}'],
    [
      'Scale',
      scale === undefined
        ? 'null'
        : struct([
            ['SpecReplicasPath', goJson(scale['specReplicasPath'] ?? '')],
            ['StatusReplicasPath', goJson(scale['statusReplicasPath'] ?? '')],
            ['LabelSelectorPath', typeof scale['labelSelectorPath'] === 'string' ? goJson(scale['labelSelectorPath']) : 'null'],
          ]),
    ],
  ]);
}

function goColumnDump(column: SchemaNode): string {
  return struct([
    ['Name', goJson(column['name'] ?? '')],
    ['Type', goJson(column['type'] ?? '')],
    ['Format', goJson(column['format'] ?? '')],
    ['Description', goJson(column['description'] ?? '')],
    ['Priority', goJson(typeof column['priority'] === 'number' ? column['priority'] : 0)],
    ['JSONPath', goJson(column['jsonPath'] ?? '')],
  ]);
}
