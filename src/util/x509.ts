/**
 * X.509 v3 certificates written with the DER encoder of der.ts and signed with node:crypto (Node has no
 * certificate generator, and a library must not shell out to openssl). Only what a TLS server certificate and the
 * CA that signs it need: a subject of organisation + common name, a validity, DNS and IP subject alternative
 * names, basic constraints, key usage, extended key usage, subject and authority key identifiers. Keys are EC
 * P-256 (signed ECDSA with SHA-256) or RSA (signed PKCS #1 v1.5 with SHA-256).
 */
import { createHash, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import { bitString, boolean, explicit, implicitPrimitive, namedBits, nullValue, octetString, oid, pem, sequence, set, smallInteger, time, unsignedInteger, utf8String } from './der.js';

/** KeyUsage bits (RFC 5280 §4.2.1.3). */
export const KEY_USAGE = { digitalSignature: 0, keyEncipherment: 2, keyCertSign: 5, cRLSign: 6 } as const;
export type KeyUsageName = keyof typeof KEY_USAGE;

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  sha256WithRsa: '1.2.840.113549.1.1.11',
} as const;

export interface DistinguishedName {
  readonly organization?: string;
  readonly commonName: string;
}

export interface CertificateRequest {
  readonly subject: DistinguishedName;
  /** The issuer's name: the subject for a self-signed certificate. */
  readonly issuer: DistinguishedName;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** The certified key (public). */
  readonly publicKey: KeyObject;
  /** The issuer's private key, which signs. */
  readonly signingKey: KeyObject;
  /** The issuer's public key, for the authority key identifier (the subject's own key when self-signed). */
  readonly issuerPublicKey: KeyObject;
  readonly isCA: boolean;
  readonly keyUsage: readonly KeyUsageName[];
  readonly extendedKeyUsage?: ReadonlyArray<'serverAuth' | 'clientAuth'>;
  /** Subject alternative names: a name that is an IPv4/IPv6 address becomes an IP address entry, any other a DNS name. */
  readonly altNames?: readonly string[];
}

function name(dn: DistinguishedName): Buffer {
  const rdn = (type: string, value: string): Buffer => set(sequence(oid(type), utf8String(value)));
  return sequence(...(dn.organization === undefined ? [] : [rdn(OID.organization, dn.organization)]), rdn(OID.commonName, dn.commonName));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return sequence(oid(id), ...(critical ? [boolean(true)] : []), octetString(value));
}

/** The key identifier of RFC 5280 §4.2.1.2 method 1: SHA-1 of the subjectPublicKey bits. */
export function keyIdentifier(publicKey: KeyObject): Buffer {
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha1').update(subjectPublicKeyBits(spki)).digest();
}

/** The contents of the BIT STRING inside a SubjectPublicKeyInfo (after its unused-bits byte). */
function subjectPublicKeyBits(spki: Buffer): Buffer {
  const skip = (at: number): { start: number; end: number } => {
    const first = spki[at + 1] ?? 0;
    if (first < 0x80) return { start: at + 2, end: at + 2 + first };
    const count = first & 0x7f;
    let length = 0;
    for (let i = 0; i < count; i += 1) length = length * 256 + (spki[at + 2 + i] ?? 0);
    return { start: at + 2 + count, end: at + 2 + count + length };
  };
  const outer = skip(0);
  const algorithm = skip(outer.start);
  const key = skip(algorithm.end);
  return spki.subarray(key.start + 1, key.end);
}

function altName(entry: string): Buffer {
  const family = isIP(entry);
  if (family === 4) return implicitPrimitive(7, Buffer.from(entry.split('.').map(Number)));
  if (family === 6) return implicitPrimitive(7, ipv6Bytes(entry));
  return implicitPrimitive(2, Buffer.from(entry, 'ascii'));
}

function ipv6Bytes(address: string): Buffer {
  const [head = '', tail] = address.split('::');
  const words = (part: string): number[] => (part === '' ? [] : part.split(':').map((word) => Number.parseInt(word, 16)));
  const front = words(head);
  const back = tail === undefined ? [] : words(tail);
  const all = [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  const out = Buffer.alloc(16);
  all.forEach((word, i) => out.writeUInt16BE(word, i * 2));
  return out;
}

function signatureAlgorithm(key: KeyObject): Buffer {
  if (key.asymmetricKeyType === 'ec') return sequence(oid(OID.ecdsaWithSha256));
  if (key.asymmetricKeyType === 'rsa') return sequence(oid(OID.sha256WithRsa), nullValue());
  throw new RangeError(`certificates are signed with EC or RSA keys, not ${key.asymmetricKeyType ?? 'this key'}`);
}

/** A positive 128-bit serial number (RFC 5280 allows up to 20 octets). */
function serialNumber(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x01;
  return unsignedInteger(bytes);
}

/** Builds and signs one certificate; returns it in DER and PEM. */
export function createCertificate(request: CertificateRequest): { readonly der: Buffer; readonly pem: string } {
  const algorithm = signatureAlgorithm(request.signingKey);
  const extensions: Buffer[] = [];
  extensions.push(extension(OID.basicConstraints, true, request.isCA ? sequence(boolean(true)) : sequence()));
  extensions.push(extension(OID.keyUsage, true, namedBits(request.keyUsage.map((usage) => KEY_USAGE[usage]))));
  if (request.extendedKeyUsage !== undefined && request.extendedKeyUsage.length > 0) {
    extensions.push(extension(OID.extKeyUsage, false, sequence(...request.extendedKeyUsage.map((usage) => oid(OID[usage])))));
  }
  extensions.push(extension(OID.subjectKeyIdentifier, false, octetString(keyIdentifier(request.publicKey))));
  if (!request.isCA || request.issuerPublicKey !== request.publicKey) {
    extensions.push(extension(OID.authorityKeyIdentifier, false, sequence(implicitPrimitive(0, keyIdentifier(request.issuerPublicKey)))));
  }
  if (request.altNames !== undefined && request.altNames.length > 0) {
    extensions.push(extension(OID.subjectAltName, false, sequence(...request.altNames.map(altName))));
  }
  const tbs = sequence(
    explicit(0, smallInteger(2)),
    serialNumber(),
    algorithm,
    name(request.issuer),
    sequence(time(request.notBefore), time(request.notAfter)),
    name(request.subject),
    request.publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, sequence(...extensions)),
  );
  const signature = sign('sha256', tbs, request.signingKey);
  const der = sequence(tbs, algorithm, bitString(signature));
  return { der, pem: pem('CERTIFICATE', der) };
}
