/**
 * Which fields a resource declares, as kube-apiserver's decoder knows them, for `fieldValidation`: a custom
 * resource's structural schema (of the version asked), `metadata` as ObjectMeta, and the fields of the Go structs a
 * built-in kind is made of, at every level (`go/builtin-fields.ts`, generated from k8s.io/api).
 */
import { BUILTIN_STRUCTS } from '../go/builtin-fields.js';
import { builtInRootStruct } from './builtin-typed-schema.js';
import type { ResourceView } from './resource-type.js';

/** A schema node; `undefined` accepts anything below it. */
export type FieldNode = Readonly<Record<string, unknown>> | undefined;

const ANY = {};
const OBJECT_META: FieldNode = {
  type: 'object',
  properties: Object.fromEntries(
    [
      'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp',
      'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields',
    ].map((field) => [field, ANY]),
  ),
};

/** Every field of an `autoscaling/v1` Scale (the `/scale` subresource's object). */
export const SCALE_FIELDS: FieldNode = {
  type: 'object',
  properties: {
    apiVersion: ANY,
    kind: ANY,
    metadata: OBJECT_META,
    spec: { type: 'object', properties: { replicas: ANY } },
    status: { type: 'object', properties: { replicas: ANY, selector: ANY } },
  },
};

/** Every field of a `v1` Binding (the `pods/binding` subresource's and the `bindings` collection's object). */
export const BINDING_FIELDS: FieldNode = {
  type: 'object',
  properties: {
    apiVersion: ANY,
    kind: ANY,
    metadata: OBJECT_META,
    target: { type: 'object', properties: Object.fromEntries(['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'].map((field) => [field, ANY])) },
  },
};

/** The node of each generated struct, built once; a recursive struct (a CRD's JSONSchemaProps) is a cycle of nodes. */
const structNodes = new Map<string, FieldNode>();

/** The node of a generated type reference: `[]T` a list, `{}T` a map, a struct's name, else a scalar (nothing below). */
function typeNode(ref: string): FieldNode {
  if (ref.startsWith('[]')) return { type: 'array', items: typeNode(ref.slice(2)) };
  if (ref.startsWith('{}')) return { type: 'object', additionalProperties: typeNode(ref.slice(2)) };
  if (BUILTIN_STRUCTS[ref] === undefined) return ANY;
  const known = structNodes.get(ref);
  if (known !== undefined) return known;
  const properties: Record<string, FieldNode> = {};
  const node = { type: 'object', properties };
  structNodes.set(ref, node);
  for (const [field, fieldType] of BUILTIN_STRUCTS[ref] ?? []) properties[field] = typeNode(fieldType);
  return node;
}

function asNode(value: unknown): FieldNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * A schema extension, under its JSON name or the name client-node's models give it: a CRD object passed to
 * `applyCrd` straight from `loadYaml<V1CustomResourceDefinition>` carries `x_kubernetes_preserve_unknown_fields`.
 */
/** The two spellings of each extension a schema may use (the key names, built once). */
const EXTENSIONS = {
  'preserve-unknown-fields': ['x-kubernetes-preserve-unknown-fields', 'x_kubernetes_preserve_unknown_fields'],
  'embedded-resource': ['x-kubernetes-embedded-resource', 'x_kubernetes_embedded_resource'],
} as const;

export function extension(node: Readonly<Record<string, unknown>>, name: 'preserve-unknown-fields' | 'embedded-resource'): boolean {
  const [dashed, underscored] = EXTENSIONS[name];
  return node[dashed] === true || node[underscored] === true;
}

/** Root nodes built, per resource type and version, with the schema each was built from. */
const roots = new WeakMap<object, Map<string, { readonly schema: unknown; readonly node: FieldNode }>>();

/**
 * The schema node of a whole object of `view`. Built once per resource type, version and schema object (every
 * create, update and patch asks for it), and rebuilt when the type's schema of that version is another object.
 */
