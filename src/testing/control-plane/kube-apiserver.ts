/**
 * `startKubeApiServer()`: a real kube-apiserver and etcd started from binaries, the way envtest does, behind the
 * parts of the {@link TestApiServer} surface that a real server can offer. See docs/testing.md ("A real
 * kube-apiserver") for the flags it passes and what only the in-process server can do.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KatalogError } from '../../errors.js';
import type { DirectDeleteOptions, DirectPatchOptions } from '../direct-access.js';
import { kubeconfigYaml } from '../kubeconfig.js';
import { assertRunning, ControlPlaneProcess } from './child-process.js';
import { ObjectClient } from './object-client.js';
import { rawRequest, type Endpoint } from './raw-request.js';

/** Options of {@link startKubeApiServer}. */
export interface KubeApiServerOptions {
  /**
   * A directory holding `kube-apiserver` and `etcd` (envtest's `KUBEBUILDER_ASSETS` convention). The library never
   * reads the environment itself: pass `process.env['KUBEBUILDER_ASSETS']` to follow the convention.
   */
  assets?: string;
  /** Path of the kube-apiserver binary; overrides `assets`. */
  kubeApiServerPath?: string;
  /** Path of the etcd binary; overrides `assets`. */
  etcdPath?: string;
  /** How long to wait for etcd and then `/readyz` (default 120 s: a cold start on a loaded machine is slow). */
  startTimeoutMs?: number;
  /** Extra kube-apiserver flags, appended after the defaults (a later flag wins). */
  kubeApiServerArgs?: readonly string[];
  /** Field manager of the setup calls (`create`, `patch`, ...; default `katalog-testing`). */
  fieldManager?: string;
}

/**
 * A running kube-apiserver with its etcd. The setup calls are asynchronous (they go over HTTP) but otherwise
 * behave like the in-process server's: namespace `default` by default, merge patch by default, `get` resolves to
 * undefined for a missing object, `applyCrd` resolves once every served version answers.
 */
export interface KubeApiServer {
  /** `https://127.0.0.1:<port>`. */
  readonly url: string;
  /** A client-node KubeConfig: the launcher's bearer token (authorized by AlwaysAllow), the server's CA trusted. */
  readonly kubeConfig: KubeConfig;
  /** The same configuration as kubeconfig YAML, for kubectl or files. */
  readonly kubeconfigYaml: string;
  /** The URL etcd serves clients on (`http://127.0.0.1:<port>`). */
  readonly etcdUrl: string;
  /** Stops kube-apiserver, then etcd, and removes their temporary directory; the process can exit after it. Idempotent. */
  stop(): Promise<void>;
  /**
   * Stops kube-apiserver and starts it again with the same flags, port, certificates and token; etcd keeps running
   * with every object. Resolves once `/readyz` answers again. Every watch ends; the new process rebuilds its watch
   * caches from etcd, so a watch from a resourceVersion older than the restart gets 410 Expired ("too old resource
   * version"), as after an API server restart or a failover to another replica in a cluster.
   */
  restart(): Promise<void>;
  /** Creates an object (POST; namespace from metadata, default `default`); resolves to the stored object. */
  create(object: unknown): Promise<Record<string, unknown>>;
  /** The object, or undefined when it does not exist. */
  get(apiVersion: string, kind: string, name: string, namespace?: string): Promise<Record<string, unknown> | undefined>;
  /** PUT; the object must carry its current resourceVersion (optimistic concurrency, as on any real server). */
  update(object: unknown): Promise<Record<string, unknown>>;
  /** PUT on `/status`. */
  updateStatus(object: unknown): Promise<Record<string, unknown>>;
  /** Patches an object (merge patch by default; `type: 'apply'` is server-side apply with `fieldManager` and `force`). */
  patch(apiVersion: string, kind: string, name: string, patch: unknown, options?: DirectPatchOptions): Promise<Record<string, unknown>>;
  /** Deletes; resolves to the object as it is now (with deletionTimestamp while finalizers hold it), or undefined when gone. */
  delete(apiVersion: string, kind: string, name: string, namespace?: string, options?: DirectDeleteOptions): Promise<Record<string, unknown> | undefined>;
  /** Creates or replaces a CustomResourceDefinition; resolves when every served version answers requests. */
  applyCrd(crd: unknown): Promise<Record<string, unknown>>;
}

const DEFAULT_START_TIMEOUT_MS = 120_000;

async function freePort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function executable(path: string, what: string): Promise<string> {
  try {
    await access(path, constants.X_OK);
    return path;
  } catch (error) {
    throw new KatalogError('E_CONTROL_PLANE', `${what} is not an executable file at ${path} (build it with scripts/build-apiserver.sh, or point assets/KUBEBUILDER_ASSETS at a directory holding kube-apiserver and etcd)`, { cause: error });
  }
}

