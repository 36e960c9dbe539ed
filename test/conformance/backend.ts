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
   * Makes old resourceVersions expire. In-process: a compaction (fault injection). kube-apiserver: nothing to do,
   * since a resourceVersion older than its watch cache (any from before the server started, such as "1") is expired.
   */
  expireHistory(): void;
  stop(): Promise<void>;
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
      expireHistory: () => undefined,
      stop: () => server.stop(),
    };
  }
  if (choice !== 'in-process') throw new Error(`KATALOG_CONFORMANCE_BACKEND must be in-process or kube-apiserver, not ${choice}`);
  const server = await startTestApiServer();
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
    expireHistory: () => server.faults.expireResourceVersions(),
    stop: () => server.stop(),
  };
}

let counter = 0;
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
