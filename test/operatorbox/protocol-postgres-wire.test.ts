// The Postgres client's pure parts: the wire codec (frames cut the same however the bytes arrive, NULL apart from
// '', errors by field, bad lengths refused), the authentication computations (RFC 7677's SCRAM-SHA-256 example,
// a server that does not know the password, the md5 digest over a known stored hash), the connection string
// (URL and keyword/value forms, defaults, the credential over the URL's password, refusals that quote nothing)
// and the typing of values in the result map.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { userInfo } from 'node:os';
import { md5PasswordDigest, ScramError, ScramSha256Client } from '../../src/operatorbox/protocol-postgres-auth.js';
import { columnValue, postgresResult } from '../../src/operatorbox/protocol-postgres-result.js';
import { parsePostgresUrl, PostgresUrlError } from '../../src/operatorbox/protocol-postgres-url.js';
import {
  BackendReader,
  extendedQueryMessages,
  parseDataRow,
  parseErrorFields,
  parseRowDescription,
  PostgresWireError,
  startupMessage,
  type BackendMessage,
} from '../../src/operatorbox/protocol-postgres-wire.js';

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

function dataRow(values: (string | null)[]): Buffer {
  const parts = values.map((value) => {
    const length = Buffer.alloc(4);
    if (value === null) {
      length.writeInt32BE(-1, 0);
      return length;
    }
    const bytes = Buffer.from(value, 'utf8');
    length.writeInt32BE(bytes.length, 0);
    return Buffer.concat([length, bytes]);
  });
  const count = Buffer.alloc(2);
  count.writeInt16BE(values.length, 0);
  return message('D', Buffer.concat([count, ...parts]));
}

function rowDescription(columns: Array<[string, number]>): Buffer {
  const count = Buffer.alloc(2);
  count.writeInt16BE(columns.length, 0);
  const parts = columns.map(([name, oid]) => {
    const fixed = Buffer.alloc(18);
    fixed.writeUInt32BE(oid, 6);
    return Buffer.concat([Buffer.from(`${name}\0`, 'utf8'), fixed]);
  });
  return message('T', Buffer.concat([count, ...parts]));
}

const stream = Buffer.concat([
  message('R', Buffer.from([0, 0, 0, 0])),
  rowDescription([['naïve', 25], ['n', 23]]),
  ...Array.from({ length: 50 }, (_, index) => dataRow([index % 2 === 0 ? 'é€' : '', index % 3 === 0 ? null : String(index)])),
  message('C', Buffer.from('SELECT 50\0')),
  message('Z', Buffer.from('I')),
]);

function readAll(chunks: Buffer[]): BackendMessage[] {
  const reader = new BackendReader(1024);
  const out: BackendMessage[] = [];
  for (const chunk of chunks) {
    reader.push(chunk);
    out.push(...reader.take());
  }
  assert.equal(reader.pending, 0);
  return out;
}

test('frames are cut the same from one chunk, byte by byte, and in uneven pieces', () => {
  const whole = readAll([stream]);
  assert.equal(whole.length, 54);
  assert.deepEqual(whole.map((m) => m.type).join(''), `RT${'D'.repeat(50)}CZ`);
  const bytes = readAll([...stream].map((byte) => Buffer.from([byte])));
  const uneven = readAll(Array.from({ length: Math.ceil(stream.length / 7) }, (_, index) => stream.subarray(index * 7, index * 7 + 7)));
  for (const other of [bytes, uneven]) assert.deepEqual(other.map((m) => [m.type, m.body.toString('hex')]), whole.map((m) => [m.type, m.body.toString('hex')]));
  assert.deepEqual(parseRowDescription(whole[1]?.body ?? Buffer.alloc(0)), [{ name: 'naïve', typeOid: 25 }, { name: 'n', typeOid: 23 }]);
  assert.deepEqual(parseDataRow(whole[2]?.body ?? Buffer.alloc(0)), ['é€', null]);
  assert.deepEqual(parseDataRow(whole[3]?.body ?? Buffer.alloc(0)), ['', '1']);
});

