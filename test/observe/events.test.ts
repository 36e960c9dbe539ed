import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LifecycleEmitter, TypedEmitter } from '../../src/observe/events.js';
import type { LogFields, Logger } from '../../src/observe/logger.js';
import { flushMicrotasks } from '../support/fake-clock.js';

function recordingLogger(): { logger: Logger; errors: Array<{ message: string; fields: LogFields | undefined }> } {
  const errors: Array<{ message: string; fields: LogFields | undefined }> = [];
  const logger: Logger = {
    debug() {},
    info() {},
    warn() {},
    error(message, fields) {
      errors.push({ message, fields });
    },
    child() {
      return logger;
    },
  };
  return { logger, errors };
}

test('listeners receive typed payloads in registration order', () => {
  const events = new LifecycleEmitter();
  const seen: string[] = [];
  events.on('degraded', (e) => seen.push(`a:${e.crd}:${e.consecutiveFails}:${e.error.message}`));
  events.on('degraded', (e) => seen.push(`b:${e.crd}`));
  events.on('recovered', (e) => seen.push(`recovered:${e.crd}`));
  events.emit('degraded', { crd: 'website', consecutiveFails: 5, error: new Error('boom') });
  assert.deepEqual(seen, ['a:website:5:boom', 'b:website']);
  events.emit('reconciled', { crd: 'website', key: 'default/web', result: 'success', durationMs: 3 });
  assert.equal(seen.length, 2, 'no listener of reconciled');
});

test('on returns an idempotent unsubscribe; off removes one registration', () => {
  const events = new LifecycleEmitter();
  let calls = 0;
  const listener = (): void => {
    calls++;
  };
  const unsubscribe = events.on('activated', listener);
  events.on('activated', listener);
  assert.equal(events.listenerCount('activated'), 2);
  unsubscribe();
  unsubscribe();
  assert.equal(events.listenerCount('activated'), 1);
  events.off('activated', listener);
  events.off('activated', listener);
  events.emit('activated', { crd: 'website' });
  assert.equal(calls, 0);
});

test('once runs a single time and can be removed with off before it runs', () => {
  const events = new LifecycleEmitter();
  const seen: boolean[] = [];
  events.once('leadershipChanged', (e) => seen.push(e.leader));
  events.emit('leadershipChanged', { leader: true, identity: 'pod-a' });
  events.emit('leadershipChanged', { leader: false, identity: 'pod-a' });
  assert.deepEqual(seen, [true]);
  const listener = (): void => {
    seen.push(false);
  };
  events.once('leadershipChanged', listener);
  events.off('leadershipChanged', listener);
  events.emit('leadershipChanged', { leader: true, identity: 'pod-a', shard: { index: 0, count: 2 } });
  assert.deepEqual(seen, [true]);
});

test('a listener added during an emit runs from the next emit on', () => {
  const events = new LifecycleEmitter();
  let late = 0;
  events.on('activated', () => {
    events.on('activated', () => {
      late++;
    });
  });
  events.emit('activated', { crd: 'a' });
  assert.equal(late, 0);
  events.emit('activated', { crd: 'a' });
  assert.equal(late, 1);
});

test('a throwing listener is logged and does not stop the others or the caller', () => {
  const { logger, errors } = recordingLogger();
  const events = new LifecycleEmitter({ logger });
  let after = false;
  events.on('deactivated', () => {
    throw new Error('listener bug');
  });
  events.on('deactivated', () => {
    after = true;
  });
  assert.doesNotThrow(() => events.emit('deactivated', { crd: 'website', reason: 'CRD deleted' }));
  assert.ok(after);
  assert.equal(errors.length, 1);
  assert.equal(errors[0]?.message, 'a listener of "deactivated" failed: listener bug');
  assert.equal(errors[0]?.fields?.['event'], 'deactivated');
});

test('a rejected promise from a listener is logged, not left unhandled', async () => {
  const { logger, errors } = recordingLogger();
  const events = new LifecycleEmitter({ logger });
  events.on('recovered', async () => {
    await Promise.resolve();
    throw new Error('async listener bug');
  });
  events.emit('recovered', { crd: 'website' });
  await flushMicrotasks();
  assert.equal(errors[0]?.message, 'a listener of "recovered" failed: async listener bug');
});

test('a throwing logger does not break emit either', () => {
  const logger: Logger = {
    debug() {},
    info() {},
    warn() {},
    error() {
      throw new Error('logger bug');
    },
    child() {
      return logger;
    },
  };
  const events = new TypedEmitter<{ ping: { n: number } }>({ logger });
  events.on('ping', () => {
    throw new Error('x');
  });
  assert.doesNotThrow(() => events.emit('ping', { n: 1 }));
});

test('removeAllListeners clears one event or all', () => {
  const events = new LifecycleEmitter();
  events.on('activated', () => {});
  events.on('recovered', () => {});
  events.removeAllListeners('activated');
  assert.equal(events.listenerCount('activated'), 0);
  assert.equal(events.listenerCount('recovered'), 1);
  events.removeAllListeners();
  assert.equal(events.listenerCount('recovered'), 0);
});
