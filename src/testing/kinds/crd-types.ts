/**
 * CustomResourceDefinition → resource type: names, scope, served versions in priority order, the storage version,
 * `/status` per version, selectable fields, and the list keys its schema declares (for server-side apply).
 */
import { OBJECT_META_LIST_KEYS, type ListKeyLookup } from '../patch/index.js';
import { asObject } from '../patch/json-value.js';
import { compareKubeVersions, type ResourceType, type ScaleSubresource, type ServedVersion } from '../resources/resource-type.js';
import type { KubeObject } from '../store/record.js';

type Json = Record<string, unknown>;

/** A field of a CRD read as an object: `{}` when it is not one. */
export function obj(value: unknown): Json {
  return asObject(value);
}

/** A field of a CRD read as a string: `''` when it is not one. */
export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The CRD's versions as objects. */
export function crdVersions(crd: KubeObject): Json[] {
  const versions = obj(crd['spec'])['versions'];
  return Array.isArray(versions) ? versions.map(obj) : [];
}

/** The names the CRD asks for, with the defaults a real server fills in (singular, listKind). */
export function acceptedNames(crd: KubeObject): Json {
  const names = obj(obj(crd['spec'])['names']);
  const kind = str(names['kind']);
  const accepted: Json = {
    plural: str(names['plural']),
    singular: str(names['singular']) || kind.toLowerCase(),
    kind,
    listKind: str(names['listKind']) || `${kind}List`,
  };
  const shortNames = strings(names['shortNames']);
  if (shortNames.length > 0) accepted['shortNames'] = shortNames;
  const categories = strings(names['categories']);
  if (categories.length > 0) accepted['categories'] = categories;
  return accepted;
}

/** The schema at `path` (field names; array levels are stepped through), or undefined where the schema says nothing. */
function schemaAt(root: Json, path: readonly string[]): Json | undefined {
  let schema: Json | undefined = root;
  for (const segment of path) {
    if (schema === undefined) return undefined;
    if (schema['type'] === 'array') schema = obj(schema['items']);
    const properties = obj(schema['properties']);
    const next: unknown = properties[segment];
    schema = next === undefined ? undefined : obj(next);
  }
  return schema;
}

/**
 * A schema's lists and maps for server-side apply, as structured-merge-diff reads them: `x-kubernetes-list-type`
 * `map` keys a list by its `x-kubernetes-list-map-keys` (an item without a key is keyed by the key's schema
 * default), `set` makes it a set, `x-kubernetes-map-type: atomic` owns a map whole. `metadata` is ObjectMeta
 * whatever the schema says (finalizers a set, owner references keyed by uid).
 */
function schemaListKeys(root: Json): ListKeyLookup {
  const lookup = (path: readonly string[]): string[] | undefined => {
    if (path[0] === 'metadata') return OBJECT_META_LIST_KEYS(path);
    const schema = schemaAt(root, path);
    if (schema?.['x-kubernetes-list-type'] === 'set') return [];
    if (schema === undefined || schema['x-kubernetes-list-type'] !== 'map') return undefined;
    const keys = strings(schema['x-kubernetes-list-map-keys']);
    return keys.length > 0 ? keys : undefined;
  };
  const keyDefault = (path: readonly string[], key: string): unknown => {
    if (path[0] === 'metadata') return OBJECT_META_LIST_KEYS.keyDefault?.(path, key);
    return obj(obj(obj(schemaAt(root, path)?.['items'])['properties'])[key])['default'];
  };
  // A map, or a list's items (`path` names the list: its items add no segment), owned whole.
  const atomicMap = (path: readonly string[]): boolean => {
    if (path[0] === 'metadata') return OBJECT_META_LIST_KEYS.atomicMap?.(path) === true;
    const schema = schemaAt(root, path);
    return schema?.['x-kubernetes-map-type'] === 'atomic' || (schema?.['type'] === 'array' && obj(schema['items'])['x-kubernetes-map-type'] === 'atomic');
  };
  return Object.assign(lookup, { keyDefault, atomicMap });
}

/** The field labels a CRD version's `selectableFields` declare (their JSON paths without the leading dot). */
function selectableFields(version: Json): string[] {
  const declared = version['selectableFields'];
  return Array.isArray(declared) ? declared.map((f) => str(obj(f)['jsonPath']).replace(/^\./, '')).filter((f) => f !== '') : [];
}

/** A version's `subresources.scale` (its paths are valid: `crd-version-rules.ts` checked them), as a served version's field. */
function scaleOf(version: Json): { scale?: ScaleSubresource } {
  const scale = obj(version['subresources'])['scale'];
  if (scale === undefined || scale === null) return {};
  const fields = obj(scale);
  const selector = str(fields['labelSelectorPath']);
  return {
    scale: {
      specReplicasPath: str(fields['specReplicasPath']),
      statusReplicasPath: str(fields['statusReplicasPath']),
      selector: selector === '' ? undefined : { path: selector, form: 'text' },
    },
  };
}

/** Builds the resource type of a (valid) CRD. */
export function typeFromCrd(crd: KubeObject): ResourceType {
  const spec = obj(crd['spec']);
  const group = str(spec['group']);
  const names = acceptedNames(crd);
  const versions = crdVersions(crd);
  const namespaced = spec['scope'] !== 'Cluster';
  // As kube-apiserver converts a custom resource's field labels: metadata.namespace for a namespaced kind only, and
  // the selectable fields of the version asked for.
  const meta = namespaced ? ['metadata.name', 'metadata.namespace'] : ['metadata.name'];
  const served: ServedVersion[] = versions
    .filter((v) => v['served'] === true)
    .map((v) => ({
      name: str(v['name']),
      statusSubresource: obj(v['subresources'])['status'] !== undefined,
      ...scaleOf(v),
      fieldLabels: [...meta, ...selectableFields(v)],
    }))
    .sort((a, b) => compareKubeVersions(a.name, b.name));
  const storage = versions.find((v) => v['storage'] === true) ?? versions[0] ?? {};
  const schema = obj(obj(storage['schema'])['openAPIV3Schema']);
  return {
    key: `${group}/${str(names['plural'])}`,
    group,
    plural: str(names['plural']),
    singular: str(names['singular']),
    kind: str(names['kind']),
    listKind: str(names['listKind']),
    namespaced,
    shortNames: strings(names['shortNames']),
    categories: strings(names['categories']),
    versions: served,
    storageVersion: str(storage['name']),
    builtin: false,
    unconditionalUpdate: false,
    generation: true,
    nameRule: 'subdomain',
    listKeys: schemaListKeys(schema),
    createOnUpdate: false,
    schemas: Object.fromEntries(versions.map((v) => [str(v['name']), obj(v['schema'])['openAPIV3Schema']])),
    ...(obj(spec['conversion'])['strategy'] === 'Webhook' ? { webhookConversion: true as const } : {}),
  };
}