export function rootNode(view: ResourceView): FieldNode {
  const schema = view.type.schemas?.[view.version];
  let byVersion = roots.get(view.type);
  if (byVersion === undefined) {
    byVersion = new Map();
    roots.set(view.type, byVersion);
  }
  const known = byVersion.get(view.version);
  if (known !== undefined && known.schema === schema) return known.node;
  const node = buildRootNode(view);
  byVersion.set(view.version, { schema, node });
  return node;
}

function buildRootNode(view: ResourceView): FieldNode {
  const base = { apiVersion: ANY, kind: ANY, metadata: OBJECT_META };
  if (!view.type.builtin) {
    const schema = asNode(view.type.schemas?.[view.version]);
    if (schema === undefined) return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: base };
    return { ...schema, type: 'object', properties: { ...(asNode(schema['properties']) ?? {}), ...base } };
  }
  const root = builtInRootStruct(view.type, view.version);
  return root === undefined ? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: base } : typeNode(root);
}

/** Whether `key` is declared under `node`, and the node of its value. */
/** What {@link childOf} answers for a field nothing is known about below, and for an unknown field (shared). */
const KNOWN_UNCHECKED = { known: true, node: undefined } as const;
const UNKNOWN = { known: false, node: undefined } as const;

export function childOf(node: FieldNode, key: string): { readonly known: boolean; readonly node: FieldNode } {
  if (node === undefined) return KNOWN_UNCHECKED;
  const properties = asNode(node['properties']);
  const additional = node['additionalProperties'];
  // Not an object schema (a scalar, int-or-string, or an empty schema): nothing to say about its fields.
  if (node['type'] !== 'object' && properties === undefined && additional === undefined) return KNOWN_UNCHECKED;
  const declared = properties?.[key];
  if (declared !== undefined) return { known: true, node: asNode(declared) ?? ANY };
  if (additional === true) return KNOWN_UNCHECKED;
  if (asNode(additional) !== undefined) return { known: true, node: asNode(additional) };
  if (extension(node, 'preserve-unknown-fields')) return KNOWN_UNCHECKED;
  if (extension(node, 'embedded-resource') && (key === 'apiVersion' || key === 'kind' || key === 'metadata')) return KNOWN_UNCHECKED;
  return UNKNOWN;
}

/** The node of an array's items. */
export function itemsOf(node: FieldNode): FieldNode {
  return node === undefined ? undefined : asNode(node['items']);
}

/** Whether `value` has a field `node` does not declare (what pruning would remove), without building paths or copies. */
export function hasUnknown(value: unknown, node: FieldNode): boolean {
  if (Array.isArray(value)) {
    const items = itemsOf(node);
    return value.some((item) => hasUnknown(item, items));
  }
  if (node === undefined || typeof value !== 'object' || value === null) return false;
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const child = childOf(node, key);
    if (!child.known || hasUnknown(object[key], child.node)) return true;
  }
  return false;
}

/** The dotted path of `key` below `path`, as kube-apiserver names an unknown field. */
export function fieldPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/**
 * The fields `node` does not declare, as problems (keys in the order given by `order`); with `prune`, removes them
 * from `value` in place.
 */
export function pruneUnknown(value: unknown, node: FieldNode, path = '', order: (keys: string[]) => string[] = (keys) => keys, prune = true): string[] {
  const removed: string[] = [];
  if (Array.isArray(value)) {
    value.forEach((item, index) => removed.push(...pruneUnknown(item, itemsOf(node), `${path}[${index}]`, order, prune)));
    return removed;
  }
  if (node === undefined || typeof value !== 'object' || value === null) return removed;
  const object = value as Record<string, unknown>;
  for (const key of order(Object.keys(object))) {
    const child = childOf(node, key);
    if (!child.known) {
      removed.push(`unknown field "${fieldPath(path, key)}"`);
      if (prune) delete object[key];
    } else removed.push(...pruneUnknown(object[key], child.node, fieldPath(path, key), order, prune));
  }
  return removed;
}
