/**
 * The typed schema structured-merge-diff converts a server-side apply body of a built-in kind to, built from the
 * generated Go types (go/builtin-fields.ts): each struct's fields, each scalar's type (a quantity any scalar, an
 * int-or-string either), each list's keys with their defaults or set type. ObjectMeta's is every kind's `metadata`,
 * custom resources' included.
 */
import { parseMerge } from '../patch/strategic-keys.js';
import { BUILTIN_ROOTS, BUILTIN_STRUCTS } from '../go/builtin-fields.js';

/** A schema node (the OpenAPI keywords typed-apply.ts walks, plus `keyDefaults` of a keyed list). */
export type TypedNode = Readonly<Record<string, unknown>>;

export const ANY: TypedNode = { 'x-kubernetes-preserve-unknown-fields': true };
export const STRING: TypedNode = { type: 'string' };
export const INTEGER: TypedNode = { type: 'integer' };
export const BOOLEAN: TypedNode = { type: 'boolean' };
/** A value of any scalar type (a quantity: `1` or `"1"`), not a map or a list. */
export const ANY_SCALAR: TypedNode = { 'x-katalog-any-scalar': true };

const SCALARS: Readonly<Record<string, TypedNode>> = {
  s: STRING,
  i: INTEGER,
  n: { type: 'number' },
  b: BOOLEAN,
  io: { 'x-kubernetes-int-or-string': true },
  x: ANY_SCALAR,
};

const structs = new Map<string, TypedNode>();

/** The node of a generated type reference, with `strategy` (a list's keys or set type) when it is a field's. */
function typedNode(ref: string, strategy = ''): TypedNode {
  if (ref.startsWith('[]')) {
    const merge = parseMerge(strategy, ref);
    const list: Record<string, unknown> = { type: 'array', items: typedNode(ref.slice(2)) };
    if (merge.applyKeys !== undefined && merge.applyKeys.length > 0) {
      list['x-kubernetes-list-type'] = 'map';
      list['x-kubernetes-list-map-keys'] = merge.applyKeys;
      list['keyDefaults'] = Object.fromEntries(merge.keyDefaults);
    } else if (merge.applyKeys !== undefined) list['x-kubernetes-list-type'] = 'set';
    return list;
  }
  if (ref.startsWith('{}')) return { type: 'object', additionalProperties: typedNode(ref.slice(2)) };
  const fields = BUILTIN_STRUCTS[ref];
  if (fields === undefined) return SCALARS[ref.split(':')[0] ?? ''] ?? ANY;
  const known = structs.get(ref);
  if (known !== undefined) return known;
  const properties: Record<string, TypedNode> = {};
  const node = { type: 'object', properties };
  structs.set(ref, node);
  for (const [field, type, fieldStrategy] of fields) properties[field] = typedNode(type, fieldStrategy);
  return node;
}

/** ObjectMeta's node: `metadata` of every object and of an embedded resource. */
export const OBJECT_META: TypedNode = typedNode('meta.v1.ObjectMeta');

/** The generated struct of a built-in kind in `version` (`<group>/<version>/<Kind>`, core kinds `v1/<Kind>`). */
export function builtInRootStruct(type: { readonly group: string; readonly kind: string }, version: string): string | undefined {
  return BUILTIN_ROOTS[type.group === '' ? `${version}/${type.kind}` : `${type.group}/${version}/${type.kind}`];
}

/** The node of a built-in kind's whole object in `version`, or undefined for a kind the generated types lack. */
export function builtInTypedRoot(type: { readonly group: string; readonly kind: string }, version: string): TypedNode | undefined {
  const root = builtInRootStruct(type, version);
  return root === undefined ? undefined : typedNode(root);
}
