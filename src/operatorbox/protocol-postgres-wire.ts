/**
 * The PostgreSQL frontend/backend protocol, version 3.0, as bytes: the frontend messages the Postgres client sends
 * and an incremental reader that cuts the server's byte stream into messages however TCP fragments or joins them.
 * Pure: no socket, no I/O. Message formats: PostgreSQL's "Message Formats" chapter (protocol-message-formats).
 */

/** One backend message: its type byte as a character and its body (the length word removed). */
export interface BackendMessage {
  readonly type: string;
  readonly body: Buffer;
}

/** The protocol version word of the StartupMessage: 3.0. */
const PROTOCOL_3_0 = 196_608;
/** The SSLRequest and CancelRequest codes, sent where a StartupMessage's version word would be. */
const SSL_REQUEST_CODE = 80_877_103;
const CANCEL_REQUEST_CODE = 80_877_102;

function cstring(text: string): Buffer {
  return Buffer.concat([Buffer.from(text, 'utf8'), Buffer.alloc(1)]);
}

/** A typed frontend message: type byte, int32 length (itself included), body. */
function typed(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/** An untyped message (StartupMessage, SSLRequest, CancelRequest): int32 length, then the body. */
function untyped(body: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeInt32BE(body.length + 4, 0);
  return Buffer.concat([head, body]);
}

function int32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value, 0);
  return buffer;
}

function int16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeInt16BE(value, 0);
  return buffer;
}

/** StartupMessage with the given parameters (`user` first; empty values are left out). */
export function startupMessage(parameters: Readonly<Record<string, string>>): Buffer {
  const pairs = Object.entries(parameters).filter(([, value]) => value !== '');
  return untyped(Buffer.concat([int32(PROTOCOL_3_0), ...pairs.flatMap(([key, value]) => [cstring(key), cstring(value)]), Buffer.alloc(1)]));
}

/** SSLRequest: the server answers one byte, `S` (go on with TLS) or `N` (plain only). */
export function sslRequestMessage(): Buffer {
  return untyped(int32(SSL_REQUEST_CODE));
}

/** CancelRequest for the backend `processId` with its `secretKey` (from BackendKeyData), on a new connection. */
export function cancelRequestMessage(processId: number, secretKey: number): Buffer {
  return untyped(Buffer.concat([int32(CANCEL_REQUEST_CODE), int32(processId), int32(secretKey)]));
}

/** PasswordMessage: a cleartext password or an md5 digest. */
export function passwordMessage(password: string): Buffer {
  return typed('p', cstring(password));
}

/** SASLInitialResponse: the chosen mechanism and the client-first-message. */
export function saslInitialResponseMessage(mechanism: string, data: Buffer): Buffer {
  return typed('p', Buffer.concat([cstring(mechanism), int32(data.length), data]));
}

/** SASLResponse: the client-final-message. */
export function saslResponseMessage(data: Buffer): Buffer {
  return typed('p', data);
}

/**
 * The extended-query messages for one statement without parameters, results in text format:
 * Parse (unnamed statement), Bind (unnamed portal, no parameters, every column as text), Describe (portal),
 * Execute (all rows), Sync. The server parses the text as one statement: a second one is a syntax error.
 */
export function extendedQueryMessages(sql: string): Buffer {
  return Buffer.concat([
    typed('P', Buffer.concat([cstring(''), cstring(sql), int16(0)])),
    typed('B', Buffer.concat([cstring(''), cstring(''), int16(0), int16(0), int16(1), int16(0)])),
    typed('D', Buffer.concat([Buffer.from('P', 'latin1'), cstring('')])),
    typed('E', Buffer.concat([cstring(''), int32(0)])),
    typed('S', Buffer.alloc(0)),
  ]);
}

/** Terminate: the polite end of a session. */
export function terminateMessage(): Buffer {
  return typed('X', Buffer.alloc(0));
}

/** A protocol violation or a message over the size limit; `reason` names no data. */
export class PostgresWireError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'PostgresWireError';
  }
}

/**
 * Cuts a byte stream into backend messages. `push` takes chunks of any size (a message split over many chunks, or
 * many messages in one); `take` returns the complete messages read so far. A length word under 4 or over
 * `maxMessageBytes` is a {@link PostgresWireError}.
 */
export class BackendReader {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly ready: BackendMessage[] = [];

