// The runtime's lifecycle against the test API server over real HTTP: late CRD activation in dependency order,
// deactivation, degraded and recovered, failure to start, and a clean stop.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import Type from 'typebox';
import { createRuntime } from '../../src/create-runtime.js';
import { RuntimeError } from '../../src/errors.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, crdObjectName, customResource, katalog, katalogEntry, waitFor } from '../support/cluster.js';

const ALPHA = { kind: 'Alpha', plural: 'alphas' };
const BETA = { kind: 'Beta', plural: 'betas' };
const GAMMA = { kind: 'Gamma', plural: 'gammas' };

describe('runtime lifecycle', () => {
  let server: TestApiServer;
  before(async () => {
    server = await startTestApiServer();
  });
  after(async () => {
    await server.stop();
  });

  test('a CRD installed after start() is active within a second, and its dependents follow in order', async () => {
    server.reset();
    const definition = katalog({
      gamma: katalogEntry(GAMMA, { dependsOn: ['beta'] }),
      beta: katalogEntry(BETA, { dependsOn: { alpha: 'healthy' } }),
      alpha: katalogEntry(ALPHA),
    });
    const seen: string[] = [];
    const runtime = createRuntime(definition, {
      kubeConfig: server.kubeConfig,
      watch: FAST_WATCH,
      crds: {
        alpha: { hooks: { onReconcile: () => undefined } },
      },
    });
    runtime.on('activated', ({ crd }) => void seen.push(crd));
    try {
      server.applyCrd(crdManifest(BETA));
      server.applyCrd(crdManifest(GAMMA));
      await runtime.start();
      assert.deepEqual(seen, [], 'nothing activates while alpha is missing');
      assert.equal(runtime.slot('alpha')?.health.state, 'pending');
      assert.match(runtime.slot('alpha')?.health.pendingReason ?? '', /waiting for CRD alphas\.example\.io to be installed/);
      assert.match(runtime.slot('beta')?.health.pendingReason ?? '', /waiting for dependencies: alpha \(healthy\)/);

      const installedAt = Date.now();
      server.applyCrd(crdManifest(ALPHA));
      await waitFor('all three active', () => seen.length === 3, 3000);
      const elapsed = Date.now() - installedAt;
      assert.ok(elapsed < 1000, `activated in ${elapsed}ms`);
      assert.deepEqual(seen, ['alpha', 'beta', 'gamma'], 'topological order');
      const metrics = await runtime.registry.metrics();
      assert.match(metrics, /controller_crd_activation_total\{crd="alpha",result="success"\} 1/);
    } finally {
      await runtime.stop();
    }
  });

  test('a deleted CRD is deactivated and pending, and comes back when reinstalled', async () => {
    server.reset();
    const events: string[] = [];
    const runtime = createRuntime(katalog({ alpha: katalogEntry(ALPHA) }), { kubeConfig: server.kubeConfig, watch: FAST_WATCH });
    runtime.on('activated', ({ crd }) => void events.push(`activated ${crd}`));
    runtime.on('deactivated', ({ crd }) => void events.push(`deactivated ${crd}`));
    server.applyCrd(crdManifest(ALPHA));
    await server.settled();
    await runtime.start();
    try {
      assert.equal(runtime.slot('alpha')?.health.state, 'healthy');
      server.delete('apiextensions.k8s.io/v1', 'CustomResourceDefinition', crdObjectName(ALPHA));
      await waitFor('alpha pending', () => runtime.slot('alpha')?.health.state === 'pending');
      assert.match(runtime.slot('alpha')?.health.pendingReason ?? '', /to be installed/);
      server.applyCrd(crdManifest(ALPHA));
      await waitFor('alpha healthy again', () => runtime.slot('alpha')?.health.state === 'healthy');
      assert.deepEqual(events, ['activated alpha', 'deactivated alpha', 'activated alpha']);
    } finally {
      await runtime.stop();
    }
  });

  test('a failing constructor degrades its CRD at the threshold and one success recovers it; metrics and events agree', async () => {
    server.reset();
    server.applyCrd(crdManifest(ALPHA));
    let failing = true;
    const events: string[] = [];
    const registry = new Registry();
    const definition = katalog({ alpha: katalogEntry(ALPHA, { queue: { failureThreshold: 3 }, operatorBox: { default: false, constructor: { function: 'NewAlpha' } } }) });
    const runtime = createRuntime(definition, {
      kubeConfig: server.kubeConfig,
      watch: FAST_WATCH,
      registry,
      rateLimiter: { baseDelay: 1, maxDelay: 20 },
      constructors: {
        NewAlpha: () => ({
          reconcile: () => {
            if (failing) throw new Error('backend unreachable');
            return undefined;
          },
        }),
      },
    });
    runtime.on('degraded', ({ crd, consecutiveFails, error }) => void events.push(`degraded ${crd} ${consecutiveFails} ${error.message}`));
    runtime.on('recovered', ({ crd }) => void events.push(`recovered ${crd}`));
    await runtime.start();
    try {
      server.create(customResource(ALPHA, 'one'));
      await waitFor('degraded', () => runtime.slot('alpha')?.health.state === 'degraded');
      assert.deepEqual(events, ['degraded alpha 3 backend unreachable']);
      const record = runtime.slot('alpha')?.health.healthRecord();
      assert.equal(record?.httpStatus, 503);
      assert.match(JSON.stringify(record?.body), /alpha degraded: \d+ consecutive failures; last error: backend unreachable/);
      failing = false;
      await waitFor('recovered', () => runtime.slot('alpha')?.health.state === 'healthy', 3000);
      assert.deepEqual(events.at(-1), 'recovered alpha');
      const text = await registry.metrics();
      const errors = Number(/controller_reconcile_total\{crd="alpha",result="error"\} (\d+)/.exec(text)?.[1]);
      const successes = Number(/controller_reconcile_total\{crd="alpha",result="success"\} (\d+)/.exec(text)?.[1]);
      assert.ok(errors >= 3, `errors counted: ${errors}`);
      assert.ok(successes >= 1, `successes counted: ${successes}`);
      assert.equal(runtime.slot('alpha')?.health.snapshot().totalReconciles, errors + successes);
      // The Ready condition follows: False while failing, True after recovery.
      const live = await waitFor('Ready True', () => {
        const object = server.get('example.io/v1', 'Alpha', 'one', 'default') as { status?: { conditions?: Array<{ type: string; status: string }> } } | undefined;
        return object?.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True') ? object : undefined;
      });
      assert.ok(live);
    } finally {
      await runtime.stop();
    }
  });

  test('start() rejects clearly when the API server is unreachable, and leaves nothing running', async () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromClusterAndUser({ name: 'gone', server: 'http://127.0.0.1:9', skipTLSVerify: true }, { name: 'nobody' });
    const runtime = createRuntime(katalog({ alpha: katalogEntry(ALPHA) }), { kubeConfig, watch: FAST_WATCH });
    await assert.rejects(runtime.start(), (error: unknown) => {
      assert.ok(error instanceof RuntimeError);
      assert.match(error.message, /listing CustomResourceDefinitions on http:\/\/127\.0\.0\.1:9 failed/);
      return true;
    });
    assert.equal(runtime.state, 'stopped');
  });

  test('start() refuses, naming them, hooks and constructors that no code registered', async () => {
    const definition = katalog({
      alpha: katalogEntry(ALPHA, { operatorBox: { hooks: { function: 'AlphaHooks' } } }),
      beta: katalogEntry(BETA, { operatorBox: { default: false, constructor: { function: 'NewBeta' } } }),
    });
    const runtime = createRuntime(definition, { kubeConfig: server.kubeConfig });
    await assert.rejects(runtime.start(), /hooks "AlphaHooks" are not registered[\s\S]*constructor "NewBeta" is not registered/);
  });

  test('keys refused by a full queue are counted, and offered again once it drains rather than at the next resync', async () => {
    server.reset();
    server.applyCrd(crdManifest(ALPHA));
    await server.settled();
    for (let i = 0; i < 60; i++) server.create(customResource(ALPHA, `a${i}`));
    const seen = new Set<string>();
    const definition = katalog({ alpha: katalogEntry(ALPHA, { workers: 1, queue: { maxDepth: 10 }, operatorBox: { default: false, constructor: { function: 'NewAlpha' } } }) });
    const runtime = createRuntime(definition, {
      kubeConfig: server.kubeConfig,
      watch: FAST_WATCH,
      constructors: { NewAlpha: () => ({ reconcile: (request) => void seen.add(request.key) }) },
    });
    await runtime.start();
    try {
      await waitFor('all 60 reconciled', () => seen.size === 60);
      const dropped = Number(/controller_queue_dropped_total\{crd="alpha"\} (\d+)/.exec(await runtime.registry.metrics())?.[1]);
      assert.ok(dropped >= 50, `dropped ${dropped}`);
    } finally {
      await runtime.stop();
    }
  });

  test('stop() is idempotent and emits the shutdown metrics', async () => {
    server.reset();
    server.applyCrd(crdManifest(ALPHA));
    const runtime = createRuntime(katalog({ alpha: katalogEntry(ALPHA, { workers: 3 }) }), { kubeConfig: server.kubeConfig, watch: FAST_WATCH });
    await server.settled();
    await runtime.start();
    assert.match(await runtime.registry.metrics(), /controller_workers_max\{crd="alpha"\} 3/);
    await Promise.all([runtime.stop(), runtime.stop()]);
    await runtime.stop();
    const text = await runtime.registry.metrics();
    assert.match(text, /controller_crd_shutdown_total\{crd="alpha"\} 1/);
    assert.match(text, /controller_workers_active\{crd="alpha"\} 0/);
    assert.match(text, /controller_queue_depth\{crd="alpha"\} 0/);
    assert.equal(runtime.state, 'stopped');
    // Once stop() has resolved, both probes say the same thing.
    const [health, ready] = await Promise.all(['/health', '/ready'].map(async (path) => (await runtime.router.request(path)).json()));
    assert.deepEqual([health, ready], [{ status: 'stopped' }, { status: 'not ready', reasons: ['runtime is stopped'] }]);
    // The server sees the client's sockets close a moment later.
    await waitFor('no watch left open', () => server.watchCount() === 0, 2000);
  });
});

