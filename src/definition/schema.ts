/**
 * TypeBox schemas of the definition documents (SPEC §2): Katalog, Komposer and Motif, and the CRD entry.
 * Single source of truth for the input shape; see schema-operator-box.ts for the operatorBox part.
 * `x-check` names a check our checker runs instead of `pattern` (for a better message); editors use `pattern`.
 */
import Type from 'typebox';
import { ConversionSchema } from './schema-conversion.js';
import { DeletionProtectionSchema, MutationBlockSchema, ValidationBlockSchema, WebhooksSchema } from './schema-admission.js';
import { ConditionSchema, ConditionsSchema, OperatorBoxSchema, StatusBlockSchema, TemplatePhaseSchema } from './schema-operator-box.js';
import { NotificationSchema, NotificationsSchema } from './notification-schema.js';

export const API_VERSIONS = ['katalog.dev/v1', 'orkestra.orkspace.io/v1'] as const;

/** A lowercase RFC 1123 label: what CRD names must be (they appear in URLs, metric labels and dependsOn). */
export const RFC1123_LABEL = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';

const ApiVersionSchema = Type.Enum([...API_VERSIONS], { description: 'katalog.dev/v1 (orkestra.orkspace.io/v1 is accepted too).' });

export const CrdNameSchema = Type.String({
  pattern: RFC1123_LABEL,
  maxLength: 63,
  'x-check': 'crd-name',
  description: 'A lowercase RFC 1123 label (a-z, 0-9, "-"; at most 63 characters).',
});

export const DurationSchema = Type.String({
  pattern: '^(0|(([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$',
  'x-check': 'duration',
  description: 'A Go duration: 30s, 1m30s, 2h, 500ms.',
});

const SelectorSchema = Type.Union([Type.String(), Type.Record(Type.String(), Type.String())], {
  description: 'A selector string (`a=b,c!=d`) or a map {key: value} (read as key=value, joined with commas).',
});

const MetadataSchema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    description: Type.Optional(Type.String()),
    namespace: Type.Optional(Type.String({ description: 'Informational (Orkestra grouping); not the watch scope.' })),
    author: Type.Optional(Type.String({ description: 'Informational.' })),
    version: Type.Optional(Type.Union([Type.String(), Type.Number()], { description: 'Informational.' })),
    license: Type.Optional(Type.String({ description: 'Informational.' })),
    tags: Type.Optional(Type.Array(Type.String(), { description: 'Informational.' })),
  },
  { additionalProperties: false },
);

export const ApiTypesSchema = Type.Object(
  {
    group: Type.Optional(Type.String({ description: 'API group; "" for the core group.' })),
    version: Type.Optional(Type.String({ minLength: 1 })),
    kind: Type.Optional(Type.String({ minLength: 1 })),
    plural: Type.Optional(Type.String({ minLength: 1 })),
    scope: Type.Optional(Type.Enum(['Namespaced', 'Cluster'], { description: 'Default Namespaced.' })),
  },
  { additionalProperties: false, description: 'group, version, kind, plural; for a built-in kind, kind alone.' },
);

/** `queue.behaviour.onLimit` / `onThreshold` (docs/settings.md#queue-behaviour). */
const queueRule = (threshold: boolean) =>
  Type.Object(
    {
      ...(threshold ? { value: Type.Integer({ minimum: 1, maximum: 100, description: 'Percentage of maxDepth from which the rule applies.' }) } : {}),
      drop: Type.Optional(Type.Boolean({ description: threshold ? 'Always true for onThreshold.' : 'Drop new keys at maxDepth; without it (and without conditions) keys wait past maxDepth.' })),
      when: Type.Optional(Type.Array(ConditionSchema, { description: 'Drop only when all hold over the custom resource.' })),
      anyOf: Type.Optional(Type.Array(ConditionSchema, { description: 'Drop only when one holds over the custom resource.' })),
    },
    { additionalProperties: false },
  );

const QueueBehaviourSchema = Type.Object(
  { onLimit: Type.Optional(queueRule(false)), onThreshold: Type.Optional(queueRule(true)) },
  { additionalProperties: false, description: 'What the queue does at maxDepth (onLimit) or a percentage of it (onThreshold). Needs maxDepth.' },
);

