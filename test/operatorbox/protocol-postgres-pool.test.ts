// The Postgres client's sessions against a real PostgreSQL 15: the pool (at most poolSize sessions per URL and
// credential, reused after a server error, Orkestra's default of 2), the per-call timeout and the caller's abort
// (the session is destroyed and the statement cancelled on the server), and close() ending every session.
// The server's own view (pg_stat_activity, read by a second client) is what the assertions check.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { ExternalProtocolClient, ExternalProtocolRequest } from '../../src/operatorbox/external-protocol.js';
import { postgresProtocol } from '../../src/operatorbox/protocol-postgres.js';
import { postgresBinaries, startPostgres, type PostgresServer } from '../support/postgres-server.js';

const binaries = postgresBinaries();
let server: PostgresServer;
let observer: ExternalProtocolClient;

function request(url: string, query: string, extra: Partial<ExternalProtocolRequest> = {}): ExternalProtocolRequest {
  return { call: 'db', url, query, credential: undefined, timeoutMs: 20_000, poolSize: undefined, signal: new AbortController().signal, ...extra };
}

/** The server's sessions tagged with `application_name = tag`, in `state` if given. */
async function sessions(tag: string, state?: string): Promise<number> {
  const where = state === undefined ? '' : ` AND state = '${state}'`;
  const result = await observer.fetch(request(server.url('trust', 'application_name=observer'), `SELECT count(*) FROM pg_stat_activity WHERE application_name = '${tag}'${where}`));
  assert.equal(result.error, '');
  return Number(result.result);
}

