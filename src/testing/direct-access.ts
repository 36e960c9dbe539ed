/**
 * Reads and writes without HTTP, for test setup and assertions. They run the same operations as the HTTP
 * endpoints (resourceVersions, events to watches, managed fields, garbage collection), skip faults, latency and
 * the request log, and throw {@link StatusError} where the HTTP API would answer an error.
 */
import type { Cluster } from './cluster.js';
import { createObject } from './operations/create.js';
import { deleteObject } from './operations/delete.js';
import type { PropagationPolicy } from './operations/delete-options.js';
import { patchObject, type PatchType } from './operations/patch.js';
import { updateObject } from './operations/update.js';
import { CRDS_KEY } from './resources/builtin-resources.js';
import { apiVersionOf, type ResourceView } from './resources/resource-type.js';
import { withJsonKeywords } from './resources/schema-keywords.js';
import { heldAtView } from './resources/version-forms.js';
import { badRequest, StatusError } from './status-errors.js';
import { copyObject, metadataOf, type KubeObject, type StoredRecord } from './store/record.js';

/** Options of {@link DirectAccess.patch}. */
export interface DirectPatchOptions {
  /** Namespace of a namespaced object (default `default`). */
  readonly namespace?: string;
  /** Patch type (default `merge`). */
  readonly type?: PatchType;
  readonly subresource?: 'status';
  /** Field manager (default: the server's `fieldManager` option). */
  readonly fieldManager?: string;
  /** Server-side apply: take over conflicting fields. */
  readonly force?: boolean;
}

/** Options of {@link DirectAccess.delete}. */
export interface DirectDeleteOptions {
  readonly propagationPolicy?: PropagationPolicy;
  /** A Pod's grace period (0: removed at once, as a kubelet or `kubectl delete --force` removes it). */
  readonly gracePeriodSeconds?: number;
}

/**
 * A JSON deep copy, as client-node would send the object: `Date` values (as its model objects hold) become RFC 3339
 * strings, and a CRD's schema keywords their JSON names (`loadYaml` gives `x_kubernetes_preserve_unknown_fields`).
 */
function jsonCopy(value: unknown): KubeObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('the object must be a JSON object');
  const copy = JSON.parse(JSON.stringify(value)) as KubeObject;
  const versions = (copy['spec'] as { versions?: unknown } | undefined)?.versions;
  if (copy['kind'] === 'CustomResourceDefinition' && Array.isArray(versions)) {
    for (const version of versions as { schema?: { openAPIV3Schema?: unknown } }[]) {
      if (version?.schema?.openAPIV3Schema !== undefined) version.schema.openAPIV3Schema = withJsonKeywords(version.schema.openAPIV3Schema);
    }
  }
  return copy;
}

export class DirectAccess {
  constructor(
    private readonly cluster: Cluster,
    private readonly manager: string,
  ) {}

  /**
   * The served view of an apiVersion and kind; 404 StatusError when none, 400 for a version other than the storage
   * version of a CRD converting through a webhook.
   */
  view(apiVersion: string, kind: string): ResourceView {
    const view = this.cluster.registry.byKind(apiVersion, kind);
    if (view === undefined) {
      throw new StatusError({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `the server has no resource for apiVersion ${apiVersion} kind ${kind}`,
        reason: 'NotFound',
        code: 404,
      });
    }
    if (view.type.webhookConversion === true && view.version !== view.type.storageVersion) {
      // The direct methods are synchronous, and a conversion webhook is an HTTP call: refused rather than stored or
      // answered unconverted.
      throw badRequest(
        `katalog/testing: ${kind} in ${apiVersion} converts through its CRD's conversion webhook, which the direct methods do not call: use ${apiVersionOf(view.type.group, view.type.storageVersion)} (the storage version), or the HTTP API`,
      );
    }
    return view;
  }

  /** The object of `record` at `view`'s version (pruned to its schema under the `None` strategy). */
  private out(view: ResourceView, record: StoredRecord): KubeObject {
    return heldAtView(view, copyObject(record, view.apiVersion, view.type.kind));
  }

  private namespaceOf(view: ResourceView, namespace: string | undefined): string {
    return view.type.namespaced ? (namespace ?? 'default') : '';
  }

  create(object: unknown): KubeObject {
    const body = jsonCopy(object);
    const view = this.view(String(body['apiVersion']), String(body['kind']));
    const ns = metadataOf(body)['namespace'];
    const namespace = view.type.namespaced ? (typeof ns === 'string' && ns !== '' ? ns : 'default') : undefined;
    return this.out(view, createObject(this.cluster, view, body, namespace, { manager: this.manager, dryRun: false }));
  }

  get(apiVersion: string, kind: string, name: string, namespace?: string): KubeObject | undefined {
    const view = this.view(apiVersion, kind);
    const record = this.cluster.store.get(view.type.key, this.namespaceOf(view, namespace), name);
    return record === undefined ? undefined : this.out(view, record);
  }

  /** PUT semantics, except that a missing resourceVersion means "unconditional" for every kind. */
  update(object: unknown, subresource?: 'status'): KubeObject {
    const body = jsonCopy(object);
    const view = this.view(String(body['apiVersion']), String(body['kind']));
    const metadata = metadataOf(body);
    const namespace = this.namespaceOf(view, typeof metadata['namespace'] === 'string' ? metadata['namespace'] : undefined);
    const name = typeof metadata['name'] === 'string' ? metadata['name'] : '';
    if (metadata['resourceVersion'] === undefined || metadata['resourceVersion'] === '') {
      const current = this.cluster.store.get(view.type.key, namespace, name);
      if (current !== undefined) metadata['resourceVersion'] = String(current.rv);
    }
    const target = { namespace, name, subresource };
    return this.out(view, updateObject(this.cluster, view, body, target, { manager: this.manager, dryRun: false }));
  }

  patch(apiVersion: string, kind: string, name: string, patch: unknown, options: DirectPatchOptions = {}): KubeObject {
    const view = this.view(apiVersion, kind);
    const target = { namespace: this.namespaceOf(view, options.namespace), name, subresource: options.subresource };
    const result = patchObject(this.cluster, view, options.type ?? 'merge', JSON.parse(JSON.stringify(patch)) as unknown, target, {
      manager: options.fieldManager ?? this.manager,
      dryRun: false,
      force: options.force ?? false,
    });
    return this.out(view, result.record);
  }

  /** Deletes (or, with finalizers, marks deleted); returns the object as it is now. */
  delete(apiVersion: string, kind: string, name: string, namespace?: string, options: DirectDeleteOptions = {}): KubeObject {
    const view = this.view(apiVersion, kind);
    const result = deleteObject(this.cluster, view, this.namespaceOf(view, namespace), name, {
      ...(options.propagationPolicy === undefined ? {} : { propagationPolicy: options.propagationPolicy }),
      ...(options.gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds: options.gracePeriodSeconds }),
    });
    return this.out(view, result.record);
  }

  /** Creates the CRD, or replaces the existing one of that name; its resource is servable on return. */
  applyCrd(crd: unknown): KubeObject {
    const body = jsonCopy(crd);
    body['apiVersion'] ??= 'apiextensions.k8s.io/v1';
    body['kind'] ??= 'CustomResourceDefinition';
    const name = metadataOf(body)['name'];
    const existing = typeof name === 'string' ? this.cluster.store.get(CRDS_KEY, '', name) : undefined;
    if (existing === undefined) return this.create(body);
    metadataOf(body)['resourceVersion'] = String(existing.rv);
    return this.update(body);
  }
}
