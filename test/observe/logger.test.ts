import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KatalogError } from '../../src/errors.js';
import { consoleLogger, silentLogger } from '../../src/observe/logger.js';
import { FakeClock } from '../support/fake-clock.js';

function capture(): { lines: string[]; write: (line: string) => void } {
  const lines: string[] = [];
  return { lines, write: (line) => lines.push(line) };
}

test('JSON lines with time, level, message, bindings and fields', () => {
  const { lines, write } = capture();
  const log = consoleLogger({ write, clock: new FakeClock() });
  log.child({ crd: 'website' }).child({ worker: 1 }).info('reconciled', { key: 'default/web', durationMs: 12 });
  assert.deepEqual(lines, ['{"time":"2026-01-01T00:00:00.000Z","level":"info","msg":"reconciled","crd":"website","worker":1,"key":"default/web","durationMs":12}\n']);
});

test('levels below the threshold are dropped; silent drops everything', () => {
  const { lines, write } = capture();
  const log = consoleLogger({ write, level: 'warn' });
  log.debug('d');
  log.info('i');
  log.warn('w');
  log.error('e');
  assert.deepEqual(lines.map((l) => (JSON.parse(l) as { level: string }).level), ['warn', 'error']);
  const silent = consoleLogger({ write, level: 'silent' });
  silent.error('nothing');
  assert.equal(lines.length, 2);
});

test('debug is off by default', () => {
  const { lines, write } = capture();
  consoleLogger({ write }).debug('hidden');
  assert.equal(lines.length, 0);
});

test('errors are reduced to name, message and code; reserved keys are renamed; circular fields do not throw', () => {
  const { lines, write } = capture();
  const log = consoleLogger({ write, clock: new FakeClock() });
  log.error('failed', { error: new KatalogError('E_X', 'bad thing'), msg: 'mine', n: 10n });
  assert.deepEqual(JSON.parse(lines[0] ?? ''), {
    time: '2026-01-01T00:00:00.000Z',
    level: 'error',
    msg: 'failed',
    error: { name: 'KatalogError', message: 'bad thing', code: 'E_X' },
    'field.msg': 'mine',
    n: '10',
  });
  const circular: Record<string, unknown> = {};
  circular['self'] = circular;
  assert.doesNotThrow(() => log.warn('loop', { circular }));
  assert.equal((JSON.parse(lines[1] ?? '') as { msg: string }).msg, 'loop');
});

test('text format', () => {
  const { lines, write } = capture();
  const log = consoleLogger({ write, format: 'text', clock: new FakeClock() });
  log.child({ crd: 'website' }).warn('slow reconcile', { key: 'default/web', note: 'two words', ok: true, error: new Error('x') });
  assert.deepEqual(lines, ['2026-01-01T00:00:00.000Z WARN slow reconcile crd=website key=default/web note="two words" ok=true error={"name":"Error","message":"x"}\n']);
});

test('the silent logger writes nothing and its child is itself', () => {
  assert.equal(silentLogger.child({ a: 1 }), silentLogger);
  assert.doesNotThrow(() => silentLogger.error('x', { y: 1 }));
});
