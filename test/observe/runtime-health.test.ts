import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { RuntimeHealth, readiness, type ReadinessInput } from '../../src/observe/runtime-health.js';
import { FakeClock } from '../support/fake-clock.js';

describe('liveness', () => {
  test('ok while starting and running, with uptime and startedAt', async () => {
    const clock = new FakeClock();
    const runtime = new RuntimeHealth(clock);
    assert.equal(runtime.status, 'starting');
    assert.deepEqual(runtime.liveness(), { httpStatus: 200, body: { status: 'ok', uptime: '0s', startedAt: '2026-01-01T00:00:00.000Z' } });
    runtime.markRunning();
    await clock.advance(303_500);
    assert.deepEqual(runtime.liveness(), { httpStatus: 200, body: { status: 'ok', uptime: '5m3s', startedAt: '2026-01-01T00:00:00.000Z' } });
  });

  test('503 while stopping and once stopped; markStarting restarts the clock', async () => {
    const clock = new FakeClock();
    const runtime = new RuntimeHealth(clock);
    runtime.markRunning();
    runtime.markStopping();
    assert.deepEqual(runtime.liveness(), { httpStatus: 503, body: { status: 'stopping' } });
    runtime.markStopped();
    assert.deepEqual(runtime.liveness(), { httpStatus: 503, body: { status: 'stopped' } });
    await clock.advance(60_000);
    runtime.markStarting();
    assert.deepEqual(runtime.liveness(), { httpStatus: 200, body: { status: 'ok', uptime: '0s', startedAt: '2026-01-01T00:01:00.000Z' } });
  });
});

describe('readiness', () => {
  const cases: Array<[string, ReadinessInput, ReturnType<typeof readiness>]> = [
    [
      'ready: every active CRD synced; pending and degraded CRDs do not block',
      {
        started: true,
        crds: [
          { name: 'website', state: 'healthy', synced: true },
          { name: 'database', state: 'degraded', synced: true },
          { name: 'cache', state: 'pending', synced: false },
        ],
      },
      { httpStatus: 200, body: { status: 'ready', crds: { website: 'healthy', database: 'degraded', cache: 'pending' } } },
    ],
    ['ready with no CRDs', { started: true, crds: [] }, { httpStatus: 200, body: { status: 'ready', crds: {} } }],
    [
      'not ready before start() resolved',
      { started: false, crds: [{ name: 'website', state: 'healthy', synced: true }] },
      { httpStatus: 503, body: { status: 'not ready', reasons: ['runtime has not finished starting'] } },
    ],
    [
      'not ready while an active CRD is not synced',
      {
        started: true,
        crds: [
          { name: 'website', state: 'healthy', synced: false },
          { name: 'database', state: 'degraded', synced: false },
        ],
      },
      { httpStatus: 503, body: { status: 'not ready', reasons: ['CRD website: cache not synced', 'CRD database: cache not synced'] } },
    ],
    [
      'not ready while stopping',
      { started: true, stopping: true, crds: [{ name: 'website', state: 'healthy', synced: true }] },
      { httpStatus: 503, body: { status: 'not ready', reasons: ['runtime is stopping'] } },
    ],
    [
      'not ready and saying stopped once stop() has resolved, as /health does',
      { started: false, stopping: true, stopped: true, crds: [{ name: 'website', state: 'pending', synced: false }] },
      { httpStatus: 503, body: { status: 'not ready', reasons: ['runtime is stopped'] } },
    ],
  ];
  for (const [label, input, expected] of cases) {
    test(label, () => assert.deepEqual(readiness(input), expected));
  }
});