async function binaries(options: KubeApiServerOptions): Promise<{ kubeApiServer: string; etcd: string }> {
  const fromAssets = (name: string): string | undefined => (options.assets === undefined || options.assets === '' ? undefined : join(options.assets, name));
  const kubeApiServer = options.kubeApiServerPath ?? fromAssets('kube-apiserver');
  const etcd = options.etcdPath ?? fromAssets('etcd');
  if (kubeApiServer === undefined || etcd === undefined) {
    throw new KatalogError('E_CONTROL_PLANE', 'startKubeApiServer needs the binaries: pass assets (a directory with kube-apiserver and etcd, e.g. process.env.KUBEBUILDER_ASSETS) or kubeApiServerPath and etcdPath');
  }
  return { kubeApiServer: await executable(kubeApiServer, 'kube-apiserver'), etcd: await executable(etcd, 'etcd') };
}

/** Polls `probe` every 100 ms until it returns true; fails at the deadline or as soon as a process has ended. */
async function waitUntil(what: string, deadline: number, processes: readonly ControlPlaneProcess[], probe: () => Promise<boolean>): Promise<void> {
  for (;;) {
    for (const process of processes) assertRunning(process);
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) {
      const output = processes.map((p) => `--- ${p.name}:\n${p.lastOutput()}`).join('\n');
      throw new KatalogError('E_CONTROL_PLANE', `timed out waiting for ${what}; last output:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function etcdHealthy(url: string): Promise<boolean> {
  const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) });
  const body = await response.text();
  return response.status === 200 && body.includes('true');
}

/** Puts one key through etcd's JSON gateway (`/v3/kv/put`: key and value base64-encoded). */
async function etcdPut(url: string, key: string, value: string): Promise<void> {
  const body = JSON.stringify({ key: Buffer.from(key).toString('base64'), value: Buffer.from(value).toString('base64') });
  const response = await fetch(`${url}/v3/kv/put`, { method: 'POST', body, signal: AbortSignal.timeout(10_000) });
  if (response.status !== 200) throw new KatalogError('E_CONTROL_PLANE', `etcd at ${url} refused a put of ${key}: ${response.status} ${await response.text()}`);
}

class RunningKubeApiServer implements KubeApiServer {
  private stopping: Promise<void> | undefined;
  readonly kubeConfig: KubeConfig;

  constructor(
    readonly url: string,
    readonly etcdUrl: string,
    readonly kubeconfigYaml: string,
    private readonly client: ObjectClient,
    kubeConfig: KubeConfig,
    private readonly stopAll: () => Promise<void>,
    private readonly restartApiServer: () => Promise<void>,
  ) {
    this.kubeConfig = kubeConfig;
  }

  stop(): Promise<void> {
    this.stopping ??= this.stopAll();
    return this.stopping;
  }
  async restart(): Promise<void> {
    if (this.stopping !== undefined) throw new KatalogError('E_CONTROL_PLANE', 'restart() after stop(): the control plane is gone');
    await this.restartApiServer();
  }
  create(object: unknown): Promise<Record<string, unknown>> {
    return this.client.create(object);
  }
  get(apiVersion: string, kind: string, name: string, namespace?: string): Promise<Record<string, unknown> | undefined> {
    return this.client.get(apiVersion, kind, name, namespace);
  }
  update(object: unknown): Promise<Record<string, unknown>> {
    return this.client.update(object);
  }
  updateStatus(object: unknown): Promise<Record<string, unknown>> {
    return this.client.replaceStatus(object);
  }
  patch(apiVersion: string, kind: string, name: string, patch: unknown, options?: DirectPatchOptions): Promise<Record<string, unknown>> {
    return this.client.patch(apiVersion, kind, name, patch, options);
  }
  delete(apiVersion: string, kind: string, name: string, namespace?: string, options?: DirectDeleteOptions): Promise<Record<string, unknown> | undefined> {
    return this.client.delete(apiVersion, kind, name, namespace, options);
  }
  applyCrd(crd: unknown): Promise<Record<string, unknown>> {
    return this.client.applyCrd(crd);
  }
}

/**
 * Starts etcd (loopback, free ports, a temporary data directory, no fsync) and kube-apiserver (loopback only,
 * a self-signed serving certificate it generates, a generated service-account key, AlwaysAllow authorization,
 * a generated bearer token, no admission plugin that needs a controller), waits for etcd's `/health`, then the API
 * server's `/readyz` and its `default` namespace, and resolves. On any failure everything started so far is
 * stopped and removed, and the error carries the processes' last output.
 */
export async function startKubeApiServer(options: KubeApiServerOptions = {}): Promise<KubeApiServer> {
  const bins = await binaries(options);
  const deadline = Date.now() + (options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
  const dir = await mkdtemp(join(tmpdir(), 'katalog-kube-apiserver-'));
  const processes: ControlPlaneProcess[] = [];
  const stopAll = async (): Promise<void> => {
    // kube-apiserver first (it holds etcd's watches), then etcd; then their files.
    for (const process of [...processes].reverse()) await process.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const [etcdPort, peerPort, apiPort] = [await freePort(), await freePort(), await freePort()];
    const etcdUrl = `http://127.0.0.1:${etcdPort}`;
    const peerUrl = `http://127.0.0.1:${peerPort}`;
    processes.push(
      new ControlPlaneProcess('etcd', bins.etcd, [
        `--name=default`,
        `--data-dir=${join(dir, 'etcd')}`,
        `--listen-client-urls=${etcdUrl}`,
        `--advertise-client-urls=${etcdUrl}`,
        `--listen-peer-urls=${peerUrl}`,
        `--initial-advertise-peer-urls=${peerUrl}`,
        `--initial-cluster=default=${peerUrl}`,
        '--unsafe-no-fsync=true',
      ]),
    );
    await waitUntil(`etcd at ${etcdUrl}/health`, deadline, processes, () => etcdHealthy(etcdUrl));

    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyFile = join(dir, 'service-account.key');
    await writeFile(keyFile, privateKey.export({ type: 'pkcs1', format: 'pem' }), { mode: 0o600 });
    // Anonymous requests are refused (401) by current kube-apiserver releases even with --anonymous-auth=true and
    // AlwaysAllow, so the launcher authenticates with a static token of its own, in group system:masters.
    const token = randomBytes(24).toString('hex');
    const tokenFile = join(dir, 'tokens.csv');
    await writeFile(tokenFile, `${token},katalog-testing,katalog-testing,"system:masters"\n`, { mode: 0o600 });
    const certDir = join(dir, 'certs');
    const url = `https://127.0.0.1:${apiPort}`;
    const apiServerArgs = [
        `--etcd-servers=${etcdUrl}`,
        '--bind-address=127.0.0.1',
        '--advertise-address=127.0.0.1',
        `--secure-port=${apiPort}`,
        `--cert-dir=${certDir}`,
        '--service-cluster-ip-range=10.0.0.0/24',
        `--service-account-issuer=${url}`,
        `--service-account-key-file=${keyFile}`,
        `--service-account-signing-key-file=${keyFile}`,
        '--authorization-mode=AlwaysAllow',
        `--token-auth-file=${tokenFile}`,
        // ServiceAccount admission waits for the token controller (part of kube-controller-manager), which is not run.
        '--disable-admission-plugins=ServiceAccount',
        '--allow-privileged=true',
        // The default (lease) endpoint reconciler refuses a loopback advertise address: "may not be in the loopback range".
        '--endpoint-reconciler-type=none',
        ...(options.kubeApiServerArgs ?? []),
    ];
    processes.push(new ControlPlaneProcess('kube-apiserver', bins.kubeApiServer, apiServerArgs));
    let ca = '';
    await waitUntil(`kube-apiserver's serving certificate in ${certDir}`, deadline, processes, async () => {
      ca = await readFile(join(certDir, 'apiserver.crt'), 'utf8');
      return ca.includes('END CERTIFICATE');
    });
    const endpoint: Endpoint = { url, ca, token };
    await waitUntil(`${url}/readyz`, deadline, processes, async () => (await rawRequest(endpoint, 'GET', '/readyz', undefined, 5000)).status === 200);
    // /readyz can pass before the bootstrap controller has created the `default` namespace; tests write there at once.
    await waitUntil('the default namespace', deadline, processes, async () => (await rawRequest(endpoint, 'GET', '/api/v1/namespaces/default', undefined, 5000)).status === 200);
    const restartApiServer = async (): Promise<void> => {
      const old = processes.pop();
      await old?.stop();
      // One write while no API server runs, under a key outside kube-apiserver's /registry prefix: it moves etcd's
      // revision past everything the old process served (bookmarks included), so the new watch caches start after
      // every resourceVersion a client holds, and a watch from one of them is expired. In a cluster the API server's
      // own writes (leases, events) do the same within seconds.
      await etcdPut(etcdUrl, '/katalog-testing/restarted', new Date().toISOString());
      // The same --cert-dir: kube-apiserver reuses the serving certificate it generated there, so the CA stays valid.
      processes.push(new ControlPlaneProcess('kube-apiserver', bins.kubeApiServer, apiServerArgs));
      const restartDeadline = Date.now() + (options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
      await waitUntil(`${url}/readyz after a restart`, restartDeadline, processes, async () => (await rawRequest(endpoint, 'GET', '/readyz', undefined, 5000)).status === 200);
    };

    const yaml = kubeconfigYaml(url, ca, token);
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(yaml);
    const client = new ObjectClient(endpoint, options.fieldManager ?? 'katalog-testing');
    return new RunningKubeApiServer(url, etcdUrl, yaml, client, kubeConfig, stopAll, restartApiServer);
  } catch (error) {
    await stopAll();
    throw error;
  }
}