test('a length under 4, one over the limit and a truncated body are protocol errors', () => {
  const short = Buffer.from([0x44, 0, 0, 0, 3]);
  assert.throws(() => new BackendReader(1024).push(short), (error) => error instanceof PostgresWireError && /invalid length 3/.test(error.reason));
  assert.throws(() => new BackendReader(10).push(message('D', Buffer.alloc(11))), (error) => error instanceof PostgresWireError && /11 bytes, over the limit of 10/.test(error.reason));
  const truncated = Buffer.from([0, 1, 0, 0, 0, 9, 0x61]);
  assert.throws(() => parseDataRow(truncated), (error) => error instanceof PostgresWireError && /truncated DataRow/.test(error.reason));
});

test('ErrorResponse fields by code letter', () => {
  const body = Buffer.from('SERROR\0VERROR\0C42P01\0Mrelation "x" does not exist\0\0', 'utf8');
  const fields = parseErrorFields(body);
  assert.deepEqual([fields.get('V'), fields.get('C'), fields.get('M')], ['ERROR', '42P01', 'relation "x" does not exist']);
});

test('frontend messages: startup leaves out empty values; one statement as Parse/Bind/Describe/Execute/Sync', () => {
  const startup = startupMessage({ user: 'u', database: '', client_encoding: 'UTF8' });
  assert.equal(startup.readInt32BE(0), startup.length);
  assert.equal(startup.readInt32BE(4), 196_608);
  assert.equal(startup.subarray(8).toString('utf8'), 'user\0u\0client_encoding\0UTF8\0\0');
  const query = extendedQueryMessages('SELECT 1');
  const types: string[] = [];
  for (let offset = 0; offset < query.length; offset += query.readInt32BE(offset + 1) + 1) types.push(String.fromCharCode(query[offset] ?? 0));
  assert.deepEqual(types, ['P', 'B', 'D', 'E', 'S']);
  assert.ok(query.includes(Buffer.from('\0SELECT 1\0')));
});

test('SCRAM-SHA-256: RFC 7677\'s example exchange, and a server that does not know the password', async () => {
  const client = new ScramSha256Client('pencil', 'rOprNGfwEbeRWgbNEkqO', 'user');
  assert.equal(client.clientFirst(), 'n,,n=user,r=rOprNGfwEbeRWgbNEkqO');
  const serverFirst = 'r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096';
  assert.equal(await client.clientFinal(serverFirst), 'c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=');
  client.verifyServerFinal('v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=');
  assert.throws(() => client.verifyServerFinal('v=AAAATRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4='), (error) => error instanceof ScramError && /does not know the password/.test(error.reason));
  const other = new ScramSha256Client('pencil', 'abc');
  await assert.rejects(other.clientFinal('r=xyz123,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096'), (error) => error instanceof ScramError && /nonce/.test(error.reason));
  await assert.rejects(other.clientFinal('r=abcdef,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=0'), (error) => error instanceof ScramError && /iteration/.test(error.reason));
});

test('md5: the salted digest over PostgreSQL\'s stored hash of postgres/password', () => {
  const salt = Buffer.from([1, 2, 3, 4]);
  const stored = '32e12f215ba27cb750c9e093ce4b5127'; // md5sum of "passwordpostgres": pg_authid's 'md5…' for postgres/password
  assert.equal(md5PasswordDigest('postgres', 'password', salt), 'md5' + createHash('md5').update(stored).update(salt).digest('hex'));
});

