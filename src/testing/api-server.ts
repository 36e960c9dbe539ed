/**
 * `startTestApiServer()`: an in-process Kubernetes API server on real HTTP for tests, demos and benchmarks.
 * See docs/testing.md for what it implements and what it does not.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { setTimeout as delay } from 'node:timers/promises';
import { systemClock, type Clock } from '../util/clock.js';
import { RbacAuthorizer, type AuthorizationOptions } from './authorization.js';
import { Cluster } from './cluster.js';
import { runCrdController } from './controllers/crd-lifecycle.js';
import { runGarbageCollector } from './controllers/garbage-collector.js';
import { runNamespaceController } from './controllers/namespace-lifecycle.js';
import { runPvcProtection } from './controllers/pvc-protection.js';
import { resolveSimulation, type WorkloadSimulationOptions } from './controllers/workloads/simulation-options.js';
import { runWorkloadSimulation, type WorkloadSimulator } from './controllers/workloads/simulated-workloads.js';
import { DirectAccess, type DirectDeleteOptions, type DirectPatchOptions } from './direct-access.js';
import { FaultInjector, type Faults } from './faults.js';
import { createDispatcher } from './http/dispatch.js';
import { HttpListener, type TlsMaterial } from './http-listener.js';
import { kubeconfigYaml } from './kubeconfig.js';
import { NAMESPACES_KEY } from './resources/builtin-resources.js';
import { RequestLog, type RequestCounter } from './requests.js';
import { splitApiVersion } from './resources/resource-type.js';
import { copyObject, type KubeObject } from './store/record.js';
import { selfSignedCertificate } from './tls.js';
import { webhookServicesOf } from './admission/webhook-services.js';

/** Options of {@link startTestApiServer}; every field is optional. */
export interface TestApiServerOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on (default `127.0.0.1`). */
  host?: string;
  /** Serve HTTPS with a throwaway self-signed certificate (needs `openssl` on PATH); the kubeconfig trusts it. */
  tls?: boolean;
  /** Number of change events kept for watch replay (default 10 000); older resourceVersions get 410. */
  historyWindow?: number;
  /** Period of BOOKMARK events on watches that allow them (default 1000 ms; on the injected clock). */
  bookmarkIntervalMs?: number;
  /** Namespaces that exist from the start and survive `reset()` (default default, kube-system, kube-public). */
  namespaces?: string[];
  /** Clock for timestamps, bookmarks and watch timeouts (default: the system clock). */
  clock?: Clock;
  /** Print one line per request to stderr. */
  logRequests?: boolean;
  /** Entries kept by `requests.log()` (default 10 000; counts are always exact). */
  requestLogSize?: number;
  /** Field manager recorded by the direct (HTTP-less) writes (default `katalog-testing`). */
  fieldManager?: string;
  /** A watch whose client lags by more than this many bytes is ended cleanly (default 64 MiB). */
  maxWatchBufferBytes?: number;
  /**
   * kube-apiserver's WatchList feature (default on, as on kube-apiserver 1.32 and 1.34 and later): streaming lists, a
   * watch with `sendInitialEvents`. `false` answers them as a server with the feature gate off does: 422 Invalid.
   */
  watchList?: boolean;
  /**
   * Simulated workload controllers (default on): StatefulSets, DaemonSets and ReplicaSets get Pods and report their
   * replicas ready after a delay on `clock`, Deployments roll out through ReplicaSets, Jobs complete. `false` turns them off (objects keep the
   * status clients write); an object configures the delays and failures (see docs/testing.md).
   */
  simulateWorkloads?: boolean | WorkloadSimulationOptions;
  /**
   * Turns RBAC authorization on: every resource request over HTTP is made as this user and evaluated against the
   * Roles, ClusterRoles and bindings stored in the server; what no rule allows is answered 403 Forbidden. Off by
   * default. Discovery is always allowed, and the direct methods (`create()`, `applyCrd()`...) bypass it, so a test
   * sets up its RBAC objects with them. See docs/testing.md for what it does not check.
   */
  authorization?: AuthorizationOptions;
  /**
   * Where the webhooks configured by Service reference listen (`clientConfig.service` of an admission or CRD
   * conversion webhook), by `<namespace>/<service name>`: the origin of the test's own webhook server, such as
   * `{ 'shop/shop-webhook': 'https://127.0.0.1:8443' }`. The call goes there with the configuration's path, and the
   * certificate is checked for `<name>.<namespace>.svc` against its `caBundle`, as kube-apiserver checks it. A
   * Service not named here is a failed call.
   */
  webhookServices?: Readonly<Record<string, string>>;
}

/** Filter of {@link TestApiServer.objects}. */
export interface ObjectFilter {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
}