const QueueSchema = Type.Object(
  {
    maxDepth: Type.Optional(Type.Integer({ minimum: 1, description: 'Keys held at most; more are dropped until the next resync.' })),
    failureThreshold: Type.Optional(Type.Integer({ minimum: 1, description: 'Consecutive failures that make the CRD degraded.' })),
    maxQueueDepth: Type.Optional(Type.Integer({ minimum: 1, description: 'Alias of maxDepth.' })),
    degradeThreshold: Type.Optional(Type.Integer({ minimum: 1, description: 'Alias of failureThreshold.' })),
    retryBackoff: Type.Optional(
      Type.Object(
        {
          initial: Type.Optional(DurationSchema),
          max: Type.Optional(DurationSchema),
          multiplier: Type.Optional(Type.Number({ minimum: 1, description: 'Growth of the delay per failure. Default 2.' })),
          maxAttempts: Type.Optional(
            Type.Integer({ minimum: 1, description: 'Failures in a row (the first included) after which the key is no longer retried: a Warning Event, a metric, and it runs again on its next change or resync.' }),
          ),
        },
        { additionalProperties: false, description: "This CRD's backoff of failed reconciles: initial delay, cap (default: the runtime's), growth, attempts." },
      ),
    ),
    behaviour: Type.Optional(QueueBehaviourSchema),
  },
  { additionalProperties: false },
);

const DependencyConditionSchema = Type.Enum(['started', 'healthy'], { description: 'started (default) or healthy.' });

const DependsOnSchema = Type.Union(
  [
    Type.Array(CrdNameSchema),
    Type.Record(Type.String(), Type.Union([DependencyConditionSchema, Type.Object({ condition: Type.Optional(DependencyConditionSchema) }, { additionalProperties: false })])),
  ],
  { description: '[a, b], {a: healthy} or {a: {condition: healthy}}.' },
);

const MotifImportSchema = Type.Object(
  {
    motif: Type.String({ minLength: 1, description: 'Path of the Motif file, relative to this file.' }),
    with: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Values of the Motif\'s inputs.' })),
  },
  { additionalProperties: false },
);

/** `normalize` (Orkestra): fields under .spec replaced in memory by their template's value before each cycle. */
const NormalizeSchema = Type.Object(
  {
    spec: Type.Record(Type.String({ minLength: 1 }), Type.String(), { description: 'Dot path under .spec → template of its canonical value.' }),
    types: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.Enum(['string', 'int', 'integer', 'float', 'number', 'bool', 'boolean']), { description: 'Cast a field to this type (default: read the rendered text as YAML).' })),
    audit: Type.Optional(Type.Boolean({ description: 'Orkestra records the changes for its own inspection output; accepted, no effect.' })),
  },
  { additionalProperties: false },
);

/** The fields of a CRD entry. `apiTypes` is required in a Katalog; in a Komposer's inline overrides nothing is. */
function crdEntryProperties() {
  return {
    description: Type.Optional(Type.String()),
    apiTypes: ApiTypesSchema,
    crdFile: Type.Optional(Type.String({ minLength: 1, description: 'Path of the CustomResourceDefinition manifest, relative to this file.' })),
    enabled: Type.Optional(Type.Boolean({ description: 'Default true; false = validated, never started.' })),
    mode: Type.Optional(Type.Enum(['dynamic', 'typed'])),
    namespace: Type.Optional(Type.String({ minLength: 1, description: 'Watch only this namespace (default: all).' })),
    labelSelector: Type.Optional(SelectorSchema),
    labels: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.String(), { description: 'Labels written onto each custom resource every cycle (Orkestra); values may be templates.' })),
    fieldSelector: Type.Optional(SelectorSchema),
    normalize: Type.Optional(NormalizeSchema),
    conversion: Type.Optional(ConversionSchema),
    enrich: Type.Optional(
      Type.Array(
        Type.Union([
          Type.String({ minLength: 1 }),
          Type.Record(Type.String({ minLength: 1 }), Type.Object({ when: Type.Optional(ConditionsSchema), anyOf: Type.Optional(ConditionsSchema) }, { additionalProperties: false })),
        ]),
        { description: 'Data fetched beside the children for status fields (Orkestra): `pods`, or `{pods: {when, anyOf}}`.' },
      ),
    ),
    enrichAll: Type.Optional(Type.Boolean({ description: 'Fetch every enrich target katalog has (Orkestra).' })),
    workers: Type.Optional(Type.Integer({ minimum: 1 })),
    resync: Type.Optional(DurationSchema),
    queue: Type.Optional(QueueSchema),
    dependsOn: Type.Optional(DependsOnSchema),
    operatorBox: Type.Optional(OperatorBoxSchema),
    imports: Type.Optional(Type.Array(MotifImportSchema, { description: 'Motif imports: their resources join onCreate.' })),
    allowedNamespaces: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Reconcile only custom resources in these namespaces (wildcards kube-*, *-system); wins over restrictedNamespaces.' })),
    restrictedNamespaces: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Never reconcile custom resources in these namespaces (wildcards kube-*, *-system).' })),
    critical: Type.Optional(Type.Boolean({ description: 'When this CRD is degraded the runtime is not ready (/ready answers 503).' })),
    notifications: Type.Optional(NotificationsSchema),
    validation: Type.Optional(ValidationBlockSchema),
    mutation: Type.Optional(MutationBlockSchema),
    webhooks: Type.Optional(WebhooksSchema),
    deletionProtection: Type.Optional(DeletionProtectionSchema),
    crFiles: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Orkestra development input (custom resources for ork run); carried, never applied.' })),
    setup: Type.Optional(Type.Unknown({ description: 'Orkestra development input (prerequisites for ork run); carried, never applied.' })),
  };
}

