// Shared pieces of integration tests: a CRD factory, custom resources, and waiting for a condition.
import { crdManifest as publicCrdManifest, type TestApiServer } from '../../src/testing/index.js';

export interface CrdSpec {
  readonly group?: string;
  readonly kind: string;
  readonly plural: string;
  readonly versions?: ReadonlyArray<{ readonly name: string; readonly served?: boolean; readonly storage?: boolean; readonly status?: boolean }>;
  readonly scope?: 'Namespaced' | 'Cluster';
}

/** A CustomResourceDefinition manifest with an open schema, in group `example.io` unless told otherwise. */
export function crdManifest(spec: CrdSpec): Record<string, unknown> {
  const versions = spec.versions ?? [{ name: 'v1', served: true, storage: true, status: true }];
  return publicCrdManifest({ ...spec, group: spec.group ?? 'example.io', versions: versions.map((v) => ({ ...v, storage: v.storage ?? false })) });
}

/** A Katalog entry for a CRD made by {@link crdManifest}. */
export function katalogEntry(spec: CrdSpec, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const versions = spec.versions ?? [{ name: 'v1' }];
  return {
    apiTypes: { group: spec.group ?? 'example.io', version: versions[0]?.name ?? 'v1', kind: spec.kind, plural: spec.plural },
    ...extra,
  };
}

export function katalog(crds: Record<string, Record<string, unknown>>, name = 'test'): Record<string, unknown> {
  return { apiVersion: 'katalog.dev/v1', kind: 'Katalog', metadata: { name }, spec: { crds } };
}

export function customResource(spec: CrdSpec, name: string, body: Record<string, unknown> = {}, namespace = 'default'): Record<string, unknown> {
  const version = spec.versions?.find((v) => v.storage === true)?.name ?? spec.versions?.[0]?.name ?? 'v1';
  return {
    apiVersion: `${spec.group ?? 'example.io'}/${version}`,
    kind: spec.kind,
    metadata: { name, namespace },
    spec: body,
  };
}

/** Polls `check` every 10 ms until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs}ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Resolves once `count()` has not changed for `quietMs` (a runtime that has stopped writing, say). */
export async function quietFor(count: () => number, quietMs = 400): Promise<void> {
  let last = count();
  let since = Date.now();
  await waitFor('the runtime to go quiet', () => {
    if (count() !== last) [last, since] = [count(), Date.now()];
    return Date.now() - since >= quietMs;
  });
}

/** Watch tuning that keeps integration tests quick. */
export const FAST_WATCH = { backoff: { initial: 20, max: 200 } } as const;

export function crdObjectName(spec: CrdSpec): string {
  return `${spec.plural}.${spec.group ?? 'example.io'}`;
}

export type { TestApiServer };