/** Options of {@link TestApiServer.restart}. */
export interface RestartOptions {
  /** How long the port stays closed between stop and listen (default 0). */
  downtimeMs?: number;
}

/** A running test API server. */
export interface TestApiServer {
  /** `http://127.0.0.1:<port>` (or https with `tls`). */
  readonly url: string;
  /** A client-node KubeConfig for this server (no credentials, context namespace `default`). */
  readonly kubeConfig: KubeConfig;
  /** The same configuration as kubeconfig YAML, for kubectl or files. */
  readonly kubeconfigYaml: string;
  readonly faults: Faults;
  readonly requests: RequestCounter;
  /** Ends every watch, closes every socket and stops listening; after it the process can exit. Idempotent. */
  stop(): Promise<void>;
  /** A simulated API server restart: watches end, connections close, the same port listens again; state is kept. */
  restart(options?: RestartOptions): Promise<void>;
  /** Drops every object and CRD except the seeded namespaces, ends watches, clears fault rules and the request log. */
  reset(): void;
  /** Deep copies of the stored objects (at their storage version), sorted by kind, namespace and name. */
  objects(filter?: ObjectFilter): Record<string, unknown>[];
  /** Creates an object (namespace from metadata, default `default`); returns the stored object. */
  create(object: unknown): Record<string, unknown>;
  /** The object, or undefined when it does not exist. */
  get(apiVersion: string, kind: string, name: string, namespace?: string): Record<string, unknown> | undefined;
  /** Replaces an object (PUT rules, but without resourceVersion the update is unconditional for every kind). */
  update(object: unknown): Record<string, unknown>;
  /** Replaces the status of an object (PUT on `/status`). */
  updateStatus(object: unknown): Record<string, unknown>;
  /** Patches an object (merge patch by default). */
  patch(apiVersion: string, kind: string, name: string, patch: unknown, options?: DirectPatchOptions): Record<string, unknown>;
  /** Deletes an object; returns it as it is now (still present, with deletionTimestamp, when finalizers hold it). */
  delete(apiVersion: string, kind: string, name: string, namespace?: string, options?: DirectDeleteOptions): Record<string, unknown>;
  /** Creates or replaces a CustomResourceDefinition; its resources are servable when this returns. */
  applyCrd(crd: unknown): Record<string, unknown>;
  /** Number of open watches (for one plural resource when given). */
  watchCount(filter?: { resource?: string }): number;
  /** Resolves when the in-process controllers (garbage collector, namespace and CRD cleanup) have no work left. */
  settled(): Promise<void>;
}

const DEFAULT_NAMESPACES = ['default', 'kube-system', 'kube-public'];

class RunningTestApiServer implements TestApiServer {
  readonly faults: FaultInjector;
  readonly requests: RequestLog;
  private readonly direct: DirectAccess;
  private stopped = false;

  constructor(
    private readonly cluster: Cluster,
    private readonly listener: HttpListener,
    faults: FaultInjector,
    requests: RequestLog,
    private readonly seeds: readonly string[],
    private readonly simulator: WorkloadSimulator | undefined,
    manager: string,
    readonly url: string,
    readonly kubeConfig: KubeConfig,
    readonly kubeconfigYaml: string,
  ) {
    this.faults = faults;
    this.requests = requests;
    this.direct = new DirectAccess(cluster, manager);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.faults.clear();
    this.simulator?.cancel();
    this.cluster.hub.endAll();
    await this.listener.close();
  }

  async restart(options: RestartOptions = {}): Promise<void> {
    this.cluster.hub.endAll();
    await this.listener.close();
    if (options.downtimeMs !== undefined && options.downtimeMs > 0) await delay(options.downtimeMs);
    if (!this.stopped) await this.listener.listen(this.listener.port);
  }

  reset(): void {
    this.cluster.cancelDeferred();
    this.simulator?.cancel();
    this.cluster.hub.endAll();
    for (const type of this.cluster.registry.all()) if (!type.builtin) this.cluster.registry.remove(type.key);
    const kept = this.seeds.map((name) => this.cluster.store.get(NAMESPACES_KEY, '', name));
    this.cluster.store.clear();
    for (const record of kept) if (record !== undefined) this.cluster.store.put(NAMESPACES_KEY, record, undefined);
    seedNamespaces(this.cluster, this.seeds);
    this.cluster.history.compact(this.cluster.store.currentRevision);
    this.faults.clear();
    this.requests.reset();
  }

