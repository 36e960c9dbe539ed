/**
 * The custom resources of a CRD in a runtime's cache, for an admission router mounted beside it (`operator:
 * unique`): `createAdmissionRouter(definition, { peers: (crd) => cachedObjects(runtime, crd) })`.
 */
import type { Runtime } from './runtime.js';

/** CRD `crd`'s custom resources in this process's cache (none while it is not active here). Do not mutate them. */
export function cachedObjects(runtime: Runtime, crd: string): Iterable<Record<string, unknown>> {
  return runtime.slot(crd)?.activated?.controller.informer.values() ?? [];
}
