// The built-in Redis client against a real redis-server (Debian's, from .tools/redis; the tests skip, saying why,
// when it cannot be fetched): Orkestra's result maps for each reply type, its failures (never quoting the URL or
// the password), AUTH and database selection from the URL, the pool's limit, deadlines, aborts and close().
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { redisProtocol, splitCommand } from '../../src/operatorbox/protocol-redis.js';
import type { ExternalProtocolClient, ExternalProtocolRequest } from '../../src/operatorbox/external-protocol.js';
import { redisBinary, startRedisServer, type RedisServer } from '../support/redis-server.js';

const binary = redisBinary();

function request(url: string, query: string, more: Partial<ExternalProtocolRequest> = {}): ExternalProtocolRequest {
  return { call: 'lookup', url, query, credential: undefined, timeoutMs: 5000, poolSize: undefined, signal: new AbortController().signal, ...more };
}

/** Clients connected to database `db` (redis-cli itself stays on 0). */
async function clientsInDb(server: RedisServer, db: number): Promise<number> {
  const list = await server.command('CLIENT', 'LIST');
  return list.split('\n').filter((line) => line.includes(` db=${db} `)).length;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('redis protocol client', { skip: binary.reason }, () => {
  let server: RedisServer;
  let client: ExternalProtocolClient;

  before(async () => {
    server = await startRedisServer(binary.path ?? '');
    client = redisProtocol();
    await server.command('SET', 'greeting', 'hello world');
    await server.command('RPUSH', 'queue', 'a', 'b', 'c');
    await server.command('HSET', 'my hash', 'field', 'v1');
    await server.command('-n', '2', 'SET', 'greeting', 'from db 2');
  });
  after(async () => {
    await client?.close?.();
    await server?.stop();
  });

  test('a string reply: result and raw.value', async () => {
    assert.deepEqual(await client.fetch(request(server.url, 'GET greeting')), { result: 'hello world', raw: { value: 'hello world' }, error: '', called: 'true' });
    assert.deepEqual(await client.fetch(request(server.url, 'PING')), { result: 'PONG', raw: { value: 'PONG' }, error: '', called: 'true' });
  });

  test('integers and arrays print as Go prints them; quotes group an argument', async () => {
    const length = await client.fetch(request(server.url, 'LLEN queue'));
    assert.equal(length['result'], '3');
    assert.deepEqual(length['raw'], { value: 3 });
    const range = await client.fetch(request(server.url, 'LRANGE queue 0 -1'));
    assert.equal(range['result'], '[a b c]');
    assert.deepEqual(range['raw'], { value: ['a', 'b', 'c'] });
    const field = await client.fetch(request(server.url, 'HGET "my hash" field'));
    assert.equal(field['result'], 'v1');
    const mixed = await client.fetch(request(server.url, 'MGET greeting missing'));
    assert.equal(mixed['result'], '[hello world <nil>]');
    assert.deepEqual(splitCommand('SET  k "a b"  ""'), ['SET', 'k', 'a b']);
  });

  test('a missing key is Orkestra\'s nil failure; an error reply names its code only', async () => {
    assert.deepEqual(await client.fetch(request(server.url, 'GET missing-key')), { result: '', raw: { value: null }, error: 'redis: nil', called: 'true' });
    const wrong = await client.fetch(request(server.url, 'HGET greeting secret-field-name'));
    assert.equal(wrong['error'], 'redis: the server answered an error (WRONGTYPE)');
    assert.match(String((wrong['raw'] as Record<string, unknown>)['error']), /^WRONGTYPE /, 'the full text stays in raw.error for templates');
    const unknown = await client.fetch(request(server.url, 'NOSUCHCOMMAND secret-argument'));
    assert.equal(unknown['error'], 'redis: the server answered an error (ERR)');
    assert.doesNotMatch(JSON.stringify(unknown['error']), /secret/);
  });

  test('the database of the URL path, and a bare host:port as Orkestra falls back to', async () => {
    assert.equal((await client.fetch(request(`${server.url}/2`, 'GET greeting')))['result'], 'from db 2');
    assert.equal((await client.fetch(request(`${server.url}?db=2`, 'GET greeting')))['result'], 'from db 2');
    assert.equal((await client.fetch(request(`127.0.0.1:${server.port}`, 'GET greeting')))['result'], 'hello world');
  });

  test('bad URLs and empty commands fail the call with a reason that does not quote the URL', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['http://user:pw@example.com', 'GET k', /scheme must be redis:\/\/, rediss:\/\/ or unix:\/\//],
      ['redis://user:pw@host:6379/abc', 'GET k', /database number/],
      ['redis://user:pw@host:6379?pool_size=3', 'GET k', /option "pool_size" is not supported/],
      [server.url, '   ', /query: is empty/],
    ];
    for (const [url, query, reason] of cases) {
      const result = await client.fetch(request(url, query));
      assert.match(String(result['error']), reason);
      assert.doesNotMatch(String(result['error']), /pw|example|host:6379/);
      assert.equal(result['called'], 'true');
    }
  });

  test('a server that is down: the connection failed, by error code', async () => {
    const result = await client.fetch(request('redis://127.0.0.1:1', 'PING'));
    assert.equal(result['error'], 'redis: the connection failed (ECONNREFUSED)');
  });

  test('a command that blocks past the timeout fails with the deadline; the pool goes on', async () => {
    const blocked = await client.fetch(request(server.url, 'BLPOP nothing-here 0', { timeoutMs: 200 }));
    assert.equal(blocked['error'], 'redis: no reply within 200 ms');
    assert.equal((await client.fetch(request(server.url, 'GET greeting')))['result'], 'hello world');
  });

  test('an abort of the signal cancels the call at once', async () => {
    const controller = new AbortController();
    const pending = client.fetch(request(server.url, 'BLPOP nothing-here 0', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    assert.equal((await pending)['error'], 'redis: the call was cancelled');
  });

  test('poolSize bounds the connections to one server; close() ends them', async () => {
    const own = redisProtocol();
    const calls = Array.from({ length: 6 }, () => own.fetch(request(`${server.url}/3`, 'PING', { poolSize: 1 })));
    for (const result of await Promise.all(calls)) assert.equal(result['result'], 'PONG');
    assert.equal(await clientsInDb(server, 3), 1, 'six calls at once shared one connection');
    const wide = Array.from({ length: 6 }, () => own.fetch(request(`${server.url}/4`, 'BLPOP nothing-here 0.05', { poolSize: 3 })));
    for (const result of await Promise.all(wide)) assert.equal(result['error'], 'redis: nil', 'BLPOP timing out answers a null array');
    assert.equal(await clientsInDb(server, 4), 3, 'blocking calls opened up to poolSize connections, no more');
    await own.close?.();
    await until(async () => (await clientsInDb(server, 3)) + (await clientsInDb(server, 4)) === 0, 'the pooled connections to close');
    assert.equal((await own.fetch(request(`${server.url}/3`, 'PING')))['result'], 'PONG', 'usable again after close()');
    await own.close?.();
  });

  test('a restarted server: the idle connection is dropped and the next call opens a new one', async () => {
    assert.equal((await client.fetch(request(server.url, 'PING')))['result'], 'PONG');
    await server.stop();
    await server.restart();
    await server.command('SET', 'greeting', 'hello again');
    assert.equal((await client.fetch(request(server.url, 'GET greeting')))['result'], 'hello again');
  });
});

describe('redis protocol client with AUTH', { skip: binary.reason }, () => {
  let server: RedisServer;
  const client = redisProtocol();
  before(async () => {
    server = await startRedisServer(binary.path ?? '', { password: 's3cret-pass' });
  });
  after(async () => {
    await client.close?.();
    await server?.stop();
  });

  test('the credential is the password; one in the URL works too; a wrong one is refused by code', async (t: TestContext) => {
    t.diagnostic('AUTH with the credential, then with the URL password, then a wrong one');
    assert.equal((await client.fetch(request(server.url, 'PING', { credential: 's3cret-pass' })))['result'], 'PONG');
    assert.equal((await client.fetch(request(`redis://:s3cret-pass@127.0.0.1:${server.port}`, 'PING')))['result'], 'PONG');
    const wrong = await client.fetch(request(server.url, 'PING', { credential: 'wrong-pass' }));
    assert.equal(wrong['error'], 'redis: AUTH failed (WRONGPASS)');
    const none = await client.fetch(request(server.url, 'PING'));
    assert.equal(none['error'], 'redis: the server answered an error (NOAUTH)');
    assert.doesNotMatch(JSON.stringify([wrong, none]), /s3cret|wrong-pass|127\.0\.0\.1/);
  });
});
