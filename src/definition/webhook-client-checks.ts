/**
 * The checks of a webhook's client config that kube-apiserver makes (util/webhook/validation.go), made before a
 * configuration katalog generates is written: an admission webhook configuration's (admission/) and a CRD's
 * conversion webhook's (runtime/crd-conversion.ts). Exactly one of a URL and a Service; an https URL without user
 * information, query or fragment (the route is appended to its path); a Service's name, namespace, port (1–65535)
 * and path ('/' then DNS-1123 subdomain segments). Each refusal says what and where, as a KatalogError (`E_CONFIG`).
 */
import { subdomainProblem } from './name-checks.js';
import { KatalogError } from '../errors.js';

/** Where a webhook is reached: its base URL, or the Service in front of it (`path`: the mount point). */
export interface WebhookClientOptions {
  readonly url?: string;
  readonly service?: { readonly name: string; readonly namespace: string; readonly port?: number; readonly path?: string };
}

/** Throws what the API server would refuse in `client`; `what` names the configuration in the message. */
export function checkWebhookClient(what: string, client: WebhookClientOptions): void {
  if ((client.url === undefined) === (client.service === undefined)) throw new KatalogError('E_CONFIG', `${what}: give exactly one of url and service`);
  const refuse = (field: string, value: unknown, why: string): never => {
    throw new KatalogError('E_CONFIG', `${what}: ${field} ${why} (the API server refuses it), got ${JSON.stringify(value)}`);
  };
  const service = client.service;
  if (service !== undefined) {
    if (service.name === '') refuse('service.name', service.name, 'must not be empty');
    if (service.namespace === '') refuse('service.namespace', service.namespace, 'must not be empty');
    const port = service.port;
    if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) refuse('service.port', port, 'must be an integer from 1 to 65535');
    // kube-apiserver's webhook path: '/' then DNS-1123 subdomain segments (the route is appended after it).
    const path = (service.path ?? '').replace(/\/+$/, '');
    if (path !== '' && !path.startsWith('/')) refuse('service.path', service.path, "must start with a '/'");
    for (const segment of path.split('/').slice(1)) {
      const problem = segment === '' ? 'must not have an empty segment' : subdomainProblem(segment);
      if (problem !== undefined) refuse('service.path', service.path, `segment "${segment}" ${problem}`);
    }
  }
  const url = client.url;
  if (url !== undefined) {
    if (!url.startsWith('https://')) throw new KatalogError('E_CONFIG', `${what}: url must start with https:// (the API server calls webhooks over TLS only), got "${url}"`);
    // The route is appended to the path: a query or fragment would swallow it; user information is refused there.
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (parsed === undefined) refuse('url', url, 'must be an absolute URL');
    else if (parsed.username !== '' || parsed.password !== '') refuse('url', url, 'must not carry user information');
    else if (parsed.search !== '' || parsed.hash !== '' || url.includes('?') || url.includes('#')) refuse('url', url, 'must have no query or fragment');
  }
}
