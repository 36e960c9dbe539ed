/**
 * The `spec.conversion` a CustomResourceDefinition needs for the API server to call the conversion router
 * (`createConversionRouter`): `strategy: Webhook`, the router's `/convert` URL or Service, the CA that signed its
 * serving certificate, and `conversionReviewVersions: [v1]`. `installCrds` writes it into the CRDs whose entries
 * declare `conversion` when the runtime is given `conversionWebhook`.
 */
import type { CrdDefinition } from '../definition/types.js';
import { RuntimeError } from '../errors.js';
import { checkWebhookClient } from '../definition/webhook-client-checks.js';
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
 * The `spec.conversion` block for `options`. Throws a KatalogError (`E_CONFIG`) for what the API server would refuse
 * (kube/webhook-client.ts): neither or both of `url` and `service`, a URL that is not https or has a query, a
 * Service port or path it does not take.
 */
export function conversionWebhookSpec(options: ConversionWebhookOptions): Record<string, unknown> {
  checkWebhookClient('conversion webhook', options);
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
