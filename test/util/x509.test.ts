// The DER encoder and certificate builder, checked by what OpenSSL (node:crypto's X509Certificate) reads back.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, generateKeyPairSync, createPrivateKey, createPublicKey } from 'node:crypto';
import { namedBits, oid, smallInteger, time, tlv, unsignedInteger } from '../../src/util/der.js';
import { createCertificate } from '../../src/util/x509.js';
import { generateTlsBundle } from '../../src/operatorbox/tls-bundle.js';

describe('DER', () => {
  test('lengths: short form below 128, long form above', () => {
    assert.deepEqual([...tlv(0x04, Buffer.alloc(127)).subarray(0, 2)], [0x04, 127]);
    assert.deepEqual([...tlv(0x04, Buffer.alloc(128)).subarray(0, 3)], [0x04, 0x81, 128]);
    assert.deepEqual([...tlv(0x04, Buffer.alloc(300)).subarray(0, 4)], [0x04, 0x82, 0x01, 0x2c]);
  });
  test('integers are minimal and positive', () => {
    assert.deepEqual([...smallInteger(0)], [0x02, 1, 0]);
    assert.deepEqual([...smallInteger(128)], [0x02, 2, 0, 0x80]);
    assert.deepEqual([...unsignedInteger(Buffer.from([0, 0, 0x7f]))], [0x02, 1, 0x7f]);
  });
  test('object identifiers (X.690 example and a multi-byte arc)', () => {
    assert.equal(oid('2.5.4.3').toString('hex'), '0603550403');
    assert.equal(oid('1.2.840.113549.1.1.11').toString('hex'), '06092a864886f70d01010b');
  });
  test('named bits drop trailing zeros', () => {
    assert.equal(namedBits([0]).toString('hex'), '03020780');
    assert.equal(namedBits([5, 6]).toString('hex'), '03020106');
    assert.equal(namedBits([0, 5, 6]).toString('hex'), '03020186');
  });
  test('UTCTime until 2049, GeneralizedTime from 2050', () => {
    assert.equal(time(new Date('2026-11-24T22:43:29Z')).subarray(2).toString(), '261124224329Z');
    assert.equal(time(new Date('2051-01-02T03:04:05Z')).subarray(2).toString(), '20510102030405Z');
  });
});

describe('createCertificate', () => {
  for (const type of ['ec', 'rsa'] as const) {
    test(`a self-signed ${type} certificate OpenSSL accepts`, () => {
      const { publicKey, privateKey } = type === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
      const notBefore = new Date(Date.now() - 60_000);
      const notAfter = new Date(Date.now() + 86_400_000);
      const made = createCertificate({
        subject: { organization: 'acme', commonName: 'web.shop.svc' },
        issuer: { organization: 'acme', commonName: 'web.shop.svc' },
        notBefore,
        notAfter,
        publicKey,
        issuerPublicKey: publicKey,
        signingKey: privateKey,
        isCA: true,
        keyUsage: ['keyCertSign'],
        altNames: ['web', 'web.shop.svc', '10.0.0.7', '::1'],
      });
      const cert = new X509Certificate(made.pem);
      assert.ok(cert.verify(publicKey));
      assert.ok(cert.ca);
      assert.equal(cert.subject, 'O=acme\nCN=web.shop.svc');
      assert.equal(cert.checkHost('web.shop.svc'), 'web.shop.svc');
      assert.equal(cert.checkIP('10.0.0.7'), '10.0.0.7');
      assert.equal(cert.checkIP('::1'), '::1');
      assert.equal(cert.checkHost('other.svc'), undefined);
      assert.equal(Date.parse(cert.validTo), Math.floor(notAfter.getTime() / 1000) * 1000);
      assert.equal(Date.parse(cert.validFrom), Math.floor(notBefore.getTime() / 1000) * 1000);
    });
  }
});

describe('generateTlsBundle', () => {
  test('a CA that signs a server certificate for the names; the key matches the certificate', async () => {
    const now = Date.now();
    const bundle = await generateTlsBundle({ commonName: 'api.demo.svc', dnsNames: ['api', 'api.demo', 'api.demo.svc'], validForMs: 90 * 86_400_000, now });
    const ca = new X509Certificate(bundle.caCertificate);
    const cert = new X509Certificate(bundle.certificate);
    assert.ok(ca.ca);
    assert.ok(!cert.ca);
    assert.ok(cert.checkIssued(ca));
    assert.ok(cert.verify(ca.publicKey));
    assert.ok(!cert.verify(createPublicKey(createPrivateKey(bundle.privateKey))));
    assert.ok(cert.checkPrivateKey(createPrivateKey(bundle.privateKey)));
    assert.match(cert.subject, /CN=api\.demo\.svc/);
    assert.equal(cert.checkHost('api.demo'), 'api.demo');
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.1']);
    const validFor = Date.parse(cert.validTo) - now;
    assert.ok(Math.abs(validFor - 90 * 86_400_000) < 2_000, `valid for ${validFor} ms`);
    assert.ok(Date.parse(ca.validTo) > Date.parse(cert.validTo));
    assert.ok(Date.parse(cert.validFrom) <= now - 4 * 60_000);
    assert.match(bundle.privateKey, /^-----BEGIN PRIVATE KEY-----\n/);
  });
});
