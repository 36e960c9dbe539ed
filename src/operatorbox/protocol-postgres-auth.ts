/**
 * The password computations of the Postgres client's authentication: the md5 digest (AuthenticationMD5Password)
 * and a SCRAM-SHA-256 client (RFC 5802 / RFC 7677, as PostgreSQL's SASL authentication uses it: no channel
 * binding, the user name left empty in the SCRAM messages because the server takes it from the startup packet).
 * The password is used as given (no SASLprep: a non-ASCII password must already be in NFKC form).
 */
import { createHash, createHmac, pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';

/** `md5` + hex(md5(hex(md5(password + user)) + salt)): what AuthenticationMD5Password asks for. */
export function md5PasswordDigest(user: string, password: string, salt: Buffer): string {
  const inner = createHash('md5').update(password, 'utf8').update(user, 'utf8').digest('hex');
  return 'md5' + createHash('md5').update(inner, 'utf8').update(salt).digest('hex');
}

/** A SCRAM failure; `reason` names the step, never the password or a nonce. */
export class ScramError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ScramError';
  }
}

function hmac(key: Buffer, text: string): Buffer {
  return createHmac('sha256', key).update(text, 'utf8').digest();
}

function saltedPassword(password: string, salt: Buffer, iterations: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    pbkdf2(password, salt, iterations, 32, 'sha256', (error, key) => (error === null ? resolve(key) : reject(error)));
  });
}

/** The attributes of a SCRAM message `a=...,b=...` (values may hold `=`). */
function attributes(message: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of message.split(',')) {
    const at = part.indexOf('=');
    if (at === 1) map.set(part.slice(0, 1), part.slice(2));
  }
  return map;
}

/** The most PBKDF2 iterations the client accepts from a server (PostgreSQL's default is 4,096). */
const MAX_ITERATIONS = 1_000_000;

/**
 * One SCRAM-SHA-256 exchange: `clientFirst()` → the server's first message into `clientFinal()` → the server's
 * final message into `verifyServerFinal()`, which throws unless the server proved it knows the password too.
 * `nonce` and `user` are for tests (RFC 7677's example); PostgreSQL's exchange leaves the user empty.
 */
export class ScramSha256Client {
  private readonly clientNonce: string;
  private readonly clientFirstBare: string;
  private serverSignature: Buffer | undefined;

  constructor(
    private readonly password: string,
    nonce: string = randomBytes(18).toString('base64'),
    user = '',
  ) {
    this.clientNonce = nonce;
    this.clientFirstBare = `n=${user.replace(/=/g, '=3D').replace(/,/g, '=2C')},r=${nonce}`;
  }

  /** The client-first-message (GS2 header `n,,`: no channel binding). */
  clientFirst(): string {
    return `n,,${this.clientFirstBare}`;
  }

  /** The client-final-message for the server-first-message `serverFirst`. */
  async clientFinal(serverFirst: string): Promise<string> {
    const fields = attributes(serverFirst);
    const nonce = fields.get('r');
    const salt = fields.get('s');
    const iterations = Number(fields.get('i'));
    if (nonce === undefined || !nonce.startsWith(this.clientNonce) || nonce.length === this.clientNonce.length) throw new ScramError('the server\'s SCRAM nonce does not extend the client\'s');
    if (salt === undefined || salt === '') throw new ScramError('the server\'s SCRAM message has no salt');
    if (!Number.isInteger(iterations) || iterations < 1 || iterations > MAX_ITERATIONS) throw new ScramError('the server\'s SCRAM iteration count is not an integer from 1 to 1,000,000');
    const salted = await saltedPassword(this.password, Buffer.from(salt, 'base64'), iterations);
    const clientKey = hmac(salted, 'Client Key');
    const storedKey = createHash('sha256').update(clientKey).digest();
    const withoutProof = `c=biws,r=${nonce}`;
    const authMessage = `${this.clientFirstBare},${serverFirst},${withoutProof}`;
    const clientSignature = hmac(storedKey, authMessage);
    const proof = Buffer.alloc(clientKey.length);
    for (let index = 0; index < proof.length; index += 1) proof[index] = (clientKey[index] ?? 0) ^ (clientSignature[index] ?? 0);
    this.serverSignature = hmac(hmac(salted, 'Server Key'), authMessage);
    return `${withoutProof},p=${proof.toString('base64')}`;
  }

  /** Checks the server-final-message's `v=` against the expected server signature. */
  verifyServerFinal(serverFinal: string): void {
    const fields = attributes(serverFinal);
    const error = fields.get('e');
    if (error !== undefined) throw new ScramError(`the server ended SCRAM with the error "${error.slice(0, 40)}"`);
    const expected = this.serverSignature;
    const given = Buffer.from(fields.get('v') ?? '', 'base64');
    if (expected === undefined) throw new ScramError('the server sent its final SCRAM message before the client\'s');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new ScramError('the server\'s SCRAM signature is wrong (it does not know the password)');
  }
}
