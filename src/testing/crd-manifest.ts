/**
 * A CustomResourceDefinition manifest for tests, with an open schema (`x-kubernetes-preserve-unknown-fields`), so
 * that an operator's tests need no YAML file to install the CRDs they exercise: `server.applyCrd(crdManifest({...}))`.
 */

export interface CrdManifestVersion {
  readonly name: string;
  /** Default true. */
  readonly served?: boolean;
  /** Default: true for the only version, else false (mark one). */
  readonly storage?: boolean;
  /** Whether the version has the status subresource; default true. */
  readonly status?: boolean;
}

export interface CrdManifestSpec {
  readonly group: string;
  readonly kind: string;
  readonly plural: string;
  /** Default the lowercased kind. */
  readonly singular?: string;
  /** Default `Namespaced`. */
  readonly scope?: 'Namespaced' | 'Cluster';
  /** Default one version, `v1`, served and stored, with the status subresource. */
  readonly versions?: readonly CrdManifestVersion[];
  readonly shortNames?: readonly string[];
}

export function crdManifest(spec: CrdManifestSpec): Record<string, unknown> {
  const versions = spec.versions ?? [{ name: 'v1' }];
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${spec.plural}.${spec.group}` },
    spec: {
      group: spec.group,
      scope: spec.scope ?? 'Namespaced',
      names: {
        kind: spec.kind,
        plural: spec.plural,
        singular: spec.singular ?? spec.kind.toLowerCase(),
        listKind: `${spec.kind}List`,
        ...(spec.shortNames === undefined ? {} : { shortNames: [...spec.shortNames] }),
      },
      versions: versions.map((version) => ({
        name: version.name,
        served: version.served ?? true,
        storage: version.storage ?? versions.length === 1,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        ...(version.status === false ? {} : { subresources: { status: {} } }),
      })),
    },
  };
}
