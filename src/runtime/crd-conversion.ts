/**
 * The `spec.conversion` a CustomResourceDefinition needs for the API server to call the conversion router
 * (`createConversionRouter`): `strategy: Webhook`, the router's `/convert` URL or Service, the CA that signed its
 * serving certificate, and `conversionReviewVersions: [v1]`. `installCrds` writes it into the CRDs whose entries
 * declare `conversion` when the runtime is given `conversionWebhook`.
 */
import type { CrdDefinition } from '../definition/types.js';
import { KatalogError, RuntimeError } from '../errors.js';
import type { KubeObject } from '../kube/resource.js';

export interface ConversionWebhookOptions {
  /** The router's base URL (`https://host:port/conversion`, where the host mounted it); `/convert` is appended. */
  readonly url?: string;
  /** Or the Service in front of it; `path` is the mount point (default `/`). */
  readonly service?: { readonly name: string; readonly namespace: string; readonly port?: number; readonly path?: string };
  /** PEM of the CA that signed the router's serving certificate (base64-encoded into `caBundle`). */
  readonly caBundle?: string;
}

/**
 * The `spec.conversion` block for `options`. Throws a KatalogError (`E_CONFIG`) when neither or both of `url` and
 * `service` are given, or the URL is not https (the API server calls webhooks over TLS only).
 */
export function conversionWebhookSpec(options: ConversionWebhookOptions): Record<string, unknown> {
  if ((options.url === undefined) === (options.service === undefined)) throw new KatalogError('E_CONFIG', 'conversion webhook: give exactly one of url and service');
  if (options.url !== undefined && !options.url.startsWith('https://')) {
    throw new KatalogError('E_CONFIG', `conversion webhook: url must start with https:// (the API server calls webhooks over TLS only), got "${options.url}"`);
  }
  const caBundle = options.caBundle === undefined ? {} : { caBundle: Buffer.from(options.caBundle).toString('base64') };
  const service = options.service;
  const clientConfig =
    service === undefined
      ? { url: `${(options.url ?? '').replace(/\/+$/, '')}/convert`, ...caBundle }
      : {
          service: { name: service.name, namespace: service.namespace, path: `${(service.path ?? '').replace(/\/+$/, '')}/convert`, ...(service.port === undefined ? {} : { port: service.port }) },
          ...caBundle,
        };
  return { strategy: 'Webhook', webhook: { clientConfig, conversionReviewVersions: ['v1'] } };
}

/**
 * The manifest to install for `crd`: as written, or with `spec.conversion` pointing at the webhook when the entry
 * declares `conversion` and `webhook` is given. Throws a RuntimeError (`E_INSTALL`) when the manifest's storage
 * version is not the entry's `conversion.storageVersion`.
 */
export function withConversionWebhook(manifest: KubeObject, crd: CrdDefinition, webhook: ConversionWebhookOptions | undefined): KubeObject {
  const conversion = crd.conversion;
  if (conversion === undefined || webhook === undefined) return manifest;
  const spec = (manifest['spec'] ?? {}) as Record<string, unknown>;
  const versions = Array.isArray(spec['versions']) ? (spec['versions'] as Array<Record<string, unknown>>) : [];
  const storage = versions.find((version) => version['storage'] === true)?.['name'];
  if (conversion.storageVersion !== undefined && storage !== conversion.storageVersion) {
    throw new RuntimeError(
      'E_INSTALL',
      `CRD ${crd.name}: conversion.storageVersion is ${conversion.storageVersion} but crdFile ${crd.crdFile ?? '?'} stores ${typeof storage === 'string' ? storage : 'no version'}; make them the same`,
    );
  }
  return { ...manifest, spec: { ...spec, conversion: conversionWebhookSpec(webhook) } };
}
