/**
 * A CustomResourceDefinition manifest for tests, so that an operator's tests need no YAML file to install the CRDs
 * they exercise: `server.applyCrd(crdManifest({...}))`. Each version has an open schema
 * (`x-kubernetes-preserve-unknown-fields`) unless it gives its own; the CRD converts with `None` unless it names a
 * conversion webhook.
 */

/** One version of a {@link crdManifest} CRD. */
export interface CrdManifestVersion {
  /** The version's name (`v1`). */
  readonly name: string;
  /** Default true. */
  readonly served?: boolean;
  /** Default: true for the only version, else false (mark one). */
  readonly storage?: boolean;
  /** Whether the version has the status subresource; default true. */
  readonly status?: boolean;
  /** The version's `openAPIV3Schema`; default an open schema (`{type: object, x-kubernetes-preserve-unknown-fields: true}`). */
  readonly schema?: Readonly<Record<string, unknown>>;
}

/** A conversion webhook the CRD's versions convert through (`spec.conversion.strategy: Webhook`). */
export interface CrdManifestConversionWebhook {
  /** The webhook's https URL. */
  readonly url: string;
  /** The PEM certificate (or chain) that signed the webhook's serving certificate; written base64 as `caBundle`. */
  readonly caBundle: string;
}

/** What {@link crdManifest} makes a CustomResourceDefinition of. */
export interface CrdManifestSpec {
  /** The API group (`example.com`). */
  readonly group: string;
  /** The kind (`Website`). */
  readonly kind: string;
  /** The plural resource name (`websites`); the CRD is named `<plural>.<group>`. */
  readonly plural: string;
  /** Default the lowercased kind. */
  readonly singular?: string;
  /** Default `Namespaced`. */
  readonly scope?: 'Namespaced' | 'Cluster';
  /** Default one version, `v1`, served and stored, with the status subresource. */
  readonly versions?: readonly CrdManifestVersion[];
  readonly shortNames?: readonly string[];
  /** Default none: the versions convert with `None` (the same object under each apiVersion). */
  readonly conversionWebhook?: CrdManifestConversionWebhook;
}

/** A CustomResourceDefinition manifest (apiextensions.k8s.io/v1) for `applyCrd`, with the defaults each field states. */
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
        schema: { openAPIV3Schema: version.schema === undefined ? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } : structuredClone(version.schema) },
        ...(version.status === false ? {} : { subresources: { status: {} } }),
      })),
      ...(spec.conversionWebhook === undefined ? {} : { conversion: conversionOf(spec.conversionWebhook) }),
    },
  };
}

function conversionOf(webhook: CrdManifestConversionWebhook): Record<string, unknown> {
  return {
    strategy: 'Webhook',
    webhook: { clientConfig: { url: webhook.url, caBundle: Buffer.from(webhook.caBundle).toString('base64') }, conversionReviewVersions: ['v1'] },
  };
}
