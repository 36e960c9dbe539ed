/**
 * TypeBox schema of an external call as katalog.dev/v1 writes it (Orkestra's documents are lifted into it by
 * orkestra-lift-external.ts). Used by schema-operator-box.ts for `operatorBox.external`, `preReconcile.external`
 * and each gate's `external`. Built from the conditions schema it is given (schema-operator-box.ts owns it, and
 * imports this module).
 */
import Type from 'typebox';
import { EXTERNAL_METHODS, EXTERNAL_PROTOCOLS, MAX_EXTERNAL_MAX_BYTES, MAX_EXTERNAL_POOL_SIZE } from './external-types.js';

/** A call's own retry within the cycle; the fields left out take Orkestra's defaults (500ms, 30s, 2, 3). */
export const ExternalRetrySchema = Type.Object(
  {
    initial: Type.Optional(Type.String({ minLength: 1, description: 'The first wait after a failed attempt (default 500ms).' })),
    max: Type.Optional(Type.String({ minLength: 1, description: 'The longest wait (default 30s).' })),
    multiplier: Type.Optional(Type.Number({ minimum: 1, description: 'Each wait is the last times this (default 2).' })),
    maxAttempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Attempts in all, the first included (default 3).' })),
  },
  { additionalProperties: false },
);

export const ExternalAuthSchema = Type.Object(
  {
    secretRef: Type.Object(
      {
        name: Type.String({ minLength: 1, description: 'The Secret holding the credential.' }),
        namespace: Type.Optional(Type.String({ minLength: 1, description: "Its namespace (default: the custom resource's)." })),
        key: Type.String({ minLength: 1, description: 'The data key of the credential.' }),
      },
      { additionalProperties: false },
    ),
    header: Type.Optional(Type.String({ minLength: 1, description: 'Header to send it in (default: Authorization, as "Bearer <credential>").' })),
  },
  { additionalProperties: false },
);

/** The schema of a list of calls whose `when`/`anyOf` follow `conditions`. */
export function externalCallsSchema<C extends Type.TSchema>(conditions: C) {
  const call = Type.Object(
  {
    name: Type.String({ minLength: 1, pattern: '^[A-Za-z_][A-Za-z0-9_-]*$', description: 'The key of the result under .external.' }),
    protocol: Type.Optional(
      Type.Enum([...EXTERNAL_PROTOCOLS], {
        description: 'http (default), prometheus (an instant query: GET <url>/api/v1/query?query=<query>), or redis, postgres, mongo, kafka (made by a protocol client: built in, or the host\'s externalProtocols option).',
      }),
    ),
    url: Type.String({ minLength: 1, description: 'http:// or https:// URL (a template); for prometheus, the server\'s base URL; for the other protocols, the connection string.' }),
    query: Type.Optional(Type.String({ minLength: 1, description: 'A template: PromQL (prometheus), a command line (redis), SQL (postgres), "db.collection [filter]" (mongo), "group/topic" or "@topic" (kafka); not for http.' })),
    poolSize: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_EXTERNAL_POOL_SIZE, description: 'Most connections per server (redis, postgres, mongo, kafka; default: the client\'s, 2 for redis).' })),
    method: Type.Optional(Type.Enum([...EXTERNAL_METHODS], { description: 'Default GET.' })),
    headers: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Request headers (values are templates).' })),
    body: Type.Optional(Type.String({ description: 'Request body (a template).' })),
    timeout: Type.Optional(Type.String({ minLength: 1, description: 'Request to last byte (default 5s).' })),
    maxResponseBytes: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_EXTERNAL_MAX_BYTES, description: 'Largest response body accepted (default 65536); a larger one fails the call.' })),
    expectedStatus: Type.Optional(Type.Integer({ minimum: 100, maximum: 599, description: 'The status meaning success (default: any 2xx).' })),
    continueOnError: Type.Optional(Type.Boolean({ description: 'true: a failed call sets .external.<name>.error and the cycle goes on (default false: the cycle fails and is retried).' })),
    cacheFor: Type.Optional(Type.String({ minLength: 1, description: 'Reuse a result of the same request for this long.' })),
    auth: Type.Optional(ExternalAuthSchema),
    sleep: Type.Optional(Type.String({ minLength: 1, description: 'A delay before each request of this call (at most 5m).' })),
    retryBackoff: Type.Optional(ExternalRetrySchema),
    fires: Type.Optional(
      Type.Object({ reconcile: Type.Optional(Type.Boolean({ description: 'false: the call is not made at reconcile (its result reads called: "false").' })) }, { additionalProperties: false }),
    ),
    when: Type.Optional(conditions),
    anyOf: Type.Optional(conditions),
  },
  { additionalProperties: false },
  );
  return Type.Array(call, { description: 'HTTP calls, Prometheus queries and protocol clients\' calls whose results templates and conditions read as .external.<name>.' });
}
