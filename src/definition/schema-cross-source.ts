/**
 * TypeBox schema of `cross[].source` as katalog.dev/v1 writes it (Orkestra's documents keep the same keys; the
 * credential forms that read the environment or the document are refused by name in orkestra-lift-flow.ts).
 */
import Type from 'typebox';
import { CROSS_SOURCE_PROTOCOLS } from './cross-types.js';
import { MAX_EXTERNAL_MAX_BYTES } from './external-types.js';
import { ExternalAuthSchema } from './schema-external.js';

export const CrossSourceSchema = Type.Object(
  {
    endpoint: Type.Optional(Type.String({ minLength: 1, description: "A URL template: the other process's route, used as written." })),
    host: Type.Optional(Type.String({ minLength: 1, description: "The other Orkestra process's base URL; the route comes from protocol." })),
    protocol: Type.Optional(Type.Enum([...CROSS_SOURCE_PROTOCOLS], { description: 'cr, info (default), metrics, health or events: which route of host is read.' })),
    namespace: Type.Optional(Type.String({ minLength: 1, description: 'The namespace of cr and events routes (a template).' })),
    cacheFor: Type.Optional(Type.String({ minLength: 1, description: 'Reuse a successful answer this long (such as 30s).' })),
    timeout: Type.Optional(Type.String({ minLength: 1, description: 'Request to last byte (default 5s).' })),
    maxResponseBytes: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_EXTERNAL_MAX_BYTES, description: 'Largest answer accepted (default 65536).' })),
    auth: Type.Optional(ExternalAuthSchema),
  },
  { additionalProperties: false },
);
