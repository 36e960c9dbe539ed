/** Which resource an active CRD is read at (its internal version, SPEC §3.3) and whether it has a status subresource. */
import type { InstalledCrd } from '../controller/crd-watcher.js';
import type { CrdDefinition } from '../definition/types.js';
import { RuntimeError } from '../errors.js';
import type { ResourceRef } from '../kube/resource.js';
import { resolveInternalVersion } from '../kube/versions.js';

/** The resource a CRD is read at, and whether that version has a status subresource. */
export interface Target {
  readonly resource: ResourceRef;
  readonly hasStatus: boolean;
}

/** Resolves the internal version (SPEC §3.3) from the installed CRD; built-in kinds use their declared version. */
export function targetOf(crd: CrdDefinition, installed: InstalledCrd | undefined): Target {
  const { apiTypes } = crd;
  if (installed === undefined) {
    return { resource: { group: apiTypes.group, version: apiTypes.version, kind: apiTypes.kind, plural: apiTypes.plural, namespaced: apiTypes.scope === 'Namespaced' }, hasStatus: false };
  }
  const version = resolveInternalVersion(installed.versions.map((v) => ({ name: v.name, served: v.served, storage: v.storage })));
  if (version === undefined) throw new RuntimeError('E_ACTIVATION', `CRD ${installed.name} serves no version`);
  const served = installed.versions.find((v) => v.name === version);
  return {
    resource: { group: installed.group, version, kind: installed.kind, plural: installed.plural, namespaced: installed.scope === 'Namespaced' },
    hasStatus: served?.hasStatus === true,
  };
}
