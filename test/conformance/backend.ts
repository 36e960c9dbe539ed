// The server a conformance test runs against: the in-process test API server (default) or a real kube-apiserver
// with etcd, chosen by KATALOG_CONFORMANCE_BACKEND=kube-apiserver (binaries from KUBEBUILDER_ASSETS). Both are seen
// through the same asynchronous calls, so every test holds the same assertions for both.
import type { KubeConfig } from '@kubernetes/client-node';
import { startKubeApiServer, startTestApiServer, type DirectPatchOptions } from '../../src/testing/index.js';

export type Json = Record<string, unknown> & { metadata?: Record<string, unknown>; spec?: Record<string, unknown>; status?: Record<string, unknown>; data?: Record<string, unknown> };

export interface Backend {
  readonly name: 'in-process' | 'kube-apiserver';
  readonly kubeConfig: KubeConfig;
  applyCrd(crd: unknown): Promise<Json>;
  create(object: unknown): Promise<Json>;
  get(apiVersion: string, kind: string, name: string, namespace?: string): Promise<Json | undefined>;
  update(object: unknown): Promise<Json>;
  updateStatus(object: unknown): Promise<Json>;
  patch(apiVersion: string, kind: string, name: string, patch: unknown, options?: DirectPatchOptions): Promise<Json>;
  delete(apiVersion: string, kind: string, name: string, namespace?: string): Promise<void>;
  /**
   * Makes every resourceVersion handed out so far expire, and ends every open watch, as an API server restart does
   * in a cluster. In-process: a compaction and a clean end of the watches (fault injection). kube-apiserver: etcd is
   * compacted to its current revision (lists and continue tokens from older revisions get 410 from etcd), then
   * kube-apiserver restarts: its watch caches start again from etcd's current revision, and a watch from an older
   * resourceVersion gets 410 "too old resource version" (a watch is always served by the watch cache, never by etcd,
   * so compacting etcd alone does not expire a watch; docs/testing.md, "Differences found").
   */
  expireHistory(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Test options for a behaviour of kube-apiserver the in-process server does not have yet: on kube-apiserver the test
 * runs as any other; in-process it is a `todo` (run and reported, not failing the suite). docs/testing.md lists them.
 */
export function notYetInProcess(what: string): { todo?: string } {
  return (process.env['KATALOG_CONFORMANCE_BACKEND'] ?? 'in-process') === 'in-process' ? { todo: `not yet in the in-process server: ${what}` } : {};
}

export async function startBackend(env: NodeJS.ProcessEnv): Promise<Backend> {
  const choice = env['KATALOG_CONFORMANCE_BACKEND'] ?? 'in-process';
  if (choice === 'kube-apiserver') {
    const assets = env['KUBEBUILDER_ASSETS'];
    if (assets === undefined || assets === '') throw new Error('KATALOG_CONFORMANCE_BACKEND=kube-apiserver needs KUBEBUILDER_ASSETS (run scripts/ci-conformance.sh, which builds them)');
    const server = await startKubeApiServer({ assets, startTimeoutMs: 300_000 });
    return {
      name: 'kube-apiserver',
      kubeConfig: server.kubeConfig,
      applyCrd: (crd) => server.applyCrd(crd),
      create: (object) => server.create(object),
      get: (...args) => server.get(...args),
      update: (object) => server.update(object),
      updateStatus: (object) => server.updateStatus(object),
      patch: (...args) => server.patch(...args),
      delete: async (...args) => void (await server.delete(...args)),
      expireHistory: async () => {
        await compactEtcd(server.etcdUrl);
        await server.restart();
      },
      stop: () => server.stop(),
    };
  }
  if (choice !== 'in-process') throw new Error(`KATALOG_CONFORMANCE_BACKEND must be in-process or kube-apiserver, not ${choice}`);
  // kube-apiserver runs here without kube-controller-manager: nothing writes a workload's status there either.
  const server = await startTestApiServer({ simulateWorkloads: false });
  let expiries = 0;
  // Writes go through the server's own operations; settled() lets its CRD and namespace controllers catch up, as
  // applyCrd on the real server waits until the resource is served.
  return {
    name: 'in-process',
    kubeConfig: server.kubeConfig,
    applyCrd: async (crd) => {
      const out = server.applyCrd(crd);
      await server.settled();
      return out;
    },
    create: async (object) => server.create(object),
    get: async (...args) => server.get(...args),
    update: async (object) => server.update(object),
    updateStatus: async (object) => server.updateStatus(object),
    patch: async (...args) => server.patch(...args),
    delete: async (...args) => void server.delete(...args),
    expireHistory: async () => {
      // A write first, so that the compaction passes every resourceVersion handed out so far (the real backend's
      // restart moves etcd's revision the same way).
      expiries += 1;
      server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `expire-history-${expiries}`, namespace: 'kube-system' } });
      server.faults.expireResourceVersions();
      server.faults.closeWatches();
    },
    stop: () => server.stop(),
  };
}

/** Compacts etcd to its current revision through its JSON gateway, as kube-apiserver's compactor does every 5 minutes. */
async function compactEtcd(etcdUrl: string): Promise<void> {
  const status = await fetch(`${etcdUrl}/v3/maintenance/status`, { method: 'POST', body: '{}' });
  const revision = ((await status.json()) as { header?: { revision?: string } }).header?.revision;
  if (revision === undefined) throw new Error(`etcd at ${etcdUrl} did not report its revision`);
  const compaction = await fetch(`${etcdUrl}/v3/kv/compaction`, { method: 'POST', body: JSON.stringify({ revision, physical: true }) });
  if (compaction.status !== 200) throw new Error(`etcd compaction at ${revision} failed: ${compaction.status} ${await compaction.text()}`);
}

let counter = 0;
/** A review's or object's JSON text with what differs between servers and runs (uids, times, the user) as `~`. */
export function masked(text: string): string {
  return text
    .replace(/"uid":"[0-9a-f-]{36}"/g, '"uid":"~"')
    .replace(/"(creationTimestamp|time)":"[0-9TZ:-]+"/g, '"$1":"~"')
    .replace(/"resourceVersion":"\d+"/g, '"resourceVersion":"~"')
    .replace(/"userInfo":\{[^}]*\}/, '"userInfo":"~"');
}

/** A name no other test of this run uses (the real server is shared by every test and never reset). */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}-${process.pid}`;
}

/** Polls `check` every 20 ms until it returns a value other than undefined/false; fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs}ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
