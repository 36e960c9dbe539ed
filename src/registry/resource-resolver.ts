/**
 * From a manifest's `apiVersion` and `kind` to the resource that serves it (plural and scope). Built-in kinds come
 * from the built-in table; anything else (custom resources in `resources` entries) from API discovery of its
 * group/version, remembered for the life of the resolver. A failed discovery is not remembered, so a CRD installed
 * later is found on the next attempt.
 */
import { builtInKind } from '../definition/builtin-kinds.js';
import { KatalogError, KubeError, toError } from '../errors.js';
import type { KubeClient } from '../kube/client.js';
import type { ResourceRef } from '../kube/resource.js';

interface DiscoveredResource {
  readonly name: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

/** Splits `group/version` (or `version` for the core group). */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** Built-in resources already looked up, by apiVersion and kind (asked for every child of every reconcile). */
const BUILT_IN_RESOURCES = new Map<string, ResourceRef>();
/** More distinct pairs than any definition names: past it, lookups are no longer remembered. */
const BUILT_IN_RESOURCES_LIMIT = 512;

/**
 * The resource of a built-in kind at the manifest's version, or undefined when the kind or group is not built in.
 * The answer is frozen and shared between calls.
 */
export function builtInResource(apiVersion: string, kind: string): ResourceRef | undefined {
  const memo = `${apiVersion} ${kind}`;
  const remembered = BUILT_IN_RESOURCES.get(memo);
  if (remembered !== undefined) return remembered;
  const known = builtInKind(kind);
  const { group, version } = splitApiVersion(apiVersion);
  if (known === undefined || known.group !== group) return undefined;
  const resource: ResourceRef = Object.freeze({ group, version, kind, plural: known.plural, namespaced: known.scope === 'Namespaced' });
  if (BUILT_IN_RESOURCES.size < BUILT_IN_RESOURCES_LIMIT) BUILT_IN_RESOURCES.set(memo, resource);
  return resource;
}

export class ResourceResolver {
  private readonly discovered = new Map<string, readonly DiscoveredResource[]>();

  constructor(private readonly client: KubeClient) {}

  /** The resource of `apiVersion`/`kind`; throws when the API server does not serve it. */
  async resolve(apiVersion: string, kind: string, signal?: AbortSignal): Promise<ResourceRef> {
    const builtIn = builtInResource(apiVersion, kind);
    if (builtIn !== undefined) return builtIn;
    const { group, version } = splitApiVersion(apiVersion);
    const resources = await this.discover(apiVersion, signal);
    const found = resources.find((resource) => resource.kind === kind && !resource.name.includes('/'));
    if (found === undefined) {
      this.discovered.delete(apiVersion);
      throw new NotServed(`the API server serves no kind ${kind} in ${apiVersion}`);
    }
    return { group, version, kind, plural: found.name, namespaced: found.namespaced };
  }

  /**
   * The resource of `apiVersion`/`kind`, or undefined when the API server does not serve it (no such kind, or no
   * such group version: 404). Any other failure of discovery is thrown, for the caller to retry.
   */
  async resolveIfServed(apiVersion: string, kind: string, signal?: AbortSignal): Promise<ResourceRef | undefined> {
    try {
      return await this.resolve(apiVersion, kind, signal);
    } catch (error) {
      if (error instanceof NotServed) return undefined;
      throw error;
    }
  }

  /** The resource when it is known without asking the API server (built-in, or discovered before). */
  known(apiVersion: string, kind: string): ResourceRef | undefined {
    const builtIn = builtInResource(apiVersion, kind);
    if (builtIn !== undefined) return builtIn;
    const found = this.discovered.get(apiVersion)?.find((resource) => resource.kind === kind && !resource.name.includes('/'));
    if (found === undefined) return undefined;
    const { group, version } = splitApiVersion(apiVersion);
    return { group, version, kind, plural: found.name, namespaced: found.namespaced };
  }

  private async discover(apiVersion: string, signal: AbortSignal | undefined): Promise<readonly DiscoveredResource[]> {
    const cached = this.discovered.get(apiVersion);
    if (cached !== undefined) return cached;
    const { group } = splitApiVersion(apiVersion);
    const path = group === '' ? `/api/${apiVersion}` : `/apis/${apiVersion}`;
    let list: { resources?: DiscoveredResource[] } | undefined;
    try {
      list = await this.client.request<{ resources?: DiscoveredResource[] }>('GET', path, { signal });
    } catch (error) {
      const message = `cannot find the resources of ${apiVersion}: ${toError(error).message}`;
      if (error instanceof KubeError && error.status === 404) throw new NotServed(message, { cause: error });
      throw new KatalogError('E_MANIFEST', message, { cause: error });
    }
    const resources = list?.resources ?? [];
    this.discovered.set(apiVersion, resources);
    return resources;
  }
}

/** The API server does not serve a kind (or its group version): a resolve that may not be retried as it is. */
class NotServed extends KatalogError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_MANIFEST', message, options);
  }
}