const entryProperties = crdEntryProperties();
const overrideProperties = { ...entryProperties, apiTypes: Type.Optional(ApiTypesSchema) };

/** A CRD entry in map form (`name` may be repeated and must then equal the key). */
export const CrdEntrySchema = Type.Object({ ...entryProperties, name: Type.Optional(CrdNameSchema) }, { additionalProperties: false, 'x-describe': 'crd' });
/** A CRD entry in list form: `name` is required. */
export const CrdListEntrySchema = Type.Object({ ...entryProperties, name: CrdNameSchema }, { additionalProperties: false, 'x-describe': 'crd' });
/** A Komposer's inline entry: every field optional (unset fields inherit). */
export const CrdOverrideSchema = Type.Object({ ...overrideProperties, name: Type.Optional(CrdNameSchema) }, { additionalProperties: false, 'x-describe': 'crd' });
export const CrdOverrideListEntrySchema = Type.Object({ ...overrideProperties, name: CrdNameSchema }, { additionalProperties: false, 'x-describe': 'crd' });

const crdNames = { propertyNames: { type: 'string', pattern: RFC1123_LABEL, maxLength: 63, 'x-check': 'crd-name' } };

export const KatalogSchema = Type.Object(
  {
    apiVersion: ApiVersionSchema,
    kind: Type.Literal('Katalog'),
    metadata: MetadataSchema,
    spec: Type.Object(
      {
        finalizers: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Merged into every CRD\'s finalizers.' })),
        notification: Type.Optional(NotificationSchema),
        crds: Type.Union([Type.Record(Type.String(), CrdEntrySchema, crdNames), Type.Array(CrdListEntrySchema)], {
          description: 'CRDs by name (a map), or a list of entries each with a name.',
        }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, title: 'Katalog' },
);

const KomposerImportsSchema = Type.Object(
  { files: Type.Array(Type.String({ minLength: 1 }), { description: 'Katalog files, relative to this Komposer.' }) },
  { additionalProperties: false },
);

export const KomposerSchema = Type.Object(
  {
    apiVersion: ApiVersionSchema,
    kind: Type.Literal('Komposer'),
    metadata: MetadataSchema,
    spec: Type.Object(
      {
        finalizers: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
        notification: Type.Optional(NotificationSchema),
        imports: Type.Optional(KomposerImportsSchema),
        sources: Type.Optional(KomposerImportsSchema),
        crds: Type.Optional(
          Type.Union([Type.Record(Type.String(), CrdOverrideSchema, crdNames), Type.Array(CrdOverrideListEntrySchema)], {
            description: 'Inline entries: override imported entries field by field, or add CRDs.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, title: 'Komposer' },
);

export const MotifSchema = Type.Object(
  {
    apiVersion: ApiVersionSchema,
    kind: Type.Literal('Motif'),
    metadata: MetadataSchema,
    inputs: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String({ minLength: 1 }),
            required: Type.Optional(Type.Boolean()),
            default: Type.Optional(Type.Unknown()),
            description: Type.Optional(Type.String()),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    resources: Type.Optional(TemplatePhaseSchema),
    onReconcile: Type.Optional(TemplatePhaseSchema),
    onDelete: Type.Optional(TemplatePhaseSchema),
    status: Type.Optional(StatusBlockSchema),
    notifications: Type.Optional(NotificationsSchema),
  },
  { additionalProperties: false, title: 'Motif' },
);

export type CrdEntryInput = Type.Static<typeof CrdOverrideSchema>;
export type KatalogInput = Type.Static<typeof KatalogSchema>;
export type KomposerInput = Type.Static<typeof KomposerSchema>;
export type MotifInput = Type.Static<typeof MotifSchema>;
