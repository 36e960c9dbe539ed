// A call's own retryBackoff, sleep and fires.reconcile: false, run against a local HTTP service (127.0.0.1) with
// the waits on a fake clock: a failed call is made again after initial, ×multiplier, up to maxAttempts, each retry
// counted; it fails with its last attempt's reason; sleep holds the request back until its time; an aborted
// reconcile ends any wait at once with nothing left scheduled; an admission-only call is not made at reconcile.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/load.js';
import type { ExternalCall } from '../../src/definition/types.js';
import { ExternalCallError, ExternalCalls, type ExternalResult } from '../../src/operatorbox/external-calls.js';
import { templateData } from '../../src/operatorbox/template-data.js';
import type { TimerHandle } from '../../src/util/clock.js';
import { FakeClock, flushMicrotasks } from '../support/fake-clock.js';
import { localServer } from '../support/local-server.js';

/** A fake clock that remembers every wait asked of it. */
class RecordingClock extends FakeClock {
  readonly waits: number[] = [];
  override setTimeout(fn: () => void, ms: number): TimerHandle {
    this.waits.push(ms);
    return super.setTimeout(fn, ms);
  }
}

const hits: string[] = [];
let failures = 0;
const service = localServer((req, res) => {
  hits.push(req.url ?? '');
  if (failures > 0) {
    failures -= 1;
    res.writeHead(503).end('busy');
    return;
  }
  res.writeHead(200).end('ok');
});
let base = '';
before(async () => {
  base = `http://127.0.0.1:${await service.start()}`;
});
after(() => service.stop());

function calls(yaml: string): readonly ExternalCall[] {
  return (
    parseDefinition(`apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: t }
spec:
  crds:
    thing:
      apiTypes: { group: demo.io, version: v1, kind: Thing, plural: things }
      operatorBox:
        external:
${yaml.replaceAll('BASE', base)}`).crds.get('thing')?.operatorBox.external ?? []
  );
}

const object = { apiVersion: 'demo.io/v1', kind: 'Thing', metadata: { name: 'a', namespace: 'ns' }, spec: {} };

function runner(list: readonly ExternalCall[], clock: FakeClock, retried: string[] = []): ExternalCalls {
  return new ExternalCalls({ name: 'external', calls: list, readSecret: () => Promise.resolve(undefined), now: () => clock.now(), clock, onRetry: (call) => retried.push(call) });
}

/** Runs the calls, moving the fake clock on whenever a wait is scheduled and no request is in flight. */
async function drive(run: Promise<Record<string, ExternalResult>>, clock: RecordingClock): Promise<Record<string, ExternalResult>> {
  let settled = false;
  const done = run.finally(() => {
    settled = true;
  });
  done.catch(() => undefined);
  const deadline = Date.now() + 20_000;
  while (!settled && Date.now() < deadline) {
    // Time moves only here, so the one pending wait was scheduled now and is due after the last wait asked.
    if (clock.pending > 0) await clock.advance(clock.waits.at(-1) ?? 1);
    else await flushMicrotasks();
  }
  return done;
}

describe('external call retries, sleep and fires', () => {
  test('retryBackoff: two failures then a success: three requests, waits of initial then ×multiplier, two retries counted', async () => {
    hits.length = 0;
    failures = 2;
    const clock = new RecordingClock();
    const retried: string[] = [];
    const list = calls('          - { name: flaky, url: "BASE/flaky", retryBackoff: { initial: 100ms, multiplier: 3, maxAttempts: 4 } }\n');
    const results = await drive(runner(list, clock, retried).run(object, templateData(object, {}), new AbortController().signal), clock);
    assert.equal(results['flaky']?.error, '');
    assert.deepEqual(hits, ['/flaky', '/flaky', '/flaky']);
    assert.deepEqual(clock.waits, [100, 300]);
    assert.deepEqual(retried, ['flaky', 'flaky']);
  });

  test('attempts run out: the call fails with the last reason after maxAttempts requests, the waits capped at max', async () => {
    hits.length = 0;
    failures = 10;
    const clock = new RecordingClock();
    const list = calls('          - { name: down, url: "BASE/down", retryBackoff: { initial: 1s, max: 1500ms, maxAttempts: 4 } }\n');
    const error = await drive(runner(list, clock).run(object, templateData(object, {}), new AbortController().signal), clock).then(
      () => assert.fail('the run succeeded'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof ExternalCallError, String(error));
    assert.equal(error.message, 'external call "down" failed: HTTP status 503 (expected 2xx)');
    assert.equal(hits.length, 4);
    assert.deepEqual(clock.waits, [1000, 1500, 1500]);
    failures = 0;
  });

  test('without retryBackoff a failed call is made once', async () => {
    hits.length = 0;
    failures = 1;
    const clock = new RecordingClock();
    await assert.rejects(drive(runner(calls('          - { name: once, url: "BASE/once" }\n'), clock).run(object, templateData(object, {}), new AbortController().signal), clock), ExternalCallError);
    assert.deepEqual(hits, ['/once']);
    assert.deepEqual(clock.waits, []);
  });

  test('sleep holds each request back on the clock; an abort during a sleep or a retry wait ends the run at once', async () => {
    hits.length = 0;
    const clock = new RecordingClock();
    const list = calls('          - { name: slow, url: "BASE/slow", sleep: 2s }\n');
    const controller = new AbortController();
    const run = runner(list, clock).run(object, templateData(object, {}), controller.signal);
    run.catch(() => undefined);
    await flushMicrotasks();
    assert.deepEqual(clock.waits, [2000]);
    assert.deepEqual(hits, [], 'no request before the sleep is over');
    controller.abort();
    await assert.rejects(run, (error: unknown) => error instanceof ExternalCallError && error.reason === 'the reconcile was cancelled');
    assert.equal(clock.pending, 0, 'nothing left scheduled');
    assert.deepEqual(hits, []);

    // The same sleep, left to run: the request goes out after it.
    const results = await drive(runner(list, clock).run(object, templateData(object, {}), new AbortController().signal), clock);
    assert.equal(results['slow']?.error, '');
    assert.deepEqual(hits, ['/slow']);

    // An abort while waiting to retry: no further request.
    hits.length = 0;
    failures = 5;
    const waiting = new AbortController();
    const retrying = runner(calls('          - { name: r, url: "BASE/r", retryBackoff: 10s }\n'), clock).run(object, templateData(object, {}), waiting.signal);
    retrying.catch(() => undefined);
    const start = Date.now();
    while (clock.pending === 0 && Date.now() - start < 10_000) await flushMicrotasks();
    waiting.abort();
    await assert.rejects(retrying, ExternalCallError);
    assert.deepEqual(hits, ['/r']);
    assert.equal(clock.pending, 0);
    failures = 0;
  });

  test('fires.reconcile: false: the call is not made at reconcile and reads called "false"; the calls after it run', async () => {
    hits.length = 0;
    const clock = new RecordingClock();
    const list = calls(`          - { name: admission, url: "BASE/admission", fires: { reconcile: false } }
          - { name: next, url: "BASE/next?seen={{ .external.admission.called }}" }
`);
    const results = await drive(runner(list, clock).run(object, templateData(object, {}), new AbortController().signal), clock);
    assert.deepEqual(results['admission'], { status: '', body: '', headers: {}, error: '', called: 'false' });
    assert.deepEqual(hits, ['/next?seen=false']);
  });
});
