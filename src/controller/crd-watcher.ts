/**
 * Watches CustomResourceDefinitions so that the runtime can activate a CRD within a second of it being
 * established, and deactivate it when it is deleted. Reports, per CRD object name (`websites.example.io`),
 * whether it is established and which versions it serves.
 */
import type { KubeClient } from '../kube/client.js';
import { Informer, type InformerTuning } from '../kube/informer.js';
import type { KubeObject, ResourceRef } from '../kube/resource.js';
import type { Clock } from '../util/clock.js';

export const CRD_RESOURCE: ResourceRef = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  namespaced: false,
};

export interface ServedVersion {
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  readonly hasStatus: boolean;
}

/** What the runtime needs to know of an installed CRD. */
export interface InstalledCrd {
  readonly name: string;
  /**
   * The CRD is being deleted (`deletionTimestamp` set): the API server is deleting its custom resources. It still
   * counts as installed, so that the runtime keeps handling their deletion (onDelete work, then its finalizers) and
   * the CRD deletion can complete; it goes away (and the CRD becomes `pending`) when the CRD object is gone.
   */
  readonly terminating: boolean;
  readonly group: string;
  readonly kind: string;
  readonly plural: string;
  readonly scope: 'Namespaced' | 'Cluster';
  readonly versions: readonly ServedVersion[];
}

/** Reads an InstalledCrd out of a CustomResourceDefinition, or undefined while it is not established. A Terminating CRD stays installed. */
export function installedCrdOf(object: KubeObject): InstalledCrd | undefined {
  const spec = (object['spec'] ?? {}) as {
    group?: string;
    names?: { kind?: string; plural?: string };
    scope?: string;
    versions?: Array<{ name?: string; served?: boolean; storage?: boolean; subresources?: { status?: unknown } }>;
  };
  const status = (object['status'] ?? {}) as { conditions?: Array<{ type?: string; status?: string }> };
  const established = (status.conditions ?? []).some((condition) => condition.type === 'Established' && condition.status === 'True');
  if (!established) return undefined;
  return {
    name: object.metadata?.name ?? '',
    terminating: object.metadata?.deletionTimestamp !== undefined,
    group: spec.group ?? '',
    kind: spec.names?.kind ?? '',
    plural: spec.names?.plural ?? '',
    scope: spec.scope === 'Cluster' ? 'Cluster' : 'Namespaced',
    versions: (spec.versions ?? []).map((version) => ({
      name: version.name ?? '',
      served: version.served === true,
      storage: version.storage === true,
      hasStatus: version.subresources?.status !== undefined,
    })),
  };
}

export interface CrdWatcherOptions {
  readonly client: KubeClient;
  readonly clock: Clock;
  /** Called when a CRD becomes established, changes, or goes away (undefined). */
  readonly onChange: (name: string, crd: InstalledCrd | undefined) => void;
  readonly onRestart?: (reason: string) => void;
  readonly onError?: (error: Error) => void;
  readonly informer?: InformerTuning | undefined;
}

export class CrdWatcher {
  private readonly informer: Informer;

  constructor(options: CrdWatcherOptions) {
    this.informer = new Informer({
      client: options.client,
      resource: CRD_RESOURCE,
      clock: options.clock,
      ...options.informer,
      onEvent: (event) => options.onChange(event.key, event.type === 'deleted' ? undefined : installedCrdOf(event.object)),
      ...(options.onRestart === undefined ? {} : { onRestart: options.onRestart }),
      ...(options.onError === undefined ? {} : { onError: options.onError }),
    });
  }

  /** Lists the CRDs; rejects when that first list fails (unreachable server, forbidden). */
  start(): Promise<void> {
    return this.informer.start();
  }

  stop(): Promise<void> {
    return this.informer.stop();
  }

  /** The installed, established CRD of that name, if any. */
  get(name: string): InstalledCrd | undefined {
    const object = this.informer.get(name);
    return object === undefined ? undefined : installedCrdOf(object);
  }
}
