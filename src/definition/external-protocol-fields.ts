/**
 * The fields of a client protocol's external call (`redis`, `postgres`, `mongo`, `kafka`), checked at load as
 * Orkestra's `ValidateCall` checks them (orkspace/orkestra `pkg/external/validate.go`): `query` is required, in
 * Orkestra's words with its example for each protocol, and `method`, `headers`, `body` and `expectedStatus` are
 * HTTP-only fields. katalog refuses two fields more, where Orkestra ignores them: `maxResponseBytes` (katalog's
 * HTTP limit; a protocol client has its own) and `auth.header` (the credential is the protocol's password, never a
 * header), so that nothing written is silently dropped. Each error sits at its field.
 */
import type { ClientProtocol } from './external-types.js';
import type { Loose } from './operator-box.js';
import type { Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';
import type { ExternalCallInput } from './schema-operator-box.js';

/** Orkestra's example of a `query` per protocol, as its error messages give it. */
const QUERY_EXAMPLE: Readonly<Record<ClientProtocol, string>> = {
  redis: ' (e.g. "GET mykey")',
  postgres: '',
  mongo: ' (e.g. "mydb.mycollection")',
  kafka: ' (e.g. "group/topic" or "@topic")',
};

export function checkClientProtocolFields(input: Loose<ExternalCallInput>, protocol: ClientProtocol, origin: Origin, at: Path, problems: ProblemList): void {
  if (input.query === undefined) problems.add(origin, [...at, 'query'], 'missing-field', `query is required for protocol: ${protocol}${QUERY_EXAMPLE[protocol]}`);
  const httpOnly = 'body, method, headers, and expectedStatus are HTTP-only fields';
  if (input.method !== undefined) problems.add(origin, [...at, 'method'], 'invalid-value', httpOnly);
  if (input.headers !== undefined) problems.add(origin, [...at, 'headers'], 'invalid-value', httpOnly);
  if (input.body !== undefined) problems.add(origin, [...at, 'body'], 'invalid-value', httpOnly);
  if (input.expectedStatus !== undefined) problems.add(origin, [...at, 'expectedStatus'], 'invalid-value', httpOnly);
  if (input.maxResponseBytes !== undefined) {
    problems.add(origin, [...at, 'maxResponseBytes'], 'invalid-value', `maxResponseBytes limits HTTP and Prometheus responses; a ${protocol} call's reply is bounded by its protocol client`);
  }
  if (input.auth?.header !== undefined) {
    problems.add(origin, [...at, 'auth', 'header'], 'invalid-value', `auth.header is HTTP only: a ${protocol} call gives the credential to its protocol client (the password), never in a header`);
  }
}
