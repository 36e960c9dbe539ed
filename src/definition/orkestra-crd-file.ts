/**
 * `crdFile` alone (current Orkestra): the CRD entry's apiTypes are read from the CustomResourceDefinition file —
 * group, kind, plural, scope, and the storage version (else the first served one).
 */
import type { Path } from './path.js';
import type { Origin } from './problems.js';
import { readDocument, type LoadContext } from './documents.js';
import { isMap } from './schema-check.js';

export interface CrdFileTypes {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly scope: 'Namespaced' | 'Cluster';
}

/** The types a CRD file declares, or `undefined` with a problem at `path` (the `crdFile` field). */
export function readCrdFileTypes(written: string, origin: Origin, path: Path, context: LoadContext): CrdFileTypes | undefined {
  const document = readDocument(written, origin, path, context);
  if (document === undefined) return undefined;
  const crd = document.value;
  const spec = isMap(crd) ? crd.spec : undefined;
  const names = isMap(spec) ? spec.names : undefined;
  const versions = isMap(spec) && Array.isArray(spec.versions) ? spec.versions.filter(isMap) : [];
  const chosen = versions.find((v) => v.storage === true) ?? versions.find((v) => v.served !== false) ?? versions[0];
  const group = isMap(spec) ? spec.group : undefined;
  const kind = isMap(names) ? names.kind : undefined;
  const plural = isMap(names) ? names.plural : undefined;
  const version = chosen?.name;
  const scope = isMap(spec) ? spec.scope : undefined;
  if (!isMap(crd) || crd.kind !== 'CustomResourceDefinition' || typeof group !== 'string' || typeof kind !== 'string' || typeof plural !== 'string' || typeof version !== 'string') {
    context.problems.add(
      origin,
      path,
      'invalid-crd-file',
      `"${written}" is not a CustomResourceDefinition with spec.group, spec.names.kind, spec.names.plural and a version; declare apiTypes instead`,
    );
    return undefined;
  }
  return { group, version, kind, plural, scope: scope === 'Cluster' ? 'Cluster' : 'Namespaced' };
}
