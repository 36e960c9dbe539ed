/**
 * A throwaway self-signed certificate for `tls: true`. Node has no X.509 generator, so this shells out to
 * `openssl` (which must be on PATH); the key and certificate are written to a temporary directory that is removed
 * at once.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { KatalogError } from '../errors.js';
import type { TlsMaterial } from './http-listener.js';

const run = promisify(execFile);

/** Generates a key and a certificate valid for 127.0.0.1, ::1, localhost and `dnsNames`, for two days. */
export async function selfSignedCertificate(dnsNames: readonly string[] = []): Promise<TlsMaterial> {
  const dir = await mkdtemp(join(tmpdir(), 'katalog-testing-tls-'));
  try {
    const keyPath = join(dir, 'key.pem');
    const certPath = join(dir, 'cert.pem');
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=katalog-testing',
      '-addext',
      `subjectAltName=${['IP:127.0.0.1', 'IP:::1', 'DNS:localhost', ...dnsNames.map((name) => `DNS:${name}`)].join(',')}`,
      '-keyout',
      keyPath,
      '-out',
      certPath,
    ]);
    return { key: await readFile(keyPath, 'utf8'), cert: await readFile(certPath, 'utf8') };
  } catch (error) {
    throw new KatalogError('E_TESTING_TLS', `cannot generate a certificate for the test API server (tls: true needs openssl on PATH): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
