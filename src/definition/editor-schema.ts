/**
 * The JSON Schema for editors (`schema.json` at the package root), generated from the TypeBox schemas: one
 * document is a Katalog, a Komposer or a Motif (`oneOf`, told apart by `kind`). Repeated parts (CRD entry,
 * operatorBox, template entry, condition...) are written once under `definitions` and referenced, and our
 * checker's private `x-` keywords are removed. Draft-07, which the VS Code YAML extension understands.
 */
import { KatalogSchema, KomposerSchema, MotifSchema, CrdEntrySchema, CrdListEntrySchema, CrdOverrideSchema, CrdOverrideListEntrySchema, ApiTypesSchema } from './schema.js';
import { ConditionSchema, ManifestEntrySchema, OperatorBoxSchema, StatusFieldSchema, TemplateEntrySchema, TemplatePhaseSchema } from './schema-operator-box.js';

/** Named parts, innermost first, so that outer parts reference inner ones. */
const NAMED: ReadonlyArray<readonly [string, object]> = [
  ['condition', ConditionSchema],
  ['templateEntry', TemplateEntrySchema],
  ['manifestEntry', ManifestEntrySchema],
  ['templatePhase', TemplatePhaseSchema],
  ['statusField', StatusFieldSchema],
  ['operatorBox', OperatorBoxSchema],
  ['apiTypes', ApiTypesSchema],
  ['crdEntry', CrdEntrySchema],
  ['crdListEntry', CrdListEntrySchema],
  ['crdOverride', CrdOverrideSchema],
  ['crdOverrideListEntry', CrdOverrideListEntrySchema],
];

type Json = unknown;

/** Plain JSON of a schema: symbols and `x-` keys dropped. */
function plain(schema: unknown): Json {
  if (Array.isArray(schema)) return schema.map(plain);
  if (typeof schema !== 'object' || schema === null) return schema;
  const result: Record<string, Json> = {};
  for (const [key, value] of Object.entries(schema)) if (!key.startsWith('x-')) result[key] = plain(value);
  return result;
}

/** Replaces every subtree equal to a named part (other than `skip`) by a `$ref`. */
function hoist(schema: Json, names: ReadonlyMap<string, string>, skip?: string): Json {
  if (typeof schema !== 'object' || schema === null) return schema;
  const name = names.get(JSON.stringify(schema));
  if (name !== undefined && name !== skip) return { $ref: `#/definitions/${name}` };
  if (Array.isArray(schema)) return schema.map((item) => hoist(item, names, skip));
  const result: Record<string, Json> = {};
  for (const [key, value] of Object.entries(schema)) result[key] = hoist(value, names, skip);
  return result;
}

/** The editor schema as an object. */
export function editorSchema(): Record<string, Json> {
  const names = new Map<string, string>();
  const definitions: Record<string, Json> = {};
  for (const [name, schema] of NAMED) {
    const json = plain(schema);
    definitions[name] = hoist(json, names, name);
    names.set(JSON.stringify(json), name);
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://katalog.dev/schema.json',
    title: 'katalog definition (Katalog, Komposer or Motif)',
    oneOf: [KatalogSchema, KomposerSchema, MotifSchema].map((schema) => hoist(plain(schema), names)),
    definitions,
  };
}

/** The exact text of `schema.json`: two-space JSON and a final newline. */
export function editorSchemaText(): string {
  return `${JSON.stringify(editorSchema(), null, 2)}\n`;
}
