// The built-in Postgres client against a real PostgreSQL 15 (Debian's, from .tools/postgres, run as nobody): the
// result map of Orkestra's postgres.go and 02-result-maps.md with typed values, NULLs and many rows; each
// authentication method (trust, cleartext, md5, SCRAM-SHA-256) with the password in the URL or from the credential;
// sslmode (prefer/require use TLS, disable is refused by a hostssl-only user, verify-full rejects a self-signed
// certificate); a Unix socket; server errors named by SQLSTATE without their text; one statement only.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ExternalProtocolClient, ExternalProtocolRequest } from '../../src/operatorbox/external-protocol.js';
import { postgresProtocol } from '../../src/operatorbox/protocol-postgres.js';
import { PG_USERS, postgresBinaries, startPostgres, userSetupStatements, type PostgresServer } from '../support/postgres-server.js';

const binaries = postgresBinaries();
let server: PostgresServer;
let client: ExternalProtocolClient;

function request(url: string, query: string, extra: Partial<ExternalProtocolRequest> = {}): ExternalProtocolRequest {
  return { call: 'db', url, query, credential: undefined, timeoutMs: 20_000, poolSize: undefined, signal: new AbortController().signal, ...extra };
}

describe('postgres protocol client against PostgreSQL 15', { skip: binaries.reason ?? false }, () => {
  before(async () => {
    client = postgresProtocol();
    server = await startPostgres(binaries.bin ?? '', async (url) => {
      for (const sql of [
        ...userSetupStatements(),
        'CREATE TABLE jobs (id int PRIMARY KEY, status text, ok boolean, ratio float8, big int8, price numeric, doc jsonb, at timestamptz)',
        `INSERT INTO jobs VALUES (1, 'pending', true, 1.5, 9007199254740993, 12.30, '{"a":[1,2]}', '2026-01-02 03:04:05+00'), (2, NULL, false, NULL, 7, NULL, NULL, NULL)`,
        'GRANT SELECT ON jobs TO PUBLIC',
      ]) {
        const result = await client.fetch(request(url, sql));
        assert.equal(result.error, '', `setup: ${sql}`);
      }
    });
  });
  after(async () => {
    await client.close?.();
    await server.stop();
  });

  test('a scalar query gives Orkestra\'s map: result, raw, rows, rowCount, error, called', async () => {
    const result = await client.fetch(request(server.url('trust'), 'SELECT current_database()'));
    assert.deepEqual(result, {
      result: 'postgres',
      raw: { current_database: 'postgres' },
      rows: [{ current_database: 'postgres' }],
      rowCount: '1',
      error: '',
      called: 'true',
    });
  });

  test('values are typed as the templates see them; NULL is null; result is the first column as text', async () => {
    const result = await client.fetch(request(server.url('trust'), 'SELECT ok, id, status, ratio, big, price, doc, at FROM jobs ORDER BY id'));
    assert.equal(result.error, '');
    assert.equal(result.result, 'true');
    assert.equal(result.rowCount, '2');
    assert.deepEqual(result.rows, [
      { ok: true, id: 1, status: 'pending', ratio: 1.5, big: '9007199254740993', price: '12.30', doc: { a: [1, 2] }, at: '2026-01-02 03:04:05+00' },
      { ok: false, id: 2, status: null, ratio: null, big: 7, price: null, doc: null, at: null },
    ]);
    assert.deepEqual(result.raw, (result.rows as unknown[])[0]);
    const nullFirst = await client.fetch(request(server.url('trust'), 'SELECT status FROM jobs WHERE id = 2'));
    assert.equal(nullFirst.result, '');
  });

  test('no rows: result "", raw {}, rows [], rowCount "0"', async () => {
    const result = await client.fetch(request(server.url('trust'), 'SELECT id FROM jobs WHERE id < 0'));
    assert.deepEqual(result, { result: '', raw: {}, rows: [], rowCount: '0', error: '', called: 'true' });
  });

  test('20,000 rows arrive whole across many TCP reads', async () => {
    const result = await client.fetch(request(server.url('trust'), "SELECT g AS n, repeat('x', 40) AS pad FROM generate_series(1, 20000) AS g"));
    assert.equal(result.error, '');
    assert.equal(result.rowCount, '20000');
    const rows = result.rows as Array<{ n: number; pad: string }>;
    assert.deepEqual([rows[0]?.n, rows[9_999]?.n, rows[19_999]?.n], [1, 10_000, 20_000]);
    assert.ok(rows.every((row, index) => row.n === index + 1 && row.pad.length === 40));
  });

  for (const who of ['cleartext', 'md5', 'scram'] as const) {
    test(`${who} authentication with the password in the URL, and from the credential over a wrong one`, async () => {
      const inUrl = await client.fetch(request(server.url(who, 'sslmode=disable'), 'SELECT current_user'));
      assert.deepEqual([inUrl.error, inUrl.result], ['', PG_USERS[who].user]);
      const wrongInUrl = server.url(who, 'sslmode=disable').replace(encodeURIComponent(PG_USERS[who].password), 'wrong');
      const fromCredential = await client.fetch(request(wrongInUrl, 'SELECT current_user', { credential: PG_USERS[who].password }));
      assert.deepEqual([fromCredential.error, fromCredential.result], ['', PG_USERS[who].user]);
      const refused = await client.fetch(request(wrongInUrl, 'SELECT current_user'));
      assert.equal(refused.error, 'postgres: connect: the server answered FATAL 28P01 (invalid_password)');
      assert.equal(refused.called, 'true');
    });
  }

  test('a server asking for a password the call does not have fails at connect, naming what is missing', async () => {
    const result = await client.fetch(request(`postgres://scram_user@127.0.0.1:${server.port}/postgres?sslmode=disable`, 'SELECT 1'));
    assert.equal(result.error, 'postgres: connect: the server asks for a password and the call has none (none in the URL, no auth.secretRef)');
  });

  test('a server error names its SQLSTATE, never the message text or the data it quotes', async () => {
    const missing = await client.fetch(request(server.url('trust'), 'SELECT * FROM no_such_table'));
    assert.equal(missing.error, 'postgres: query: the server answered ERROR 42P01 (undefined_table)');
    assert.deepEqual([missing.result, missing.raw, missing.rows, missing.called], ['', {}, [], 'true']);
    const data = await client.fetch(request(server.url('trust'), "SELECT 'secret-value-7'::int"));
    assert.equal(data.error, 'postgres: query: the server answered ERROR 22P02 (invalid_text_representation)');
    const password = await client.fetch(request(server.url('scram', 'sslmode=disable'), 'SELECT * FROM no_such_table'));
    assert.ok(!String(password.error).includes(PG_USERS.scram.password) && !String(password.error).includes('127.0.0.1'));
  });

  test('one statement per call: a second one is refused before anything runs (as pgx does)', async () => {
    const result = await client.fetch(request(server.url('trust'), 'SELECT 1; DROP TABLE jobs'));
    assert.equal(result.error, 'postgres: query: the server answered ERROR 42601 (syntax_error)');
    const still = await client.fetch(request(server.url('trust'), 'SELECT count(*) FROM jobs'));
    assert.deepEqual([still.error, still.result], ['', '2']);
  });

  test('sslmode: prefer and require use TLS; disable is refused by a hostssl-only user; verify-full rejects a self-signed certificate', async () => {
    const sslOf = 'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()';
    for (const query of ['', 'sslmode=prefer', 'sslmode=require', 'sslmode=verify-ca&connect_timeout=10']) {
      const result = await client.fetch(request(server.url('tlsOnly', query), sslOf));
      if (query.startsWith('sslmode=verify-ca')) {
        assert.match(String(result.error), /^postgres: connect: the connection failed \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)$/);
        continue;
      }
      assert.deepEqual([result.error, result.result], ['', 'true'], query);
    }
    const plain = await client.fetch(request(server.url('tlsOnly', 'sslmode=disable'), sslOf));
    assert.equal(plain.error, 'postgres: connect: the server answered FATAL 28000 (invalid_authorization_specification)');
    const full = await client.fetch(request(server.url('tlsOnly', 'sslmode=verify-full'), sslOf));
    assert.match(String(full.error), /^postgres: connect: the connection failed \(\w+\)$/);
    const notTls = await client.fetch(request(server.url('scram', 'sslmode=disable'), sslOf));
    assert.deepEqual([notTls.error, notTls.result], ['', 'false']);
  });

  test('a Unix socket directory as host (keyword/value form), run-time parameters sent to the server', async () => {
    const dsn = `host=${server.socketDir} port=${server.port} user=postgres dbname='postgres' application_name='katalog test'`;
    const result = await client.fetch(request(dsn, "SELECT current_setting('application_name'), inet_server_addr() IS NULL AS local"));
    assert.deepEqual([result.error, result.rows], ['', [{ current_setting: 'katalog test', local: true }]]);
  });

  test('bad input fails before connecting: no query, an unreadable URL, a refused setting', async () => {
    assert.equal((await client.fetch(request(server.url('trust'), '  '))).error, 'postgres: query: is required');
    assert.equal((await client.fetch(request('mysql://u:p@h/db', 'SELECT 1'))).error, 'postgres: invalid url: it is neither a postgres:// URL nor keyword=value settings');
    const cert = await client.fetch(request(server.url('trust', 'sslrootcert=/etc/ca.pem'), 'SELECT 1'));
    assert.equal(cert.error, 'postgres: invalid url: the setting sslrootcert (a CA file (verify-ca and verify-full use Node\'s CA store)) is not supported');
  });

  test('nothing listening: connect fails with the socket error code, no URL', async () => {
    const result = await client.fetch(request(`postgres://u:hunter2@127.0.0.1:1/db?sslmode=disable`, 'SELECT 1'));
    assert.equal(result.error, 'postgres: connect: the connection failed (ECONNREFUSED)');
  });
});