  constructor(private readonly maxMessageBytes: number) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    let offset = 0;
    while (this.buffer.length - offset >= 5) {
      const length = this.buffer.readInt32BE(offset + 1);
      if (length < 4) throw new PostgresWireError(`the server sent a message with the invalid length ${length}`);
      if (length - 4 > this.maxMessageBytes) throw new PostgresWireError(`the server sent a message of ${length - 4} bytes, over the limit of ${this.maxMessageBytes} (is it a PostgreSQL server?)`);
      if (this.buffer.length - offset < length + 1) break;
      const type = String.fromCharCode(this.buffer[offset] ?? 0);
      this.ready.push({ type, body: this.buffer.subarray(offset + 5, offset + 1 + length) });
      offset += length + 1;
    }
    this.buffer = offset === this.buffer.length ? Buffer.alloc(0) : this.buffer.subarray(offset);
  }

  /** The complete messages read so far, oldest first; they are removed from the reader. */
  take(): BackendMessage[] {
    return this.ready.splice(0, this.ready.length);
  }

  /** Bytes received that do not yet make a whole message. */
  get pending(): number {
    return this.buffer.length;
  }
}

/** Reads a NUL-terminated string at `offset`; returns it and the offset after the NUL. */
function readCString(body: Buffer, offset: number): [string, number] {
  const end = body.indexOf(0, offset);
  if (end < 0) throw new PostgresWireError('the server sent a string without its terminating NUL');
  return [body.toString('utf8', offset, end), end + 1];
}

function need(body: Buffer, offset: number, bytes: number, what: string): void {
  if (offset + bytes > body.length) throw new PostgresWireError(`the server sent a truncated ${what}`);
}

/** One column of a RowDescription: its name and its type's OID. */
export interface ColumnDescription {
  readonly name: string;
  readonly typeOid: number;
}

/** RowDescription ('T') → the columns, in order. */
export function parseRowDescription(body: Buffer): ColumnDescription[] {
  need(body, 0, 2, 'RowDescription');
  const count = body.readInt16BE(0);
  const columns: ColumnDescription[] = [];
  let offset = 2;
  for (let index = 0; index < count; index += 1) {
    const [name, next] = readCString(body, offset);
    need(body, next, 18, 'RowDescription');
    columns.push({ name, typeOid: body.readUInt32BE(next + 6) });
    offset = next + 18;
  }
  return columns;
}

/** DataRow ('D') → each column's text, `null` for SQL NULL. */
export function parseDataRow(body: Buffer): (string | null)[] {
  need(body, 0, 2, 'DataRow');
  const count = body.readInt16BE(0);
  const values: (string | null)[] = [];
  let offset = 2;
  for (let index = 0; index < count; index += 1) {
    need(body, offset, 4, 'DataRow');
    const length = body.readInt32BE(offset);
    offset += 4;
    if (length < 0) {
      values.push(null);
      continue;
    }
    need(body, offset, length, 'DataRow');
    values.push(body.toString('utf8', offset, offset + length));
    offset += length;
  }
  return values;
}

/** ErrorResponse / NoticeResponse ('E' / 'N') → its fields by code letter (`S` severity, `C` SQLSTATE, `M`…). */
export function parseErrorFields(body: Buffer): ReadonlyMap<string, string> {
  const fields = new Map<string, string>();
  let offset = 0;
  while (offset < body.length && body[offset] !== 0) {
    const code = String.fromCharCode(body[offset] ?? 0);
    const [value, next] = readCString(body, offset + 1);
    fields.set(code, value);
    offset = next;
  }
  return fields;
}

/** An Authentication request ('R'): its kind word and the rest of the body. */
export interface AuthenticationRequest {
  readonly kind: number;
  readonly data: Buffer;
}

export function parseAuthentication(body: Buffer): AuthenticationRequest {
  need(body, 0, 4, 'Authentication message');
  return { kind: body.readInt32BE(0), data: body.subarray(4) };
}

/** The SASL mechanisms an AuthenticationSASL lists (NUL-terminated names, an empty one last). */
export function parseSaslMechanisms(data: Buffer): string[] {
  const names: string[] = [];
  let offset = 0;
  while (offset < data.length && data[offset] !== 0) {
    const [name, next] = readCString(data, offset);
    names.push(name);
    offset = next;
  }
  return names;
}

/** BackendKeyData ('K') → the process id and secret key a CancelRequest needs. */
export function parseBackendKeyData(body: Buffer): { readonly processId: number; readonly secretKey: number } {
  need(body, 0, 8, 'BackendKeyData');
  return { processId: body.readInt32BE(0), secretKey: body.readInt32BE(4) };
}
