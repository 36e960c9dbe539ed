/** The kubeconfig of a test API server: one cluster, one user (no credentials, or a bearer token), context namespace `default`. */
import { stringify } from 'yaml';

const NAME = 'katalog-testing';

/** The kubeconfig YAML for a server at `url`; with `caCertificate` (PEM) the cluster is verified against it. */
export function kubeconfigYaml(url: string, caCertificate: string | undefined, token?: string): string {
  const cluster: Record<string, unknown> = { server: url };
  if (caCertificate === undefined) cluster['insecure-skip-tls-verify'] = true;
  else cluster['certificate-authority-data'] = Buffer.from(caCertificate).toString('base64');
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: NAME, cluster }],
    users: [{ name: NAME, user: token === undefined ? {} : { token } }],
    contexts: [{ name: NAME, context: { cluster: NAME, user: NAME, namespace: 'default' } }],
    'current-context': NAME,
    preferences: {},
  });
}
