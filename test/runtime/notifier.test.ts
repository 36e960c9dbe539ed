// The runtime's notifier alone: a full queue drops (counted and logged, the throttle not marked), a sink that never
// settles meets the per-attempt deadline, and stop() ends a pending delivery without leaving a handle.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { Notifier } from '../../src/runtime/notifier.js';
import { notifierMetrics } from '../../src/runtime/notifier-metrics.js';
import { resolveNotificationOptions, type NotifySink } from '../../src/runtime/notifier-options.js';
import type { NotifyRequest } from '../../src/operatorbox/notify-box.js';
import { systemClock } from '../../src/util/clock.js';
import type { Logger } from '../../src/observe/logger.js';

function harness(notify: NotifySink, extra: { queueSize?: number; attempts?: number; timeout?: number } = {}) {
  const lines: string[] = [];
  const line = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push(`${level} ${message} ${JSON.stringify(fields)}`);
  const logger: Logger = { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error'), child: () => logger };
  const registry = new Registry();
  const events: string[] = [];
  const notifier = new Notifier({
    katalog: 'k',
    config: { enabled: true, teams: new Map([['ops', { name: 'ops', slack: [], email: ['a@b.c'], webhook: undefined, intervalMs: 60_000, message: undefined }]]) },
    options: resolveNotificationOptions({ notify, retryDelay: 10, ...extra }),
    clock: systemClock,
    logger,
    metrics: notifierMetrics(registry, ''),
    warn: async (_object, reason, message) => void events.push(`${reason}: ${message}`),
  });
  return { notifier, lines, registry, events };
}

const request = (key: string): NotifyRequest => ({
  crd: 'widget',
  conditionKey: key,
  field: 'spec.size',
  teams: ['ops'],
  message: 'hello {{ .metadata.name }}',
  object: { apiVersion: 'demo/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' } },
  render: (template) => template.replace('{{ .metadata.name }}', 'w'),
});

describe('notifier', () => {
  test('a full queue drops (counted, logged) and does not mark the throttle; a dropped condition is taken again on its next holding', async () => {
    let release: () => void = () => undefined;
    const delivered: string[] = [];
    const { notifier, lines, registry } = harness(
      async (n) => {
        delivered.push(n.condition);
        if (delivered.length === 1) await new Promise<void>((resolve) => (release = resolve));
      },
      { queueSize: 1 },
    );
    notifier.submit(request('a')); // taken by the delivery loop
    await new Promise((resolve) => setImmediate(resolve));
    notifier.submit(request('b')); // queued
    notifier.submit(request('c')); // the queue is full: dropped
    assert.ok(lines.some((l) => l.startsWith('error notification dropped') && l.includes('the queue holds 1')));
    release();
    const until = async (done: () => boolean): Promise<void> => {
      const deadline = Date.now() + 10_000;
      while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    await until(() => delivered.length === 2);
    notifier.submit(request('a')); // within the interval: throttled
    notifier.submit(request('c')); // dropped before, so not throttled
    await until(() => delivered.length === 3);
    await notifier.stop();
    assert.deepEqual(delivered, ['a', 'b', 'c']);
    assert.match(await registry.metrics(), /controller_notifications_total\{crd="widget",team="ops",result="dropped"\} 1/);
  });

  test('a sink that never settles fails each attempt at the deadline and is reported; stop() returns', async () => {
    const { notifier, events, registry } = harness(() => new Promise<void>(() => undefined), { attempts: 2, timeout: 30 });
    notifier.submit(request('x'));
    const deadline = Date.now() + 10_000;
    while (events.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.match(events[0] ?? '', /NotificationFailed: notification to team "ops" failed after every attempt: .*did not settle within 30 ms/);
    assert.match(await registry.metrics(), /result="failed"\} 1/);
    await notifier.stop();
  });

  test('stop() waits at most one attempt\'s deadline, then aborts the delivery in flight and counts it as dropped', async () => {
    const signals: AbortSignal[] = [];
    const { notifier, lines } = harness(
      (_n, signal) => {
        signals.push(signal);
        return new Promise<void>(() => undefined); // never settles by itself
      },
      { timeout: 200, attempts: 5 },
    );
    notifier.submit(request('y'));
    await new Promise((resolve) => setImmediate(resolve));
    const started = Date.now();
    const keepAlive = setInterval(() => undefined, 50); // the clock's timers are unref'd: keep the test's loop alive
    await notifier.stop();
    clearInterval(keepAlive);
    assert.ok(Date.now() - started < 5_000, 'stop() did not wait for every attempt');
    assert.ok(signals.length > 0 && signals.every((signal) => signal.aborted), 'every attempt\'s signal is aborted');
    assert.ok(lines.some((l) => l.startsWith('error notification dropped') && l.includes('the runtime stop')), lines.join('\n'));
  });
});