/** Polls `check` until it holds (a generous deadline: the machine may be loaded). */
async function eventually(check: () => Promise<boolean>, what: string, deadlineMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > deadlineMs) assert.fail(`${what}: not within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('postgres protocol client: pool, timeout, abort and close', { skip: binaries.reason ?? false }, () => {
  before(async () => {
    observer = postgresProtocol();
    server = await startPostgres(binaries.bin ?? '', async () => {});
  });
  after(async () => {
    await observer.close?.();
    await server.stop();
  });

  test('poolSize bounds the sessions per URL; calls beyond it wait and reuse them; the default is 2', async () => {
    const client = postgresProtocol();
    try {
      const url = server.url('trust', 'application_name=pool3');
      const pids = await Promise.all(Array.from({ length: 9 }, () => client.fetch(request(url, 'SELECT pg_backend_pid() AS pid, pg_sleep(0.1)', { poolSize: 3 }))));
      assert.ok(pids.every((result) => result.error === ''));
      assert.equal(new Set(pids.map((result) => result.result)).size, 3);
      assert.equal(await sessions('pool3'), 3); // kept open, idle, for the next calls
      const byDefault = server.url('trust', 'application_name=pooldefault');
      const defaults = await Promise.all(Array.from({ length: 6 }, () => client.fetch(request(byDefault, 'SELECT pg_backend_pid(), pg_sleep(0.1)'))));
      assert.equal(new Set(defaults.map((result) => result.result)).size, 2);
      const again = await client.fetch(request(url, 'SELECT pg_backend_pid()', { poolSize: 3 }));
      assert.ok(pids.some((result) => result.result === again.result), 'an idle session is reused');
    } finally {
      await client.close?.();
    }
  });

  test('a server error leaves the session in the pool; the next call runs on it', async () => {
    const client = postgresProtocol();
    try {
      const url = server.url('trust', 'application_name=reuse');
      const first = await client.fetch(request(url, 'SELECT pg_backend_pid()', { poolSize: 1 }));
      const failed = await client.fetch(request(url, 'SELECT 1/0', { poolSize: 1 }));
      assert.equal(failed.error, 'postgres: query: the server answered ERROR 22012 (division_by_zero)');
      const next = await client.fetch(request(url, 'SELECT pg_backend_pid()', { poolSize: 1 }));
      assert.deepEqual([next.error, next.result], ['', first.result]);
    } finally {
      await client.close?.();
    }
  });

  test('the call\'s timeout destroys the session and cancels the statement on the server', async () => {
    const client = postgresProtocol();
    try {
      const url = server.url('trust', 'sslmode=disable&application_name=slow');
      // A pooled session first, so that the timeout falls in the statement however slow connecting is here.
      assert.equal((await client.fetch(request(url, 'SELECT 1', { poolSize: 1 }))).error, '');
      const started = Date.now();
      const result = await client.fetch(request(url, 'SELECT pg_sleep(60)', { timeoutMs: 1_000, poolSize: 1 }));
      assert.equal(result.error, 'postgres: query: no answer within 1000 ms');
      assert.ok(Date.now() - started < 15_000, 'the call ends at its timeout, not the statement\'s');
      await eventually(async () => (await sessions('slow')) === 0, 'the session is gone and its statement cancelled');
      const after = await client.fetch(request(url, 'SELECT 1'));
      assert.deepEqual([after.error, after.result], ['', '1']);
    } finally {
      await client.close?.();
    }
  });

  test('the caller\'s signal aborts a call in progress and one waiting for a pooled session', async () => {
    const client = postgresProtocol();
    try {
      const url = server.url('trust', 'application_name=aborted');
      const controller = new AbortController();
      const running = client.fetch(request(url, 'SELECT pg_sleep(60)', { poolSize: 1, signal: controller.signal }));
      const waiting = client.fetch(request(url, 'SELECT 1', { poolSize: 1, signal: controller.signal }));
      await eventually(async () => (await sessions('aborted', 'active')) === 1, 'the statement runs');
      controller.abort();
      assert.equal((await running).error, 'postgres: query: the call was cancelled');
      assert.equal((await waiting).error, 'postgres: connect: the call was cancelled');
      await eventually(async () => (await sessions('aborted')) === 0, 'the aborted session is closed');
      const already = await client.fetch(request(url, 'SELECT 1', { signal: AbortSignal.abort() }));
      assert.equal(already.error, 'postgres: connect: the call was cancelled');
    } finally {
      await client.close?.();
    }
  });

  test('a server that accepts and never answers: the timeout bounds the connection; a server that is not PostgreSQL is named', async () => {
    const client = postgresProtocol();
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    const chatty = createServer((socket) => {
      sockets.add(socket);
      socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    });
    try {
      for (const listener of [silent, chatty]) await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      const portOf = (listener: Server): number => (listener.address() as AddressInfo).port;
      const slow = await client.fetch(request(`postgres://u@127.0.0.1:${portOf(silent)}/db`, 'SELECT 1', { timeoutMs: 300 }));
      assert.equal(slow.error, 'postgres: connect: no connection within 300 ms');
      const bounded = await client.fetch(request(`postgres://u@127.0.0.1:${portOf(silent)}/db?sslmode=disable&connect_timeout=1`, 'SELECT 1'));
      assert.equal(bounded.error, 'postgres: connect: no connection within connect_timeout (1000 ms) or 20000 ms');
      const http = await client.fetch(request(`postgres://u@127.0.0.1:${portOf(chatty)}/db?sslmode=disable`, 'SELECT 1'));
      assert.match(String(http.error), /^postgres: connect: the server sent a message of \d+ bytes, over the limit of \d+ \(is it a PostgreSQL server\?\)$/);
    } finally {
      await client.close?.();
      for (const socket of sockets) socket.destroy();
      for (const listener of [silent, chatty]) listener.close();
    }
  });

  test('close() ends every session, idle or in a call, and a later call opens a new one', async () => {
    const client = postgresProtocol();
    const url = server.url('trust', 'application_name=closing');
    await Promise.all([1, 2].map(() => client.fetch(request(url, 'SELECT pg_sleep(0.1)'))));
    assert.equal(await sessions('closing'), 2);
    const inCall = client.fetch(request(url, 'SELECT pg_sleep(60)'));
    await eventually(async () => (await sessions('closing', 'active')) === 1, 'the statement runs');
    await client.close?.();
    assert.match(String((await inCall).error), /^postgres: query: /);
    await eventually(async () => (await sessions('closing')) === 0, 'every session is closed');
    assert.deepEqual((await client.fetch(request(url, 'SELECT 7 AS n'))).result, '7');
    assert.equal(await sessions('closing'), 1);
    await client.close?.();
    await eventually(async () => (await sessions('closing')) === 0, 'the new session is closed too');
  });
});
