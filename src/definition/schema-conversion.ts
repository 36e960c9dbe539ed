/** The `conversion` block of a CRD entry (Orkestra's `CRDConversion`; `include` is expanded by the Orkestra lift). */
import Type from 'typebox';

const VersionSchema = Type.String({
  pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
  maxLength: 63,
  description: 'A bare version such as v1alpha1 (never group/version).',
});

const ConversionPathSchema = Type.Object(
  {
    from: VersionSchema,
    to: VersionSchema,
    spec: Type.Record(Type.String(), Type.Unknown(), { description: 'The whole spec at `to`; string values may be templates over the source object.' }),
  },
  { additionalProperties: false },
);

export const ConversionSchema = Type.Object(
  {
    storageVersion: Type.Optional(VersionSchema),
    paths: Type.Optional(Type.Array(ConversionPathSchema, { description: 'One entry per (from, to) pair; declare both directions.' })),
    participant: Type.Optional(Type.Boolean({ description: 'This version takes part in another entry\'s conversion (informational).' })),
    updateCRD: Type.Optional(Type.Boolean({ description: 'Orkestra patches the CRD\'s caBundle at start; katalog writes it when installing CRDs (informational).' })),
  },
  { additionalProperties: false, description: 'Conversion between the CRD\'s versions, answered by the conversion webhook router.' },
);
