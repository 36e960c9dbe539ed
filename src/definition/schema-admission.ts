/**
 * TypeBox schemas of a CRD entry's admission rules (docs/admission.md): `validation`, `mutation`, `webhooks` and
 * `deletionProtection`, in katalog's shape (Orkestra's shorthands are lifted into it by orkestra-lift-admission.ts).
 */
import Type from 'typebox';
import { ConditionsSchema, ExternalCallsSchema } from './schema-operator-box.js';

/** Comparisons of a validation rule, Orkestra's names. */
export const VALIDATION_OPERATORS = [
  'exists',
  'notExists',
  'equals',
  'notEquals',
  'prefix',
  'notPrefix',
  'suffix',
  'notSuffix',
  'contains',
  'notContains',
  'regex',
  'gt',
  'lt',
  'gte',
  'lte',
  'between',
  'notBetween',
  'in',
  'notIn',
  'unique',
] as const;

/** Long spellings accepted for the numeric comparisons. */
export const VALIDATION_OPERATOR_ALIASES: Readonly<Record<string, (typeof VALIDATION_OPERATORS)[number]>> = {
  eq: 'equals',
  neq: 'notEquals',
  greaterThan: 'gt',
  lessThan: 'lt',
  greaterThanOrEqual: 'gte',
  lessThanOrEqual: 'lte',
  min: 'gte',
  max: 'lte',
};

export const ADMISSION_OPERATIONS = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const;

const ValueTypeSchema = Type.Enum(['string', 'int', 'float', 'bool'], { description: 'Type of the value written (mutation) or compared.' });

const FiresSchema = Type.Object(
  {
    reconcile: Type.Optional(Type.Boolean({ description: 'false: admission only (default true).' })),
    admission: Type.Optional(Type.Boolean({ description: 'false: reconcile only (default true).' })),
  },
  { additionalProperties: false },
);

const ValidationRuleSchema = Type.Object(
  {
    field: Type.String({ minLength: 1, description: 'Dot path into the object (`spec.image`), or a template.' }),
    operator: Type.Optional(
      Type.Enum([...VALIDATION_OPERATORS, ...Object.keys(VALIDATION_OPERATOR_ALIASES)], { description: 'Default exists. between/notBetween take "min,max"; in/notIn a comma list.' }),
    ),
    value: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean()], { description: 'What the field is compared with; may be a template.' })),
    valueType: Type.Optional(ValueTypeSchema),
    message: Type.String({ minLength: 1, description: 'Shown to whoever is refused (and in the condition at reconcile time).' }),
    action: Type.Optional(Type.Enum(['deny', 'warn'], { description: 'deny (default): refuse; warn: a warning only.' })),
    when: Type.Optional(ConditionsSchema),
    anyOf: Type.Optional(ConditionsSchema),
    fires: Type.Optional(FiresSchema),
  },
  { additionalProperties: false },
);

const MutationRuleSchema = Type.Object(
  {
    field: Type.String({ minLength: 1, description: 'Dot path of the field to set (`spec.replicas`).' }),
    default: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean()], { description: 'Set when the field is absent or empty; may be a template.' })),
    override: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean()], { description: 'Always set (wins over default); may be a template.' })),
    valueType: Type.Optional(ValueTypeSchema),
    when: Type.Optional(ConditionsSchema),
    anyOf: Type.Optional(ConditionsSchema),
    fires: Type.Optional(FiresSchema),
  },
  { additionalProperties: false },
);

/** `external` of validation / mutation: external calls made before the rules, each with Orkestra's `fires`. */
const AdmissionCallsSchema = Type.Array(
  Type.Object(
    {
      ...ExternalCallsSchema.items.properties,
      fires: Type.Optional(
        Type.Object({ reconcile: Type.Optional(Type.Boolean({ description: 'false: made by the admission router only, not before reconcile-time validation.' })) }, { additionalProperties: false }),
      ),
    },
    { additionalProperties: false },
  ),
  { description: 'Calls made before the rules (admission router: within its deadline); the rules read .external.<name>.' },
);

export const ValidationBlockSchema = Type.Object(
  {
    rules: Type.Optional(Type.Array(ValidationRuleSchema, { description: 'Evaluated in order; every violation is reported.' })),
    external: Type.Optional(AdmissionCallsSchema),
  },
  { additionalProperties: false, description: 'Validation rules, enforced by the admission webhook router (docs/admission.md).' },
);

export const MutationBlockSchema = Type.Object(
  {
    rules: Type.Optional(Type.Array(MutationRuleSchema, { description: 'Applied in order.' })),
    mutateFirst: Type.Optional(Type.Boolean({ description: 'Orkestra reconcile-time ordering; admission always mutates first.' })),
    external: Type.Optional(AdmissionCallsSchema),
  },
  { additionalProperties: false, description: 'Defaults and overrides, applied by the admission webhook router as a JSONPatch.' },
);

export const WebhooksSchema = Type.Object(
  {
    validation: Type.Optional(Type.Boolean({ description: 'Include this CRD in the validating webhook (default true when it has rules).' })),
    mutation: Type.Optional(Type.Boolean({ description: 'Include this CRD in the mutating webhook (default true when it has rules).' })),
    operations: Type.Optional(Type.Array(Type.Enum([...ADMISSION_OPERATIONS]), { minItems: 1, description: 'Default [CREATE, UPDATE].' })),
  },
  { additionalProperties: false },
);

export const DeletionProtectionSchema = Type.Object(
  {
    protectCRs: Type.Optional(Type.Boolean({ description: 'Refuse DELETE of custom resources labelled orkestra.io/deletion-protection=true (default true).' })),
    protectCRD: Type.Optional(Type.Boolean({ description: 'Orkestra protects the CRD itself too; informational here.' })),
    strictMode: Type.Optional(Type.Boolean({ description: 'Informational here.' })),
  },
  { additionalProperties: false },
);

export type ValidationRuleInput = Type.Static<typeof ValidationRuleSchema>;
export type MutationRuleInput = Type.Static<typeof MutationRuleSchema>;
