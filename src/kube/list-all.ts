/**
 * A whole list in pages: every page of a kind (with the selectors), each object put through `normalise` and keyed,
 * at the resourceVersion of the list. A continue token that expires between pages (410) starts the list again in one
 * piece, without a limit, as client-go's pager does.
 */
import { isGone, type KubeClient } from './client.js';
import { keyOf, type KubeObject, type ResourceRef } from './resource.js';

export interface ListAllOptions {
  readonly namespace?: string | undefined;
  readonly labelSelector?: string | undefined;
  readonly fieldSelector?: string | undefined;
  readonly pageSize: number;
  readonly signal: AbortSignal;
}

export interface ListedState {
  readonly objects: Map<string, KubeObject>;
  readonly resourceVersion: string;
}

export async function listAll(client: KubeClient, resource: ResourceRef, options: ListAllOptions, normalise: (object: KubeObject) => KubeObject): Promise<ListedState> {
  const { namespace, labelSelector, fieldSelector, signal } = options;
  const objects = new Map<string, KubeObject>();
  let token: string | undefined;
  let resourceVersion: string;
  let paginate = true;
  for (;;) {
    let page;
    try {
      page = await client.list(resource, { namespace, labelSelector, fieldSelector, ...(paginate ? { limit: options.pageSize } : {}), continue: token, signal });
    } catch (error) {
      if (token !== undefined && isGone(error)) {
        // The continue token expired between pages: start again, in one piece.
        objects.clear();
        token = undefined;
        paginate = false;
        continue;
      }
      throw error;
    }
    for (const item of page.items) {
      const object = normalise(item);
      objects.set(keyOf(object), object);
    }
    resourceVersion = page.resourceVersion;
    token = page.continue;
    if (token === undefined) return { objects, resourceVersion };
  }
}
