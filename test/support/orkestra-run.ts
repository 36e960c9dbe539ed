// Shared setup of the Orkestra runs: one test API server and one runtime per `describe`, on a definition loaded
// from the corpus (or parsed from text); CRDs without a crdFile are created from their apiTypes, the rest the
// runtime installs from their files. Everything is stopped after the describe, so the process can exit.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { loadDefinition } from '../../src/definition/index.js';
import type { Definition } from '../../src/definition/types.js';
import type { ConstructorFactory, Hooks } from '../../src/operatorbox/types.js';
import type { RuntimeOptions } from '../../src/options.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer, type TestApiServerOptions } from '../../src/testing/index.js';
import { FAST_WATCH } from './cluster.js';

export type Obj = Record<string, unknown> & { metadata?: Record<string, unknown>; spec?: Record<string, unknown>; status?: Record<string, unknown> };

export const CORPUS = 'test/fixtures/orkestra';

export interface RunOptions {
  /** Hooks and constructors by the name the definition gives them, registered as a host would. */
  readonly hooks?: Readonly<Record<string, Hooks>>;
  /** Constructors by the name the definition gives them. */
  readonly constructors?: Readonly<Record<string, ConstructorFactory>>;
  /** More runtime options (merged over the fast test defaults). */
  readonly runtime?: Partial<RuntimeOptions>;
  /** Options of the test API server. */
  readonly server?: TestApiServerOptions;
}

/** Starts a server and a runtime on the definition `load` gives, before the enclosing describe's tests; stops both after. */
export function runningDefinition(load: () => Promise<Definition>, options: RunOptions = {}): () => TestApiServer {
  let server: TestApiServer | undefined;
  let runtime: Runtime | undefined;
  before(async () => {
    server = await startTestApiServer(options.server);
    const definition = await load();
    for (const crd of definition.crds.values()) {
      if (crd.crdFile !== undefined || crd.apiTypes.builtIn) continue;
      const { group, kind, plural, scope, version } = crd.apiTypes;
      server.create(crdManifest({ group, kind, plural, scope, versions: [{ name: version, served: true, storage: true, status: true }] }));
    }
    runtime = createRuntime(definition, {
      kubeConfig: server.kubeConfig,
      watch: FAST_WATCH,
      installCrds: true,
      rateLimiter: { baseDelay: 5, maxDelay: 200 },
      ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
      ...(options.constructors === undefined ? {} : { constructors: options.constructors }),
      ...options.runtime,
    });
    await runtime.start();
  });
  after(async () => {
    await runtime?.stop();
    await server?.stop();
  });
  return () => server ?? assert.fail('no test API server');
}

/** {@link runningDefinition} on one corpus file; also gives the loaded definition. */
export function running(file: string, options: RunOptions = {}): { server: () => TestApiServer; definition: () => Definition } {
  let definition: Definition | undefined;
  const server = runningDefinition(async () => (definition = await loadDefinition(`${CORPUS}/${file}`)), options);
  return { server, definition: () => definition ?? assert.fail('no definition') };
}

/** A custom resource of the definition's CRD `crd` (default: its first). */
export function cr(definition: Definition, name: string, spec: Record<string, unknown>, namespace = 'default', crd?: string): Record<string, unknown> {
  const chosen = crd === undefined ? [...definition.crds.values()][0] : definition.crds.get(crd);
  assert.ok(chosen, `CRD ${crd ?? '(first)'}`);
  const { group, version, kind } = chosen.apiTypes;
  return { apiVersion: group === '' ? version : `${group}/${version}`, kind, metadata: { name, namespace }, spec };
}

/** The API version of the definition's CRD `crd`. */
export function apiVersionOf(definition: Definition, crd: string): string {
  const chosen = definition.crds.get(crd);
  assert.ok(chosen, `CRD ${crd}`);
  return `${chosen.apiTypes.group}/${chosen.apiTypes.version}`;
}