test('connection strings: the URL form with its parts percent-decoded, IPv6, run-time parameters', () => {
  assert.deepEqual(parsePostgresUrl('postgres://u%40x:p%40ss@db.example:6543/app%2Fx?sslmode=require&application_name=my+app&statement_cache_capacity=0', undefined), {
    host: 'db.example', port: 6543, user: 'u@x', password: 'p@ss', database: 'app/x', sslMode: 'require', connectTimeoutMs: 0, runtimeParams: { application_name: 'my app' },
  });
  const v6 = parsePostgresUrl('postgresql://me@[::1]:5433/d?connect_timeout=3', undefined);
  assert.deepEqual([v6.host, v6.port, v6.user, v6.password, v6.sslMode, v6.connectTimeoutMs], ['::1', 5433, 'me', undefined, 'prefer', 3000]);
  const bare = parsePostgresUrl('postgres://', undefined);
  assert.deepEqual([bare.host, bare.port, bare.user, bare.database], ['localhost', 5432, userInfo().username, '']);
  const socket = parsePostgresUrl('postgres:///db?host=%2Frun%2Fpostgresql&user=x', undefined);
  assert.deepEqual([socket.host, socket.database, socket.user], ['/run/postgresql', 'db', 'x']);
});

test('connection strings: the keyword/value form with quotes and escapes; the credential replaces the password', () => {
  const target = parsePostgresUrl(String.raw`host=/run/pg port=5433 user='a b' password='it\'s' dbname=d sslmode=disable search_path=s1`, undefined);
  assert.deepEqual(target, { host: '/run/pg', port: 5433, user: 'a b', password: "it's", database: 'd', sslMode: 'disable', connectTimeoutMs: 0, runtimeParams: { search_path: 's1' } });
  assert.equal(parsePostgresUrl('postgres://u:inurl@h/d', 'fromsecret').password, 'fromsecret');
  assert.equal(parsePostgresUrl('postgres://u:inurl@h/d', '').password, 'inurl');
});

test('connection strings that are refused say which part, never its value', () => {
  const cases: Array<[string, RegExp]> = [
    ['postgres://u:s3cret@h1:5432,h2:5432/d', /several hosts/],
    ['postgres://u:s3cret@h:99999/d', /port is not a number/],
    ['postgres://u:s3cret@h/d?sslmode=maybe', /sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full/],
    ['postgres://u:s3cret@h/d?sslcert=/k', /sslcert \(a client certificate file\) is not supported/],
    ['postgres://u:s3cret@h/d?passfile=/p', /passfile/],
    ['postgres://u:s3cret%zz@h/d', /password is not valid percent-encoding/],
    ['http://u:s3cret@h/d', /neither a postgres:\/\/ URL nor keyword=value/],
    ["host=h password='s3cret", /quoted value of password is not closed/],
  ];
  for (const [text, reason] of cases) {
    assert.throws(() => parsePostgresUrl(text, undefined), (error) => error instanceof PostgresUrlError && reason.test(error.reason) && !error.reason.includes('s3cret'), text);
  }
});

test('values as the templates see them, and the result map\'s first-row shortcuts', () => {
  const rows: Array<[string | null, number, unknown]> = [
    ['t', 16, true], ['f', 16, false], ['42', 23, 42], ['-7', 21, -7], ['9007199254740993', 20, '9007199254740993'],
    ['1.25', 701, 1.25], ['NaN', 700, Number.NaN], ['{"a":1}', 3802, { a: 1 }], ['[1]', 114, [1]], ['12.30', 1700, '12.30'],
    ['{1,2}', 1007, '{1,2}'], [null, 23, null], ['', 25, ''],
  ];
  for (const [text, oid, expected] of rows) assert.deepEqual(columnValue(text, oid), expected, `${text} as ${oid}`);
  const result = postgresResult({ columns: [{ name: 'ok', typeOid: 16 }, { name: '__proto__', typeOid: 25 }], rows: [['f', 'x'], ['t', null]] });
  assert.equal(result.result, 'false');
  assert.equal(result.rowCount, '2');
  const first = result.raw as Record<string, unknown>;
  assert.deepEqual([Object.keys(first), first.ok, Object.getOwnPropertyDescriptor(first, '__proto__')?.value], [['ok', '__proto__'], false, 'x']);
});