  objects(filter: ObjectFilter = {}): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    const wanted = filter.apiVersion === undefined ? undefined : splitApiVersion(filter.apiVersion);
    const types = this.cluster.registry.all().sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
    for (const type of types) {
      if (filter.kind !== undefined && type.kind !== filter.kind) continue;
      if (wanted !== undefined && (type.group !== wanted.group || !type.versions.some((v) => v.name === wanted.version))) continue;
      const apiVersion = filter.apiVersion ?? (type.group === '' ? type.storageVersion : `${type.group}/${type.storageVersion}`);
      for (const record of this.cluster.store.list(type.key, filter.namespace)) out.push(copyObject(record, apiVersion, type.kind));
    }
    return out;
  }

  create(object: unknown): KubeObject {
    return this.direct.create(object);
  }

  get(apiVersion: string, kind: string, name: string, namespace?: string): KubeObject | undefined {
    return this.direct.get(apiVersion, kind, name, namespace);
  }

  update(object: unknown): KubeObject {
    return this.direct.update(object);
  }

  updateStatus(object: unknown): KubeObject {
    return this.direct.update(object, 'status');
  }

  patch(apiVersion: string, kind: string, name: string, patch: unknown, options?: DirectPatchOptions): KubeObject {
    return this.direct.patch(apiVersion, kind, name, patch, options);
  }

  delete(apiVersion: string, kind: string, name: string, namespace?: string, options?: DirectDeleteOptions): KubeObject {
    return this.direct.delete(apiVersion, kind, name, namespace, options);
  }

  applyCrd(crd: unknown): KubeObject {
    return this.direct.applyCrd(crd);
  }

  watchCount(filter: { resource?: string } = {}): number {
    return this.cluster.hub.count(filter.resource === undefined ? {} : { resource: filter.resource });
  }

  async settled(): Promise<void> {
    for (let i = 0; i < 10_000 && this.cluster.busy; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Creates the seeded namespaces that do not exist. */
function seedNamespaces(cluster: Cluster, names: readonly string[]): void {
  const direct = new DirectAccess(cluster, 'kube-apiserver');
  for (const name of names) {
    if (cluster.store.get(NAMESPACES_KEY, '', name) === undefined) direct.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
}

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** The authorizer's read access to the stored RBAC objects. */
function rbacObjects(cluster: Cluster): { list: (plural: string, namespace?: string) => KubeObject[]; get: (plural: string, namespace: string, name: string) => KubeObject | undefined } {
  return {
    list: (plural, namespace) => cluster.store.list(`${RBAC_GROUP}/${plural}`, namespace).map((record) => record.object),
    get: (plural, namespace, name) => cluster.store.get(`${RBAC_GROUP}/${plural}`, namespace, name)?.object,
  };
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Starts a test API server listening on loopback. Stop it with `stop()` (e.g. in `after()`), or the open listener
 * keeps the process alive.
 */
export async function startTestApiServer(options: TestApiServerOptions = {}): Promise<TestApiServer> {
  const host = options.host ?? '127.0.0.1';
  const seeds = options.namespaces ?? DEFAULT_NAMESPACES;
  const cluster = new Cluster({ clock: options.clock ?? systemClock, historyWindow: options.historyWindow ?? 10_000, webhookServices: webhookServicesOf(options.webhookServices) });
  runCrdController(cluster);
  runNamespaceController(cluster);
  runGarbageCollector(cluster);
  runPvcProtection(cluster);
  const simulation = options.simulateWorkloads ?? true;
  const simulator = simulation === false ? undefined : runWorkloadSimulation(cluster, resolveSimulation(simulation === true ? {} : simulation));
  seedNamespaces(cluster, seeds);
  let server: RunningTestApiServer | undefined;
  const faults = new FaultInjector(cluster, Math.random, async (downtimeMs) => server?.restart({ downtimeMs }));
  const requests = new RequestLog(options.requestLogSize ?? 10_000);
  let address = '';
  const dispatcher = createDispatcher({
    cluster,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 1000,
    maxWatchBufferBytes: options.maxWatchBufferBytes ?? 64 * 1024 * 1024,
    watchList: options.watchList ?? true,
    faults,
    requests,
    serverAddress: () => address,
    logRequests: options.logRequests ?? false,
    authorizer: options.authorization === undefined ? undefined : new RbacAuthorizer(options.authorization, rbacObjects(cluster)),
  });
  const tls: TlsMaterial | undefined = options.tls === true ? await selfSignedCertificate() : undefined;
  const listener = new HttpListener(dispatcher, host, tls);
  await listener.listen(options.port ?? 0);
  address = `${urlHost(host)}:${listener.port}`;
  const url = `${tls === undefined ? 'http' : 'https'}://${address}`;
  const yaml = kubeconfigYaml(url, tls?.cert);
  const { KubeConfig: KubeConfigClass } = await import('@kubernetes/client-node');
  const kubeConfig = new KubeConfigClass();
  kubeConfig.loadFromString(yaml);
  server = new RunningTestApiServer(cluster, listener, faults, requests, seeds, simulator, options.fieldManager ?? 'katalog-testing', url, kubeConfig, yaml);
  return server;
}
