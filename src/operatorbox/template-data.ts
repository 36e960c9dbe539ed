/**
 * What templates see (SPEC §4.2): the custom resource's fields (`.apiVersion`, `.kind`, `.metadata`, `.spec`,
 * `.status`...), `.inputs` (a Motif's inputs, per entry) and `.children` (the observed children of this custom
 * resource, by kind and name: `.children.deployments.web`).
 */
import type { KubeObject } from '../kube/resource.js';
import type { ChildLookup } from '../registry/child-watches.js';
import type { KindTable } from '../registry/kind-table.js';
import type { Owner } from '../registry/ownership.js';
import type { TemplateData, TemplateDialect } from '../template/index.js';

/** Observed children by kind key (`deployments`, `configMaps`, or a plural for other kinds) and name. */
export type ChildrenView = Record<string, Record<string, KubeObject>>;

/** The children of `owner` in the caches. The objects are the cached ones: read, never mutate. */
export function observedChildren(lookup: ChildLookup, kinds: KindTable, owner: Owner): ChildrenView {
  const view: ChildrenView = {};
  for (const { resource, object } of lookup.ownedBy(owner)) addChild(view, kinds, resource.plural, object);
  return view;
}

/** Adds (or replaces) one child in a view. */
export function addChild(view: ChildrenView, kinds: KindTable, plural: string, object: KubeObject): void {
  const key = kinds.childrenKey(object.apiVersion ?? '', object.kind ?? '', plural);
  const name = object.metadata?.name ?? '';
  const byName = (view[key] ??= {});
  byName[name] = object;
}

/** Removes one child from a view. */
export function removeChild(view: ChildrenView, kinds: KindTable, plural: string, object: KubeObject): void {
  const key = kinds.childrenKey(object.apiVersion ?? '', object.kind ?? '', plural);
  const byName = view[key];
  if (byName === undefined) return;
  delete byName[object.metadata?.name ?? ''];
  if (Object.keys(byName).length === 0) delete view[key];
}

/** A deep copy of a view, for code that may mutate it (hooks). */
export function copyView(view: ChildrenView): ChildrenView {
  return structuredClone(view);
}

/**
 * The data root of the templates of one custom resource; `dialect` decides how `.children` is keyed. The root's own
 * keys come first (`apiVersion`, `kind`, `metadata`, `spec`, `status` from the object, `{}` for a missing one of the
 * last three; `inputs`, `children`), then the object's other top-level fields, then `extra`, which wins over both.
 *
 * Built as one literal and filled key by key rather than as `{ ...object, inputs, children, ...extra }`: on Node 20
 * (V8 11.3) a spread that goes on to add keys its source lacks builds a dictionary-mode object, 425 bytes and about
 * 1.4 µs per call against 136 bytes and 50 ns for this shape, and it is built two or three times per reconcile
 * (docs/performance.md, "Scale, session 12"). Node 24 builds either in about 50 ns.
 */
export function templateData(
  object: KubeObject,
  children: ChildrenView,
  extra: Readonly<Record<string, unknown>> = NO_EXTRA,
  dialect: TemplateDialect = 'katalog',
): TemplateData {
  const data: Record<string, unknown> = {
    apiVersion: object.apiVersion,
    kind: object.kind,
    metadata: object.metadata ?? {},
    spec: object['spec'] ?? {},
    status: object['status'] ?? {},
    inputs: {},
    children: dialect === 'orkestra' ? orkestraChildren(children) : children,
  };
  for (const key in object) if (!isRootKey(key)) data[key] = object[key];
  for (const key in extra) data[key] = extra[key];
  return data as TemplateData;
}

const NO_EXTRA: Readonly<Record<string, unknown>> = Object.freeze({});

/** The keys {@link templateData} sets itself (a switch: faster than a Set lookup in this loop). */
function isRootKey(key: string): boolean {
  switch (key) {
    case 'apiVersion':
    case 'kind':
    case 'metadata':
    case 'spec':
    case 'status':
    case 'inputs':
    case 'children':
      return true;
    default:
      return false;
  }
}

/**
 * `.children` as Orkestra keys it: besides `.children.deployments.<name>`, the singular key holds one child of
 * the kind (`.children.deployment`, also all-lowercase: `.children.configmap`), the first by name.
 */
export function orkestraChildren(view: Readonly<ChildrenView>): Readonly<Record<string, unknown>> {
  const out: Record<string, unknown> = { ...view };
  for (const [key, byName] of Object.entries(view)) {
    if (!key.endsWith('s')) continue;
    const first = Object.keys(byName).sort()[0];
    if (first === undefined) continue;
    const special = ORKESTRA_KEYS[key];
    const singular = key.slice(0, -1);
    for (const name of [singular, singular.toLowerCase(), ...(special === undefined ? [] : [special.singular])]) if (!Object.hasOwn(out, name)) out[name] = byName[first];
    if (special?.plural !== undefined && !Object.hasOwn(out, special.plural)) out[special.plural] = byName;
  }
  return out;
}

/** The kinds Orkestra keys by other names than the plural minus its `s` (pkg/children/children.go): also these. */
const ORKESTRA_KEYS: Readonly<Record<string, { singular: string; plural?: string }>> = {
  ingresses: { singular: 'ingress' },
  persistentVolumeClaims: { singular: 'pvc' },
  persistentVolumes: { singular: 'pv' },
  horizontalPodAutoscalers: { singular: 'hpa', plural: 'hpas' },
};
