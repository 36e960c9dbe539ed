/**
 * The request options client-node's KubeConfig gives for its current user and cluster (`applyToHTTPSOptions`:
 * headers, TLS material, basic auth, a proxy agent), asked once and reused while they cannot change.
 *
 * client-node answers every call by reading files and building a new http.Agent, about 2.5 % of the runtime's CPU
 * when asked once per request. The answer is reused only when everything in it is inline in the KubeConfig: no exec
 * plugin, no auth provider (OIDC, in-cluster token file, cloud providers), no custom authenticator, no certificate,
 * key or CA read from a file. Then the same KubeConfig objects always give the same answer. Any of those, and the
 * KubeConfig is asked for every request, so rotated tokens and certificates are picked up at once. A change of the
 * current context (a different user or cluster object) is asked again.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { RequestOptions as HttpsRequestOptions } from 'node:https';

type User = NonNullable<ReturnType<KubeConfig['getCurrentUser']>>;
type Cluster = NonNullable<ReturnType<KubeConfig['getCurrentCluster']>>;

export class Credentials {
  private cached: { readonly user: User | null; readonly cluster: Cluster | null; readonly options: HttpsRequestOptions } | undefined;

  constructor(private readonly kubeConfig: KubeConfig) {}

  /**
   * The reused answer, while it still holds, without a promise: the transport asks this first for every request.
   * Undefined when nothing is reused (or the current context changed): ask {@link Credentials.options}.
   */
  reused(): HttpsRequestOptions | undefined {
    const cached = this.cached;
    if (cached === undefined) return undefined;
    return cached.user === this.kubeConfig.getCurrentUser() && cached.cluster === this.kubeConfig.getCurrentCluster() ? cached.options : undefined;
  }

  /** The options for one request. Callers copy what they change: the answer may be shared between requests. */
  async options(): Promise<HttpsRequestOptions> {
    const user = this.kubeConfig.getCurrentUser();
    const cluster = this.kubeConfig.getCurrentCluster();
    const cached = this.cached;
    if (cached !== undefined && cached.user === user && cached.cluster === cluster) return cached.options;
    const options: HttpsRequestOptions = { headers: {} };
    await this.kubeConfig.applyToHTTPSOptions(options);
    this.cached = inline(this.kubeConfig, user, cluster) ? { user, cluster, options } : undefined;
    return options;
  }
}

/** Whether every credential of the current user and cluster is written in the KubeConfig itself. */
function inline(kubeConfig: KubeConfig, user: User | null, cluster: Cluster | null): boolean {
  // Authenticators added with addAuthenticator() may give anything at any time. The field is client-node's own
  // (1.x and 2.x); if it ever goes missing, nothing is reused rather than guessing.
  const custom = (kubeConfig as unknown as { custom_authenticators?: unknown }).custom_authenticators;
  if (!Array.isArray(custom) || custom.length > 0) return false;
  if (user !== null && (user.exec !== undefined || user.authProvider !== undefined || isSet(user.certFile) || isSet(user.keyFile))) return false;
  return cluster === null || !isSet(cluster.caFile);
}

function isSet(value: string | undefined): boolean {
  return value !== undefined && value !== '';
}
