/**
 * What one mutation of a MutatingAdmissionPolicy makes of the object, as kube-apiserver's patchers do it
 * (policy/mutating/patch): an `ApplyConfiguration` is an `Object{...}` merged into the object with server-side
 * apply's merge rules but no ownership (maps merge, associative lists merge by key, sets by value, the rest replaced),
 * after its types are checked against the kind's schema and it is refused when it would change an atomic list, map
 * or struct; a `JSONPatch` is a list of `JSONPatch{...}` applied to the object's JSON (a failed `test` leaves the
 * object as it was). What fails is a {@link MutationError}, which the policy's failurePolicy decides on; the
 * patched document that does not decode into a built-in kind's struct (a field it does not declare, a value of the
 * wrong type) is the 500 kube-apiserver answers whatever the policy.
 */
import { CelEvalError, CelObject, isList, typeName, type CelValue } from '../cel/values.js';
import { toJson, typeNameMismatches } from '../cel/patch-types.js';
import { applyDecodedJsonPatch, decodeJsonPatch, PatchError } from '../patch/index.js';
import { mergeApplied } from '../patch/apply-merge.js';
import { childOf, extension, itemsOf, type FieldNode } from '../resources/known-fields.js';
import type { ListKeyLookup } from '../patch/index.js';
import type { KubeObject } from '../store/record.js';

/** A mutation that failed: `message` is kube-apiserver's, without the policy and binding. */
export class MutationError extends Error {}

/** What a mutation needs to know of the kind: its schema at the version it is applied in, and its list types. */
export interface MutationSchema {
  readonly root: FieldNode;
  readonly listKeys: ListKeyLookup;
  /** A custom resource's object (kept as a map, with its nulls). */
  readonly unstructured: boolean;
}

/** The object an ApplyConfiguration expression's value makes of `object` (not modified). */
export function appliedConfiguration(object: KubeObject, value: CelValue, schema: MutationSchema): KubeObject {
  if (!(value instanceof CelObject)) throw new MutationError(`unsupported return type from ApplyConfiguration expression: ${typeName(value)}`);
  const mismatches = typeNameMismatches(value);
  if (mismatches.length > 0) throw new MutationError(`type mismatch: ${mismatches.join('\n')}`);
  let patch: Record<string, unknown>;
  try {
    patch = toJson(value) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof CelEvalError)) throw error;
    throw new MutationError('invalid return type: *dynamic.ObjectVal');
  }
  const typeError = typedProblem(patch, schema.root, '');
  if (typeError !== undefined) throw new MutationError(`error applying patch: failed to convert patch object to typed object: ${typeError}`);
  const atomics = atomicPaths(patch, schema.root, [], '', schema.listKeys);
  if (atomics.length > 0) throw new MutationError(`error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: ${atomics.join(', ')}`);
  return mergeApplied(structuredClone(object), patch, schema.listKeys, undefined, schema.unstructured) as KubeObject;
}

/**
 * The document a JSONPatch expression's value makes of `object` (not modified; not yet decoded), or `object` itself
 * when a `test` operation failed.
 */
export function jsonPatched(object: KubeObject, value: CelValue): unknown {
  if (!isList(value)) throw new MutationError('type mismatch: JSONPatchType.expression should evaluate to array');
  const operations = value.map((item) => {
    if (!(item instanceof CelObject) || item.typeName !== 'JSONPatch') throw new MutationError(`type mismatch: JSONPatchType.expression should evaluate to array of JSONPatch, got element of ${typeName(item)}`);
    return operationOf(item);
  });
  try {
    return applyDecodedJsonPatch(object, decodeJsonPatch(operations, JSON.stringify(operations)));
  } catch (error) {
    if (!(error instanceof PatchError)) throw error;
    // The library's ErrTestFailed: the patch does not apply, and the object is left as it was.
    if (/^testing value .* failed: test failed$/.test(error.reason)) return object;
    throw new MutationError(`JSON Patch: ${error.reason}`);
  }
}

