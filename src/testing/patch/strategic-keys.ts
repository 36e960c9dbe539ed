/**
 * How the lists and maps of the built-in kinds merge, read off their Go types (`go/builtin-fields.ts`,
 * generated from k8s.io/api and kube-apiserver's OpenAPI): a strategic merge patch merges a list by its
 * `patchMergeKey` or as a set of primitives, server-side apply keys a list by its `x-kubernetes-list-map-keys`
 * (with their defaults) or treats it as a set, and replaces atomic maps and structs whole. The two differ: a
 * container's ports merge by `containerPort` in a patch and by `containerPort` and `protocol` in an apply, a
 * container's resource claims are keyed in an apply and atomic in a patch. Any other list is atomic in both.
 *
 * A path is the list of field names from the object root to the list; list items add no segment, so the `env`
 * of every container of a Deployment is at `['spec', 'template', 'spec', 'containers', 'env']`.
 */
import { BUILTIN_ATOMIC_STRUCTS, BUILTIN_ROOTS, BUILTIN_STRUCTS } from '../go/builtin-fields.js';
import type { ListKeyLookup } from './managed-fields.js';

/** How a list merges in a strategic merge patch: by `mergeKey` when given, otherwise as a set of primitive values. */
export interface ListStrategy {
  /** The field that identifies an item (`name`, `containerPort`...); absent for a set of primitives. */
  readonly mergeKey?: string;
}

/** The list-merge metadata of one built-in kind. */
export interface StrategicSchema {
  readonly apiVersion: string;
  readonly kind: string;
  /** The strategic-merge strategy of the list at `path`, or `undefined` when that list is atomic (replaced whole). */
  listStrategy(path: readonly string[]): ListStrategy | undefined;
  /** Server-side apply's: `[keys]` for a keyed list, `[]` for a set, `undefined` for atomic. */
  readonly listKeys: ListKeyLookup;
}

/** A field's merge facts, parsed from its generated strategy (`merge(name) map(name="")`, `merge() set`, `atomic`). */
export interface FieldMerge {
  readonly patch: ListStrategy | undefined;
  readonly applyKeys: string[] | undefined;
  readonly keyDefaults: ReadonlyMap<string, unknown>;
  /** Whether server-side apply owns the value at this path whole (an atomic map, or an atomic struct or list items). */
  readonly atomic: boolean;
}

const PLAIN: FieldMerge = { patch: undefined, applyKeys: undefined, keyDefaults: new Map(), atomic: false };

/** The merge facts of a generated field of type `type` with strategy `strategy` (see builtin-fields.ts). */
export function parseMerge(strategy: string, type: string): FieldMerge {
  if (strategy === '' && !BUILTIN_ATOMIC_STRUCTS.has(type.replace(/^(\[\])+/, ''))) return PLAIN;
  let patch: ListStrategy | undefined;
  let applyKeys: string[] | undefined;
  const keyDefaults = new Map<string, unknown>();
  for (const token of strategy.split(' ')) {
    const merge = /^merge\((.*)\)$/.exec(token);
    if (merge !== null) patch = merge[1] === '' || merge[1] === undefined ? {} : { mergeKey: merge[1] };
    const map = /^map\((.*)\)$/.exec(token);
    if (map !== null) {
      applyKeys = [];
      for (const key of (map[1] ?? '').split(',')) {
        const equals = key.indexOf('=');
        const name = equals < 0 ? key : key.slice(0, equals);
        applyKeys.push(name);
        if (equals >= 0) keyDefaults.set(name, JSON.parse(key.slice(equals + 1)) as unknown);
      }
    }
    if (token === 'set') applyKeys = [];
  }
  const atomic = strategy.split(' ').includes('atomic') || BUILTIN_ATOMIC_STRUCTS.has(type.replace(/^(\[\])+/, ''));
  return { patch, applyKeys, keyDefaults, atomic };
}

/** The merge facts at `path` below struct `root`, or {@link PLAIN} where the path leaves the generated types. */
function mergeAt(root: string, path: readonly string[]): FieldMerge {
  let type = root;
  let strategy: string | undefined;
  for (const segment of path) {
    type = type.replace(/^(\[\])+/, ''); // list items add no segment
    if (type.startsWith('{}')) {
      type = type.slice(2); // a map's key
      strategy = undefined;
      continue;
    }
    const field = BUILTIN_STRUCTS[type]?.find(([name]) => name === segment);
    if (field === undefined) return PLAIN;
    type = field[1];
    strategy = field[2] ?? '';
  }
  return strategy === undefined ? PLAIN : parseMerge(strategy, type);
}

/** Joins path segments with a character no field name holds, so `a.b` as one name never matches `a`,`b`. */
function pathKey(path: readonly string[]): string {
  return path.join('\u0000');
}

/** {@link mergeAt} of one root, remembered per path (every patch and apply asks for each list it meets). */
function mergesOf(root: string): (path: readonly string[]) => FieldMerge {
  const known = new Map<string, FieldMerge>();
  return (path) => {
    const key = pathKey(path);
    let merge = known.get(key);
    if (merge === undefined) {
      merge = mergeAt(root, path);
      known.set(key, merge);
    }
    return merge;
  };
}

function toListKeys(mergeOf: (path: readonly string[]) => FieldMerge): ListKeyLookup {
  const lookup = (path: readonly string[]): string[] | undefined => {
    const keys = mergeOf(path).applyKeys;
    return keys === undefined ? undefined : [...keys];
  };
  return Object.assign(lookup, {
    keyDefault: (path: readonly string[], key: string): unknown => mergeOf(path).keyDefaults.get(key),
    atomicMap: (path: readonly string[]): boolean => mergeOf(path).atomic,
  });
}

const objectMetaMerges = mergesOf('meta.v1.ObjectMeta');

/** A custom resource's lists: only its `metadata`'s are known (ObjectMeta is the same everywhere); the others are atomic. */
function customMerges(path: readonly string[]): FieldMerge {
  return path[0] === 'metadata' ? objectMetaMerges(path.slice(1)) : PLAIN;
}

/** The generated struct of a built-in kind, by its `apiVersion` and `kind`. */
function rootOf(apiVersion: string, kind: string): string | undefined {
  return BUILTIN_ROOTS[`${apiVersion}/${kind}`];
}

/** Server-side apply's keys of the lists under `metadata` (ObjectMeta's, the same in every kind: custom resources too). */
export const OBJECT_META_LIST_KEYS: ListKeyLookup = toListKeys(customMerges);

/**
 * The associative-list keys for server-side apply of any kind: the built-in kinds' from their types and, for
 * everything else, their `metadata`'s only (`ownerReferences` by `uid`, `finalizers` a set).
 */
export function listKeysFor(apiVersion: string, kind: string): ListKeyLookup {
  const root = rootOf(apiVersion, kind);
  return root === undefined ? OBJECT_META_LIST_KEYS : toListKeys(mergesOf(root));
}

/**
 * The strategic-merge metadata of a built-in kind, or `undefined` when `apiVersion`/`kind` is not a built-in kind
 * (custom resources: the server answers 415 to a strategic merge patch).
 */
export function strategicSchemaFor(apiVersion: string, kind: string): StrategicSchema | undefined {
  const root = rootOf(apiVersion, kind);
  if (root === undefined) return undefined;
  const mergeOf = mergesOf(root);
  return { apiVersion, kind, listStrategy: (path) => mergeOf(path).patch, listKeys: toListKeys(mergeOf) };
}
