import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { RuntimeError } from '../../src/errors.js';
import { CrdHealth, dependenciesReason, missingCrdReason } from '../../src/observe/health.js';
import { FakeClock } from '../support/fake-clock.js';

function health(failureThreshold = 5): { clock: FakeClock; crd: CrdHealth } {
  const clock = new FakeClock();
  return { clock, crd: new CrdHealth({ name: 'website', failureThreshold, clock }) };
}

describe('states and transitions', () => {
  test('starts pending and becomes healthy when started, before any reconcile', () => {
    const { crd } = health();
    assert.equal(crd.state, 'pending');
    assert.equal(crd.started, false);
    assert.deepEqual(crd.markStarted(), { from: 'pending', to: 'healthy', event: undefined });
    assert.equal(crd.state, 'healthy');
    assert.equal(crd.pendingReason, undefined);
  });

  test('degrades at the threshold, reports it once, and recovers on the next success', () => {
    const { crd } = health(3);
    crd.markStarted();
    const events: Array<string | undefined> = [];
    events.push(crd.recordFailure(new Error('boom 1')).event);
    events.push(crd.recordFailure(new Error('boom 2')).event);
    assert.equal(crd.state, 'healthy', 'below the threshold a CRD stays healthy');
    const degraded = crd.recordFailure(new Error('boom 3'));
    assert.deepEqual(degraded, { from: 'healthy', to: 'degraded', event: 'degraded' });
    events.push(crd.recordFailure(new Error('boom 4')).event);
    assert.deepEqual(events, [undefined, undefined, undefined], 'degraded is reported once');
    assert.equal(crd.consecutiveFails, 4);
    assert.deepEqual(crd.recordSuccess(), { from: 'degraded', to: 'healthy', event: 'recovered' });
    assert.equal(crd.consecutiveFails, 0);
    assert.deepEqual(crd.recordSuccess(), { from: 'healthy', to: 'healthy', event: undefined });
  });

  test('a success resets the count of consecutive failures', () => {
    const { crd } = health(2);
    crd.markStarted();
    crd.recordFailure('one');
    crd.recordSuccess();
    assert.equal(crd.recordFailure('two').event, undefined);
    assert.equal(crd.state, 'healthy');
  });

  test('threshold 1 degrades on the first failure', () => {
    const { crd } = health(1);
    crd.markStarted();
    assert.equal(crd.recordFailure('x').event, 'degraded');
  });

  test('pending after deactivation; results recorded while pending do not change the state', () => {
    const { crd } = health(1);
    crd.markStarted();
    crd.recordFailure('x');
    assert.deepEqual(crd.markPending('waiting for CRD websites.example.io to be installed'), { from: 'degraded', to: 'pending', event: undefined });
    assert.equal(crd.recordSuccess().to, 'pending');
    assert.equal(crd.recordFailure('late').to, 'pending');
    assert.equal(crd.pendingReason, 'waiting for CRD websites.example.io to be installed');
    assert.deepEqual(crd.markStarted(), { from: 'pending', to: 'healthy', event: undefined });
    assert.equal(crd.consecutiveFails, 0, 'a fresh activation starts with no consecutive failures');
  });

  test('markStarted while started changes nothing and keeps the uptime', async () => {
    const { clock, crd } = health();
    crd.markStarted();
    await clock.advance(5000);
    assert.deepEqual(crd.markStarted(), { from: 'healthy', to: 'healthy', event: undefined });
    assert.equal(crd.uptime, '5s');
  });

  test('rejects a threshold that is not a positive integer', () => {
    const clock = new FakeClock();
    assert.throws(() => new CrdHealth({ name: 'website', failureThreshold: 0, clock }), RuntimeError);
  });
});

describe('errorRate', () => {
  test('is 0 with no reconciles and a fraction rounded to 4 decimals', () => {
    const { crd } = health(100);
    crd.markStarted();
    assert.equal(crd.errorRate, 0);
    crd.recordFailure('x');
    crd.recordSuccess();
    crd.recordSuccess();
    assert.equal(crd.errorRate, 0.3333);
  });

  test('looks only at the last 100 reconciles', () => {
    const { crd } = health(1000);
    crd.markStarted();
    for (let i = 0; i < 100; i++) crd.recordFailure('x');
    assert.equal(crd.errorRate, 1);
    for (let i = 0; i < 50; i++) crd.recordSuccess();
    assert.equal(crd.errorRate, 0.5);
    for (let i = 0; i < 100; i++) crd.recordSuccess();
    assert.equal(crd.errorRate, 0);
    assert.equal(crd.snapshot().totalReconciles, 250);
  });
});

