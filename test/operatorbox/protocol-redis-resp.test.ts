// The RESP2 parser of the built-in Redis client: every reply type, replies cut at every byte, several replies in
// one chunk, and the limits that make a connection unusable.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeCommand, RespError, RespParser, RespProtocolError, type RespValue } from '../../src/operatorbox/protocol-redis-resp.js';

const parseAll = (bytes: string | Buffer, max = 1024): RespValue[] => new RespParser(max).push(Buffer.from(bytes));

/** Feeds `bytes` one byte at a time; the replies come out only once each is complete. */
function byteByByte(bytes: string): RespValue[] {
  const parser = new RespParser(1024);
  const buffer = Buffer.from(bytes);
  const replies: RespValue[] = [];
  for (let index = 0; index < buffer.length; index += 1) replies.push(...parser.push(buffer.subarray(index, index + 1)));
  assert.equal(parser.pending, 0);
  return replies;
}

describe('RESP2 replies', () => {
  const cases: Array<[string, string, RespValue]> = [
    ['simple string', '+PONG\r\n', 'PONG'],
    ['bulk string', '$5\r\nhello\r\n', 'hello'],
    ['empty bulk string', '$0\r\n\r\n', ''],
    ['bulk string with CRLF inside', '$4\r\na\r\nb\r\n', 'a\r\nb'],
    ['UTF-8 bulk string', `$${Buffer.byteLength('héllo')}\r\nhéllo\r\n`, 'héllo'],
    ['null bulk string', '$-1\r\n', null],
    ['integer', ':42\r\n', 42],
    ['negative integer', ':-7\r\n', -7],
    ['integer beyond 2^53 keeps its digits', ':9223372036854775807\r\n', '9223372036854775807'],
    ['array', '*3\r\n$1\r\na\r\n:2\r\n$-1\r\n', ['a', 2, null]],
    ['empty array', '*0\r\n', []],
    ['null array', '*-1\r\n', null],
    ['nested array', '*2\r\n*1\r\n+x\r\n*0\r\n', [['x'], []]],
  ];
  for (const [name, bytes, expected] of cases) {
    test(name, () => {
      assert.deepEqual(parseAll(bytes), [expected]);
      assert.deepEqual(byteByByte(bytes), [expected], 'the same reply, fed one byte at a time');
    });
  }

  test('an error reply is a RespError with its code', () => {
    const [reply] = parseAll('-WRONGTYPE Operation against a key holding the wrong kind of value\r\n');
    assert.ok(reply instanceof RespError);
    assert.equal(reply.code, 'WRONGTYPE');
    assert.equal(reply.message, 'WRONGTYPE Operation against a key holding the wrong kind of value');
    const [lower] = parseAll('-something odd\r\n');
    assert.ok(lower instanceof RespError);
    assert.equal(lower.code, 'ERR', 'a message without a code word reads as ERR');
  });

  test('several replies in one chunk, and one cut across chunks', () => {
    const parser = new RespParser(1024);
    assert.deepEqual(parser.push(Buffer.from('+OK\r\n:1\r\n$3\r\nab')), ['OK', 1]);
    assert.equal(parser.pending, 6);
    assert.deepEqual(parser.push(Buffer.from('c\r\n*1\r\n')), ['abc']);
    assert.deepEqual(parser.push(Buffer.from('+z\r\n')), [['z']]);
  });

  test('a reply over the limit, a bad type byte, a bad length and deep nesting are protocol errors', () => {
    assert.throws(() => parseAll('$2000\r\n', 1024), (error: unknown) => error instanceof RespProtocolError && /over the limit of 1024 bytes/.test(error.reason));
    assert.throws(() => new RespParser(16).push(Buffer.from(`+${'x'.repeat(40)}`)), /over the limit of 16 bytes/);
    assert.throws(() => parseAll('!oops\r\n'), /unknown type/);
    assert.throws(() => parseAll('$abc\r\n'), /not a number/);
    assert.throws(() => parseAll(':1.5\r\n'), /not a number/);
    assert.throws(() => parseAll('$3\r\nabcXY'), /does not end with CRLF/);
    assert.throws(() => parseAll('*1\r\n'.repeat(40) + ':1\r\n'), /deeper than 32/);
  });
});

test('a command is an array of bulk strings, lengths in bytes', () => {
  assert.equal(encodeCommand(['SET', 'k', 'é v']).toString('utf8'), '*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$4\r\né v\r\n');
  assert.equal(encodeCommand([]).toString(), '*0\r\n');
});
