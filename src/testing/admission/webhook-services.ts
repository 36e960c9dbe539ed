/**
 * Where the test server calls a webhook configured by Service reference (`clientConfig.service` of an admission
 * webhook or of a CRD's conversion webhook). kube-apiserver calls `https://<name>.<namespace>.svc:<port><path>` and
 * checks the webhook's certificate for the name `<name>.<namespace>.svc`; the test server resolves no Service, so
 * the test says where its webhook listens (`webhookServices: { 'shop/shop-webhook': 'https://127.0.0.1:8443' }`) and
 * the call goes there, with the configuration's path and the same certificate check. A configuration written for a
 * cluster is then tested as it is.
 */

/** The address of each Service's webhook, by `<namespace>/<name>`. */
export type WebhookServices = ReadonlyMap<string, URL>;

const SERVICE_KEY = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The `webhookServices` option, checked: a TypeError names the entry that is not `<namespace>/<name>` → an http(s) origin. */
export function webhookServicesOf(option: Readonly<Record<string, string>> | undefined): WebhookServices {
  const services = new Map<string, URL>();
  for (const [key, address] of Object.entries(option ?? {})) {
    const where = `webhookServices[${JSON.stringify(key)}]`;
    if (!SERVICE_KEY.test(key)) throw new TypeError(`${where}: the key must be "<namespace>/<service name>"`);
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      throw new TypeError(`${where}: ${JSON.stringify(address)} is not a URL (give the webhook server's origin, such as "https://127.0.0.1:8443")`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`${where}: ${JSON.stringify(address)} is not an http or https URL`);
    if (url.pathname !== '/' || url.search !== '') throw new TypeError(`${where}: ${JSON.stringify(address)} must be an origin without a path (the configuration's service.path is appended)`);
    services.set(key, url);
  }
  return services;
}
