/**
 * A small DER (ASN.1 Distinguished Encoding Rules) encoder: just the types an X.509 certificate needs. Every
 * function returns the complete encoding (tag, length, contents) of one value; constructed values take the
 * encodings of their members. Nothing here parses: reading certificates is node:crypto's `X509Certificate`.
 */

/** Tag, definite length (short form below 128 bytes, long form otherwise), contents. */
export function tlv(tag: number, contents: Uint8Array): Buffer {
  const length = contents.length;
  let header: number[];
  if (length < 0x80) header = [tag, length];
  else {
    const bytes: number[] = [];
    for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
    header = [tag, 0x80 | bytes.length, ...bytes];
  }
  return Buffer.concat([Buffer.from(header), contents]);
}

export function sequence(...members: Uint8Array[]): Buffer {
  return tlv(0x30, Buffer.concat(members));
}

export function set(...members: Uint8Array[]): Buffer {
  return tlv(0x31, Buffer.concat(members));
}

/** A context-specific constructed wrapper (`[n] EXPLICIT`). */
export function explicit(tagNumber: number, inner: Uint8Array): Buffer {
  return tlv(0xa0 | tagNumber, inner);
}

/** A context-specific primitive value (`[n] IMPLICIT` over a primitive type such as IA5String). */
export function implicitPrimitive(tagNumber: number, contents: Uint8Array): Buffer {
  return tlv(0x80 | tagNumber, contents);
}

export function boolean(value: boolean): Buffer {
  return tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
}

export function nullValue(): Buffer {
  return tlv(0x05, Buffer.alloc(0));
}

/** A non-negative INTEGER from its big-endian magnitude, in the minimal two's-complement form DER requires. */
export function unsignedInteger(magnitude: Uint8Array): Buffer {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start += 1;
  const trimmed = Buffer.from(magnitude.subarray(start));
  const body = trimmed.length === 0 ? Buffer.from([0]) : (trimmed[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed;
  return tlv(0x02, body);
}

export function smallInteger(value: number): Buffer {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`DER integer must be a non-negative safe integer, got ${value}`);
  const bytes: number[] = [];
  for (let rest = value; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return unsignedInteger(Buffer.from(bytes));
}

/** An OBJECT IDENTIFIER from its dotted form (`2.5.4.3`). */
export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map((arc) => {
    if (!/^\d+$/.test(arc)) throw new RangeError(`not an object identifier: ${dotted}`);
    return Number(arc);
  });
  const [first, second, ...rest] = arcs;
  if (first === undefined || second === undefined || first > 2) throw new RangeError(`not an object identifier: ${dotted}`);
  const bytes: number[] = [];
  for (const arc of [first * 40 + second, ...rest]) {
    const groups: number[] = [arc % 128];
    for (let value = Math.floor(arc / 128); value > 0; value = Math.floor(value / 128)) groups.unshift((value % 128) | 0x80);
    bytes.push(...groups);
  }
  return tlv(0x06, Buffer.from(bytes));
}

export function utf8String(text: string): Buffer {
  return tlv(0x0c, Buffer.from(text, 'utf8'));
}

export function octetString(contents: Uint8Array): Buffer {
  return tlv(0x04, contents);
}

/** A BIT STRING of whole bytes (no unused bits), as a signature or a public key is carried. */
export function bitString(contents: Uint8Array): Buffer {
  return tlv(0x03, Buffer.concat([Buffer.from([0]), contents]));
}

/**
 * A BIT STRING of named bits (bit 0 first, the most significant bit of the first byte), trailing zero bits removed
 * as DER requires for named-bit lists such as KeyUsage.
 */
export function namedBits(bits: readonly number[]): Buffer {
  if (bits.length === 0) return tlv(0x03, Buffer.from([0]));
  const highest = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(highest / 8) + 1);
  for (const bit of bits) bytes[Math.floor(bit / 8)] = (bytes[Math.floor(bit / 8)] ?? 0) | (0x80 >> bit % 8);
  const unused = 7 - (highest % 8);
  return tlv(0x03, Buffer.concat([Buffer.from([unused]), bytes]));
}

function two(value: number): string {
  return String(value).padStart(2, '0');
}

/** A certificate validity time: UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5), to the second. */
export function time(at: Date): Buffer {
  const year = at.getUTCFullYear();
  const rest = `${two(at.getUTCMonth() + 1)}${two(at.getUTCDate())}${two(at.getUTCHours())}${two(at.getUTCMinutes())}${two(at.getUTCSeconds())}Z`;
  if (year >= 1950 && year < 2050) return tlv(0x17, Buffer.from(`${two(year % 100)}${rest}`, 'ascii'));
  return tlv(0x18, Buffer.from(`${String(year).padStart(4, '0')}${rest}`, 'ascii'));
}

/** PEM armour: base64 in lines of 64 characters between BEGIN and END lines. */
export function pem(label: string, der: Uint8Array): string {
  const base64 = Buffer.from(der).toString('base64');
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
