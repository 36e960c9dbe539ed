/**
 * RESP2, the Redis serialisation protocol (https://redis.io/docs/latest/develop/reference/protocol-spec/): a
 * command is sent as an array of bulk strings; a reply is read with an incremental parser that takes the bytes as
 * they arrive (in any fragments) and yields each complete reply.
 *
 * Replies: a simple string (`+`) or a bulk string (`$`) is a string (UTF-8), a null bulk string or null array is
 * `null`, an integer (`:`) is a number (text of its digits when beyond 2^53, so no digit is lost), an error (`-`)
 * is a {@link RespError}, an array (`*`) an array of replies. A reply over `maxReplyBytes`, nested deeper than 32
 * arrays, or not RESP2 is a {@link RespProtocolError}: the connection it came on cannot be trusted any more.
 */

/** An error reply of the server (`-WRONGTYPE Operation against a key…`). */
export class RespError {
  constructor(readonly message: string) {}

  /** The error's code, its first word (`ERR`, `WRONGTYPE`, `NOAUTH`…): a fixed word, safe to show. */
  get code(): string {
    const word = /^[A-Z][A-Z_-]{0,30}(?=\s|$)/.exec(this.message)?.[0];
    return word ?? 'ERR';
  }
}

export type RespValue = string | number | null | RespError | RespValue[];

/** The bytes were not RESP2, or a reply broke a limit: the connection is unusable. */
export class RespProtocolError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'RespProtocolError';
  }
}

const CRLF = '\r\n';
const MAX_DEPTH = 32;

/** Encodes one command (`['GET', 'key']`) as a RESP2 array of bulk strings. */
export function encodeCommand(args: readonly string[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}${CRLF}`)];
  for (const arg of args) {
    const bytes = Buffer.from(arg, 'utf8');
    parts.push(Buffer.from(`$${bytes.length}${CRLF}`), bytes, Buffer.from(CRLF));
  }
  return Buffer.concat(parts);
}

/** A reply read from `at`, and where the next one starts; undefined when the bytes end before it does. */
type Parsed = { readonly value: RespValue; readonly end: number } | undefined;

/** Reads replies from a stream of bytes fed in any fragments. */
export class RespParser {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(private readonly maxReplyBytes: number) {}

  /** Adds `chunk`; returns the replies it completed, in order. Throws a RespProtocolError (see the module comment). */
  push(chunk: Buffer): RespValue[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const replies: RespValue[] = [];
    for (;;) {
      if (this.buffer.length === 0) return replies;
      const parsed = this.parse(0, 0);
      if (parsed === undefined) {
        if (this.buffer.length > this.maxReplyBytes) throw new RespProtocolError(`the reply is over the limit of ${this.maxReplyBytes} bytes`);
        return replies;
      }
      replies.push(parsed.value);
      this.buffer = this.buffer.subarray(parsed.end);
    }
  }

  /** Bytes received and not yet part of a complete reply. */
  get pending(): number {
    return this.buffer.length;
  }

  private line(at: number): { readonly text: string; readonly end: number } | undefined {
    const cr = this.buffer.indexOf(CRLF, at, 'latin1');
    if (cr === -1) {
      if (this.buffer.length - at > 64 * 1024) throw new RespProtocolError('a reply line is longer than 64 KiB');
      return undefined;
    }
    return { text: this.buffer.toString('utf8', at, cr), end: cr + 2 };
  }

  private parse(at: number, depth: number): Parsed {
    if (at >= this.buffer.length) return undefined;
    const type = String.fromCharCode(this.buffer[at] ?? 0);
    const line = this.line(at + 1);
    if (line === undefined) return undefined;
    switch (type) {
      case '+':
        return { value: line.text, end: line.end };
      case '-':
        return { value: new RespError(line.text), end: line.end };
      case ':':
        return { value: integer(line.text), end: line.end };
      case '$':
        return this.bulk(line.text, line.end);
      case '*':
        return this.array(line.text, line.end, depth);
      default:
        throw new RespProtocolError(`the server sent a reply of unknown type (byte ${this.buffer[at] ?? 0})`);
    }
  }

  private bulk(header: string, start: number): Parsed {
    const length = count(header);
    if (length === -1) return { value: null, end: start };
    if (length > this.maxReplyBytes) throw new RespProtocolError(`the reply is over the limit of ${this.maxReplyBytes} bytes`);
    const end = start + length;
    if (this.buffer.length < end + 2) return undefined;
    if (this.buffer[end] !== 13 || this.buffer[end + 1] !== 10) throw new RespProtocolError('a bulk string does not end with CRLF');
    return { value: this.buffer.toString('utf8', start, end), end: end + 2 };
  }

  private array(header: string, start: number, depth: number): Parsed {
    const length = count(header);
    if (length === -1) return { value: null, end: start };
    if (depth >= MAX_DEPTH) throw new RespProtocolError(`the reply nests arrays deeper than ${MAX_DEPTH}`);
    // Every element takes 3 bytes at least: a count this large cannot fit the limit.
    if (length * 3 > this.maxReplyBytes) throw new RespProtocolError(`the reply is over the limit of ${this.maxReplyBytes} bytes`);
    const items: RespValue[] = [];
    let at = start;
    for (let index = 0; index < length; index += 1) {
      const item = this.parse(at, depth + 1);
      if (item === undefined) return undefined;
      items.push(item.value);
      at = item.end;
    }
    return { value: items, end: at };
  }
}

function count(text: string): number {
  if (!/^(-1|\d{1,10})$/.test(text)) throw new RespProtocolError('a length in the reply is not a number');
  return Number(text);
}

function integer(text: string): number | string {
  if (!/^-?\d{1,20}$/.test(text)) throw new RespProtocolError('an integer reply is not a number');
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text.replace(/^(-?)0+(?=\d)/, '$1');
}