/** One operation as the patcher writes it: `op` and `path` always (empty when not set), `from` and `value` when set. */
function operationOf(patch: CelObject): Record<string, unknown> {
  const text = (name: string): string => {
    const field = patch.fields.get(name);
    return typeof field === 'string' ? field : '';
  };
  const operation: Record<string, unknown> = { op: text('op'), path: text('path') };
  if (text('from') !== '') operation['from'] = text('from');
  const value = patch.fields.get('value');
  if (value !== undefined) {
    if (value instanceof CelObject) {
      const mismatches = typeNameMismatches(value);
      if (mismatches.length > 0) throw new MutationError(`type mismatch: ${mismatches.join('\n')}`);
    }
    try {
      operation['value'] = toJson(value);
    } catch (error) {
      if (!(error instanceof CelEvalError)) throw error;
      throw new MutationError(`JSONPath valueExpression evaluated to a type that could not marshal to JSON: ${error.message}`);
    }
  }
  return operation;
}

/** What structured-merge-diff prints of a value with `%v` (`&{1}`, `&{x}`, `&{[a b]}`). */
function goValue(value: unknown): string {
  const plain = (inner: unknown): string => {
    if (Array.isArray(inner)) return `[${inner.map(plain).join(' ')}]`;
    if (typeof inner === 'object' && inner !== null) return `map[${Object.entries(inner).map(([key, item]) => `${key}:${plain(item)}`).join(' ')}]`;
    return inner === null ? '0' : String(inner);
  };
  return `&{${plain(value)}}`;
}

/** Go's `%T` of a decoded JSON value (a CEL null is structpb's NullValue there). */
function goType(value: unknown): string {
  if (value === null) return 'structpb.NullValue';
  if (Array.isArray(value)) return '[]interface {}';
  if (typeof value === 'object') return 'map[string]interface {}';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  return typeof value === 'boolean' ? 'bool' : 'string';
}

const NUMERIC = new Set(['integer', 'number']);

/**
 * The first problem structured-merge-diff finds converting `value` to the kind's type (typed/validate.go): a field
 * the schema does not declare, a map, list or scalar of the wrong kind. A CEL null is no JSON null there (it is
 * structpb's NullValue), so it is of the wrong type wherever a type is declared. Scalars of a built-in kind are not
 * typed here (its Go field tables name fields, not their scalar types).
 */
function typedProblem(value: unknown, node: FieldNode, path: string): string | undefined {
  if (node === undefined) return undefined;
  const type = node['type'];
  const at = path === '' ? '' : `${path}: `;
  if (type === 'object' || node['properties'] !== undefined) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${at}expected map, got ${goValue(value)}`;
    for (const [key, item] of Object.entries(value)) {
      const child = childOf(node, key);
      if (!child.known) return `${path}.${key}: field not declared in schema`;
      const problem = typedProblem(item, child.node, `${path}.${key}`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (type === 'array') {
    if (!Array.isArray(value)) return `${at}expected list, got ${goValue(value)}`;
    for (const [index, item] of value.entries()) {
      const problem = typedProblem(item, itemsOf(node), `${path}[${index}]`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (extension(node, 'preserve-unknown-fields') || node['x-kubernetes-int-or-string'] === true) return undefined;
  if (NUMERIC.has(String(type)) && typeof value !== 'number') return `${at}expected numeric (int or float), got ${goType(value)}`;
  if (type === 'string' && typeof value !== 'string') return `${at}expected string, got &value.valueUnstructured{Value:${value === null ? 0 : String(value)}}`;
  if (type === 'boolean' && typeof value !== 'boolean') return `${at}expected boolean, got ${goValue(value)}`;
  return undefined;
}

/**
 * The paths (`.spec.items`) where `value` sets a list or map its schema declares atomic (an atomic list: no
 * `x-kubernetes-list-type` of `map` or `set`; a map with `x-kubernetes-map-type: atomic`): an ApplyConfiguration may
 * not change those (patch/smd.go findAtomics). `fields` are the field names down to `value`, for the list types.
 */
function atomicPaths(value: unknown, node: FieldNode, fields: readonly string[], path: string, listKeys: ListKeyLookup): string[] {
  if (node === undefined || typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) {
    const own = listKeys(fields) === undefined ? [path] : [];
    return [...own, ...value.flatMap((item, index) => atomicPaths(item, itemsOf(node), fields, `${path}[${index}]`, listKeys))];
  }
  const own = fields.length > 0 && listKeys.atomicMap?.(fields) === true ? [path] : [];
  return [
    ...own,
    ...Object.entries(value).flatMap(([key, item]) => {
      const child = childOf(node, key);
      return child.known ? atomicPaths(item, child.node, [...fields, key], `${path}.${key}`, listKeys) : [];
    }),
  ];
}