describe('typed mode', () => {
  let server: TestApiServer;
  before(async () => {
    server = await startTestApiServer();
    server.applyCrd(crdManifest(ALPHA));
    await server.settled();
  });
  after(async () => {
    await server.stop();
  });

  test('a registered schema validates every object: a mismatch fails its reconcile with what is wrong; the mode reads typed', async () => {
    const seen: string[] = [];
    const runtime = createRuntime(katalog({ alpha: katalogEntry(ALPHA, { mode: 'typed', operatorBox: { default: false, constructor: { function: 'NewAlpha' } } }) }), {
      kubeConfig: server.kubeConfig,
      watch: FAST_WATCH,
      constructors: { NewAlpha: () => ({ reconcile: (request) => void seen.push(request.key) }) },
    });
    await assert.rejects(runtime.start(), /CRD alpha: mode is typed but no schema is registered/);

    const typed = createRuntime(katalog({ alpha: katalogEntry(ALPHA, { mode: 'typed', operatorBox: { default: false, constructor: { function: 'NewAlpha' } } }) }), {
      kubeConfig: server.kubeConfig,
      watch: FAST_WATCH,
      constructors: { NewAlpha: () => ({ reconcile: (request) => void seen.push(request.key) }) },
    });
    typed.registerSchema('alpha', Type.Object({ spec: Type.Object({ replicas: Type.Integer({ minimum: 0 }) }) }));
    assert.equal(typed.modeOf('alpha'), 'typed');
    await typed.start();
    try {
      server.create(customResource(ALPHA, 'good', { replicas: 2 }));
      server.create(customResource(ALPHA, 'bad', { replicas: 'two' }));
      await waitFor('good reconciled', () => seen.includes('default/good'));
      const ready = await waitFor('bad has Ready False', () => {
        const object = server.get('example.io/v1', 'Alpha', 'bad', 'default') as { status?: { conditions?: Array<{ type: string; status: string; message: string }> } } | undefined;
        return object?.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'False');
      });
      assert.match(ready.message, /Alpha default\/bad does not match the schema registered for CRD alpha: \/spec\/replicas: must be integer/);
      assert.ok(!seen.includes('default/bad'), 'the reconciler saw an object that does not match its schema');
      const detail = (await (await typed.router.request('/katalog/alpha')).json()) as { mode: string };
      assert.equal(detail.mode, 'typed');
      // A schema registered in code makes a CRD typed even when the definition does not say so.
      const undeclared = createRuntime(katalog({ alpha: katalogEntry(ALPHA) }), { kubeConfig: server.kubeConfig });
      undeclared.registerSchema('alpha', Type.Object({}));
      const summary = (await (await undeclared.router.request('/katalog')).json()) as { crds: Array<{ mode: string }> };
      assert.equal(summary.crds[0]?.mode, 'typed');
    } finally {
      await typed.stop();
    }
  });
});
