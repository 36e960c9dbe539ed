// start() with many CRDs activates them at once (bounded), after their dependencies: a slow CRD does not delay the
// others, a failing one neither holds them up nor loses them, and dependency order still holds. Real HTTP against
// the test API server; the order of the `activated` events is what is asserted, not durations.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { RuntimeError } from '../../src/errors.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, katalog, katalogEntry, waitFor, type CrdSpec } from '../support/cluster.js';

const spec = (name: string): CrdSpec => ({ kind: `${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`, plural: `${name}s` });
const NAMES = ['slow', 'after', 'one', 'two', 'three', 'four', 'five'];

describe('start() with many CRDs', () => {
  let server: TestApiServer;
  before(async () => {
    server = await startTestApiServer();
  });
  after(async () => {
    await server.stop();
  });

  test('a slow CRD does not delay the CRDs that do not depend on it; its dependent still waits for it', async () => {
    server.reset();
    for (const name of NAMES) server.applyCrd(crdManifest(spec(name)));
    await server.settled();
    // `slow` comes first in start order; `after` depends on it. One after another, everything would wait for slow.
    const entries = Object.fromEntries(NAMES.map((name) => [name, katalogEntry(spec(name), name === 'after' ? { dependsOn: ['slow'] } : {})]));
    const runtime = createRuntime(katalog(entries), { kubeConfig: server.kubeConfig, watch: FAST_WATCH });
    const seen: string[] = [];
    runtime.on('activated', ({ crd }) => void seen.push(crd));
    const removeLatency = server.faults.latency({ verb: 'list', resource: 'slows', ms: 2500 });
    try {
      await runtime.start();
      assert.equal(seen.length, NAMES.length, `every CRD active when start() resolves: ${seen.join(', ')}`);
      assert.deepEqual(seen.slice(-2), ['slow', 'after'], `the slow CRD and its dependent activate last: ${seen.join(', ')}`);
      for (const name of NAMES) assert.equal(runtime.slot(name)?.phase, 'active', name);
    } finally {
      removeLatency();
      await runtime.stop();
    }
  });

  test('no reconcile runs while other CRDs are still listing: the workers start once every first list is in', async () => {
    server.reset();
    for (const name of ['slow', 'one']) server.applyCrd(crdManifest(spec(name)));
    await server.settled();
    server.create({ apiVersion: 'example.io/v1', kind: 'One', metadata: { name: 'present', namespace: 'default' } });
    const runtime = createRuntime(katalog({ slow: katalogEntry(spec('slow')), one: katalogEntry(spec('one')) }), { kubeConfig: server.kubeConfig, watch: FAST_WATCH });
    const events: string[] = [];
    runtime.on('activated', ({ crd }) => void events.push(`activated ${crd}`));
    runtime.on('reconciled', ({ crd }) => void events.push(`reconciled ${crd}`));
    const removeLatency = server.faults.latency({ verb: 'list', resource: 'slows', ms: 1000 });
    try {
      await runtime.start();
      await waitFor('the One reconciled', () => events.includes('reconciled one'));
      assert.deepEqual(events.slice(0, 3), ['activated one', 'activated slow', 'reconciled one'], events.join(', '));
    } finally {
      removeLatency();
      await runtime.stop();
    }
  });

  test('stopping a runtime with many CRDs prints no MaxListenersExceededWarning (they share one drain deadline)', async () => {
    server.reset();
    const many = Array.from({ length: 12 }, (_, i) => `many${i}`);
    for (const name of many) server.applyCrd(crdManifest(spec(name)));
    await server.settled();
    const runtime = createRuntime(katalog(Object.fromEntries(many.map((name) => [name, katalogEntry(spec(name))]))), { kubeConfig: server.kubeConfig, watch: FAST_WATCH });
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      await runtime.start();
      await runtime.stop();
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      assert.deepEqual(warnings.filter((warning) => warning.includes('MaxListeners')), []);
    } finally {
      process.off('warning', onWarning);
      await runtime.stop();
    }
  });

  test('a CRD whose first list fails neither holds up nor loses the others: they activate, then start() rejects naming it and stops them', async () => {
    server.reset();
    for (const name of NAMES) server.applyCrd(crdManifest(spec(name)));
    await server.settled();
    const entries = Object.fromEntries(NAMES.filter((name) => name !== 'after').map((name) => [name, katalogEntry(spec(name))]));
    const runtime = createRuntime(katalog(entries), { kubeConfig: server.kubeConfig, watch: FAST_WATCH });
    const events: string[] = [];
    runtime.on('activated', ({ crd }) => void events.push(`activated ${crd}`));
    runtime.on('deactivated', ({ crd }) => void events.push(`deactivated ${crd}`));
    server.faults.failRequests({ verb: 'list', resource: 'slows', status: 500 });
    try {
      await assert.rejects(runtime.start(), (error: unknown) => {
        assert.ok(error instanceof RuntimeError);
        assert.equal(error.code, 'E_START');
        assert.match(error.message, /cannot start CRD slow/);
        return true;
      });
      const others = NAMES.filter((name) => name !== 'after' && name !== 'slow');
      // The failing CRD is first in start order: one after another, none of the others would have been tried.
      assert.deepEqual(events.filter((event) => event.startsWith('activated')).sort(), others.map((name) => `activated ${name}`).sort());
      assert.deepEqual(events.filter((event) => event.startsWith('deactivated')).sort(), others.map((name) => `deactivated ${name}`).sort(), 'stopped, not left running');
      assert.equal(runtime.state, 'stopped');
    } finally {
      server.faults.clear();
      await runtime.stop();
    }
  });
  const withChild = (name: string): Record<string, unknown> =>
    katalogEntry(spec(name), { operatorBox: { onCreate: { configMaps: [{ name: '{{ .metadata.name }}', data: { from: 'katalog' } }] } } });

  test("a CRD's children and its custom resources are listed at once, and its first reconcile still sees the children", async () => {
    server.reset();
    server.applyCrd(crdManifest(spec('one')));
    await server.settled();
    server.create({ apiVersion: 'example.io/v1', kind: 'One', metadata: { name: 'present', namespace: 'default' } });
    const runtime = createRuntime(katalog({ one: withChild('one') }), { kubeConfig: server.kubeConfig, watch: FAST_WATCH });
    // The children's list answers late: one after the other, the custom resources would be listed only after it.
    const removeLatency = server.faults.latency({ verb: 'list', resource: 'configmaps', ms: 3000 });
    try {
      server.requests.reset();
      await runtime.start();
      const lists = server.requests.log().filter((request) => request.verb === 'list').map((request) => request.resource);
      assert.deepEqual(lists, ['customresourcedefinitions', 'ones', 'configmaps'], 'the custom resources answered while the children were still listing');
      await waitFor('the child ConfigMap', () => server.get('v1', 'ConfigMap', 'present', 'default'));
      const writes = server.requests.log().filter((request) => request.resource === 'configmaps' && request.verb !== 'list' && request.verb !== 'watch');
      assert.deepEqual(writes.map((request) => `${request.verb} ${request.status}`), ['create 201'], 'one write of the child, none refused: the reconcile ran on a filled children cache');
    } finally {
      removeLatency();
      await runtime.stop();
    }
  });

  test("a CRD whose children's first list fails: start() rejects naming it, and the custom resources' watch is stopped too", async () => {
    server.reset();
    server.applyCrd(crdManifest(spec('one')));
    await server.settled();
    const runtime = createRuntime(katalog({ one: withChild('one') }), { kubeConfig: server.kubeConfig, watch: FAST_WATCH });
    server.faults.failRequests({ verb: 'list', resource: 'configmaps', status: 500 });
    try {
      await assert.rejects(runtime.start(), (error: unknown) => error instanceof RuntimeError && error.code === 'E_START' && /cannot start CRD one/.test(error.message));
      assert.equal(runtime.state, 'stopped');
      await waitFor('no watch left open', () => server.watchCount() === 0);
    } finally {
      server.faults.clear();
      await runtime.stop();
    }
  });
});
