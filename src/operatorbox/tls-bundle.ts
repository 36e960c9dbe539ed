/**
 * The key and certificates of a generated TLS Secret (docs/orkestra-compatibility.md#tls), as Orkestra makes them:
 * a CA of its own per Secret (self-signed, valid a day longer than the certificate) that signs a server certificate
 * with the common name and DNS names of the entry. katalog's keys are EC P-256 where Orkestra's are RSA 2048: the
 * same for every TLS client, and made in about a millisecond instead of a noticeable fraction of a second.
 *
 * Key generation runs on libuv's thread pool (`generateKeyPair`), so the reconcile's thread only encodes and signs.
 */
import { generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { createCertificate } from '../util/x509.js';

const generate = promisify(generateKeyPair);

/** What the Secret holds: `tls.crt`, `tls.key`, `ca.crt` (PEM texts). */
export interface TlsBundle {
  readonly certificate: string;
  readonly privateKey: string;
  readonly caCertificate: string;
}

export interface TlsRequest {
  readonly commonName: string;
  readonly dnsNames: readonly string[];
  /** The server certificate's lifetime, in milliseconds. */
  readonly validForMs: number;
  /** Now, in milliseconds since the epoch. */
  readonly now: number;
}

/** The CA's name, the organisation of both certificates. */
export const CA_COMMON_NAME = 'katalog-ca';
export const ORGANIZATION = 'katalog';
/** How far back both certificates start, for clocks a little behind (Orkestra's 5 minutes). */
export const CLOCK_SKEW_MS = 5 * 60_000;
const CA_EXTRA_MS = 24 * 3_600_000;

async function ecKeyPair(): Promise<{ publicKey: KeyObject; privateKey: KeyObject }> {
  return generate('ec', { namedCurve: 'P-256' });
}

/** Generates a CA and a server certificate it signs. */
export async function generateTlsBundle(request: TlsRequest): Promise<TlsBundle> {
  const [ca, server] = await Promise.all([ecKeyPair(), ecKeyPair()]);
  const notBefore = new Date(request.now - CLOCK_SKEW_MS);
  const caName = { organization: ORGANIZATION, commonName: CA_COMMON_NAME };
  const caCertificate = createCertificate({
    subject: caName,
    issuer: caName,
    notBefore,
    notAfter: new Date(request.now + request.validForMs + CA_EXTRA_MS),
    publicKey: ca.publicKey,
    issuerPublicKey: ca.publicKey,
    signingKey: ca.privateKey,
    isCA: true,
    keyUsage: ['digitalSignature', 'keyCertSign', 'cRLSign'],
  });
  const certificate = createCertificate({
    subject: { organization: ORGANIZATION, commonName: request.commonName },
    issuer: caName,
    notBefore,
    notAfter: new Date(request.now + request.validForMs),
    publicKey: server.publicKey,
    issuerPublicKey: ca.publicKey,
    signingKey: ca.privateKey,
    isCA: false,
    keyUsage: ['digitalSignature'],
    extendedKeyUsage: ['serverAuth'],
    altNames: request.dnsNames,
  });
  return {
    certificate: certificate.pem,
    privateKey: server.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    caCertificate: caCertificate.pem,
  };
}