describe('health records (SPEC §6)', () => {
  test('healthy record', async () => {
    const { clock, crd } = health();
    crd.markStarted();
    assert.deepEqual(crd.healthRecord(), {
      httpStatus: 200,
      body: { name: 'website', healthy: true, started: true, uptime: '0s', errorRate: 0, lastReconcile: null },
    });
    await clock.advance(303_900);
    crd.recordSuccess();
    assert.deepEqual(crd.healthRecord(), {
      httpStatus: 200,
      body: { name: 'website', healthy: true, started: true, uptime: '5m3s', errorRate: 0, lastReconcile: '2026-01-01T00:05:03.900Z' },
    });
    assert.deepEqual(Object.keys(crd.healthRecord().body), ['name', 'healthy', 'started', 'uptime', 'errorRate', 'lastReconcile']);
  });

  test('degraded record', () => {
    const { crd } = health();
    crd.markStarted();
    crd.recordSuccess();
    for (let i = 1; i <= 5; i++) crd.recordFailure(new Error(`failed to apply Deployment default/web-${i}: forbidden`));
    assert.deepEqual(crd.healthRecord(), {
      httpStatus: 503,
      body: {
        name: 'website',
        healthy: false,
        message: 'website degraded: 5 consecutive failures; last error: failed to apply Deployment default/web-5: forbidden',
        consecutiveFails: 5,
        errorRate: 0.8333,
        status: 503,
      },
    });
  });

  test('degraded record with one failure says "failure"', () => {
    const { crd } = health(1);
    crd.markStarted();
    crd.recordFailure('nope');
    const record = crd.healthRecord();
    assert.equal(record.httpStatus, 503);
    assert.equal('message' in record.body ? record.body.message : '', 'website degraded: 1 consecutive failure; last error: nope');
  });

  test('very long error messages are cut', () => {
    const { crd } = health(1);
    crd.markStarted();
    crd.recordFailure('x'.repeat(5000));
    assert.equal(crd.lastError?.length, 1000);
    assert.ok(crd.lastError?.endsWith('…'));
  });

  test('pending record, with the default and explicit reasons', () => {
    const { crd } = health();
    assert.deepEqual(crd.healthRecord(), {
      httpStatus: 503,
      body: { name: 'website', healthy: false, started: false, message: 'not started', status: 503 },
    });
    crd.markPending(dependenciesReason([{ name: 'database', condition: 'healthy' }, { name: 'cache', condition: 'started' }]));
    assert.deepEqual(crd.healthRecord().body, {
      name: 'website',
      healthy: false,
      started: false,
      message: 'waiting for dependencies: database (healthy), cache (started)',
      status: 503,
    });
  });

  test('pending reasons', () => {
    assert.equal(missingCrdReason({ plural: 'websites', group: 'example.io' }), 'waiting for CRD websites.example.io to be installed');
    assert.equal(missingCrdReason({ plural: 'configmaps', group: '' }), 'waiting for CRD configmaps to be installed');
  });

  test('uptime resets on re-activation and reads "0s" while pending', async () => {
    const { clock, crd } = health();
    crd.markStarted();
    await clock.advance(3_723_000);
    assert.equal(crd.uptime, '1h2m3s');
    crd.markPending('waiting');
    assert.equal(crd.uptime, '0s');
    assert.equal(crd.startedAt, null);
    await clock.advance(10_000);
    crd.markStarted();
    await clock.advance(1_999);
    assert.equal(crd.uptime, '1s');
    assert.equal(crd.snapshot().startedAt?.toISOString(), '2026-01-01T01:02:13.000Z');
  });

  test('snapshot carries every field the detail endpoint needs', () => {
    const { crd } = health();
    crd.markStarted();
    crd.recordFailure(new Error('boom'));
    const snap = crd.snapshot();
    assert.equal(snap.state, 'healthy');
    assert.equal(snap.lastError, 'boom');
    assert.equal(snap.consecutiveFails, 1);
    assert.equal(snap.failureThreshold, 5);
    assert.equal(snap.errorRate, 1);
    assert.equal(snap.lastReconcile?.toISOString(), '2026-01-01T00:00:00.000Z');
  });
});
