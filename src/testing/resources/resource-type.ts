/**
 * What the server knows about a resource: its names, scope, served versions and the write semantics that differ
 * between kinds (status subresource, generation, name rules). Built-in types come from `builtin-resources.ts`,
 * custom ones from CustomResourceDefinitions (`crd-types.ts`).
 */
import type { ListKeyLookup } from '../patch/index.js';

/** How `metadata.name` is validated. */
export type NameRule = 'subdomain' | 'label' | 'label1035' | 'path';

/**
 * The `/scale` subresource of a version (a CRD's `subresources.scale`; Deployments, ReplicaSets and StatefulSets):
 * where an `autoscaling/v1` Scale's replicas are read and written, as simple JSON paths (`.spec.replicas`).
 */
export interface ScaleSubresource {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  /**
   * Where `status.selector` comes from: a custom resource's `labelSelectorPath` (a string field, copied), or a
   * built-in workload's `.spec.selector` (a label selector, written as text the way `kubectl get -l` reads it).
   */
  readonly selector: { readonly path: string; readonly form: 'text' | 'labelSelector' } | undefined;
}

/** One served version of a resource. */
export interface ServedVersion {
  readonly name: string;
  /** Whether `/status` is a subresource in this version (writes to the main resource then ignore `status`). */
  readonly statusSubresource: boolean;
  /** The `/scale` subresource of this version, when it has one. */
  readonly scale?: ScaleSubresource;
  /** Every field selector label this version supports (`metadata.name` included): others are 400. */
  readonly fieldLabels: readonly string[];
}

/** A resource type: one storage bucket (objects are stored once whatever the version asked). */
export interface ResourceType {
  /** `group/plural`; the key of the storage bucket and of watches. */
  readonly key: string;
  /** `''` for the core group. */
  readonly group: string;
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly listKind: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  /** Served versions, in discovery priority order (preferred first). */
  readonly versions: readonly ServedVersion[];
  /** The version objects are written in. */
  readonly storageVersion: string;
  /** True for built-in kinds: list items omit kind/apiVersion. */
  readonly builtin: boolean;
  /**
   * Whether a PUT without a resourceVersion replaces the object whatever it is now (the strategy's
   * AllowUnconditionalUpdate): most built-in kinds; not custom resources, CRDs, Leases, PodDisruptionBudgets or the
   * admission configuration kinds, whose PUT must name the version it replaces.
   */
  readonly unconditionalUpdate: boolean;
  /** Whether `metadata.generation` is kept and bumped on spec changes. */
  readonly generation: boolean;
  readonly nameRule: NameRule;
  /** List keys of associative lists, for managed fields and server-side apply. */
  readonly listKeys: ListKeyLookup;
  /**
   * True for the kinds whose DELETE answers the deleted object rather than a `Success` Status (kube-apiserver's
   * `ReturnDeletedObject`: Pods, Services, Namespaces, volumes and claims...); absent for the others and custom resources.
   */
  readonly returnsDeletedObject?: true;
  /** True for kinds where creating an object through PUT is allowed (none of ours, but kept explicit). */
  readonly createOnUpdate: boolean;
  /** A custom resource's `openAPIV3Schema` by version name (for `fieldValidation` and pruning); absent for built-ins. */
  readonly schemas?: Readonly<Record<string, unknown>>;
  /** True for a custom resource whose CRD converts between versions through a webhook (`strategy: Webhook`). */
  readonly webhookConversion?: true;
}

/** A resource type seen through one served version. */
export interface ResourceView {
  readonly type: ResourceType;
  readonly version: string;
  /** `v1` for core, `group/version` otherwise. */
  readonly apiVersion: string;
  readonly statusSubresource: boolean;
  /** The `/scale` subresource of this version, when it has one. */
  readonly scale: ScaleSubresource | undefined;
  /** The field selector labels of this version. */
  readonly fieldLabels: readonly string[];
}

/** `v1` for the core group, `group/version` otherwise. */
export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** Splits an apiVersion into group and version (`v1` → core). */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** The view of `type` at `version`, or undefined when that version is not served. */
export function viewOf(type: ResourceType, version: string): ResourceView | undefined {
  const served = type.versions.find((v) => v.name === version);
  if (served === undefined) return undefined;
  return { type, version, apiVersion: apiVersionOf(type.group, version), statusSubresource: served.statusSubresource, scale: served.scale, fieldLabels: served.fieldLabels };
}

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * Kubernetes version priority: GA before beta before alpha, higher numbers first, then anything else
 * alphabetically. Negative when `a` is preferred over `b`.
 */
export function compareKubeVersions(a: string, b: string): number {
  const ma = KUBE_VERSION.exec(a);
  const mb = KUBE_VERSION.exec(b);
  if (ma === null || mb === null) {
    if (ma !== null) return -1;
    if (mb !== null) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const stage = (m: RegExpExecArray): number => (m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0);
  if (stage(ma) !== stage(mb)) return stage(mb) - stage(ma);
  const major = Number(mb[1]) - Number(ma[1]);
  if (major !== 0) return major;
  return Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}
