/**
 * Resolves the kinds that operatorBox entries name (`watch`, `cross`) through discovery, once per activation.
 */
import type { ResourceRef } from '../kube/resource.js';
import { RuntimeError } from '../errors.js';

/** An entry that names a kind, with its document path for messages. */
export interface KindEntry {
  readonly apiVersion: string;
  readonly kind: string;
  readonly path: string;
}

/**
 * Resolves each entry's kind. A kind the API server does not serve fails the activation (retried with backoff like
 * any activation): running without the entry would silently miss what it reads or triggers. `verb` words the
 * message (`watches`, `reads`).
 */
export async function resolveEntryKinds<E extends KindEntry>(
  crd: string,
  entries: readonly E[],
  verb: string,
  resolver: { resolve(apiVersion: string, kind: string): Promise<ResourceRef> },
): Promise<Array<{ entry: E; resource: ResourceRef }>> {
  const out: Array<{ entry: E; resource: ResourceRef }> = [];
  for (const entry of entries) {
    try {
      out.push({ entry, resource: await resolver.resolve(entry.apiVersion, entry.kind) });
    } catch (error) {
      throw new RuntimeError('E_ACTIVATION', `CRD ${crd}: ${entry.path} ${verb} ${entry.kind} (${entry.apiVersion}), which the API server does not serve`, { cause: error });
    }
  }
  return out;
}
