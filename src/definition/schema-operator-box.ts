/**
 * TypeBox schemas of the operatorBox input (SPEC §4): conditions, template entries, phases, hooks, constructor,
 * status. These are the single source of truth for the input shape: the loader checks input against them
 * (schema-check.ts), the static input types derive from them, and `schema.json` is generated from them.
 * Keys starting with `x-` are instructions to our checker and are removed from the editor schema.
 */
import { CONDITION_OPERATOR_ALIASES, CONDITION_OPERATORS } from '../template/index.js';
import Type from 'typebox';
import { SENTINELS, type TemplateKind } from './types.js';
import { externalCallsSchema } from './schema-external.js';
import { CrossSourceSchema } from './schema-cross-source.js';
import { AutoscaleWindowsSchema } from './autoscale-windows.js';

/** Operators as written in a definition: the short names and their long aliases (the template module's tables). */
const WRITTEN_OPERATORS = [...CONDITION_OPERATORS, ...Object.keys(CONDITION_OPERATOR_ALIASES)];

export const ConditionSchema = Type.Object(
  {
    field: Type.String({ minLength: 1, description: 'Dot path into the custom resource (`spec.tier`), or a template.' }),
    operator: Type.Enum(WRITTEN_OPERATORS, {
      description: 'eq neq gt lt gte lte contains prefix suffix exists notExists in (aliases: equals notEquals greaterThan lessThan min max).',
    }),
    value: Type.Optional(Type.Unknown({ description: 'The value to compare with; not needed for exists / notExists. A list or comma list for `in`.' })),
    valueType: Type.Optional(Type.Enum(['string', 'int', 'float', 'bool'], { description: 'How to compare; default string.' })),
  },
  { additionalProperties: false },
);

export const ConditionsSchema = Type.Array(ConditionSchema);

/** `external`: HTTP calls read as `.external.<name>` (schema-external.ts). */
export const ExternalCallsSchema = externalCallsSchema(ConditionsSchema);

const StringMapSchema = Type.Record(Type.String(), Type.String());

/** The fields every template entry may carry; everything else is the kind-specific body (free-form). */
const commonEntryFields = {
  name: Type.Optional(Type.String({ description: 'Name of the child (a template). Kinds with short forms have a default.' })),
  namespace: Type.Optional(Type.String({ description: 'Namespace of the child; default: the parent\'s.' })),
  labels: Type.Optional(
    Type.Union([StringMapSchema, Type.Array(Type.Object({ key: Type.String(), value: Type.String() }, { additionalProperties: false }))], {
      description: 'Labels of the child: a map, or a list of {key, value} (Orkestra style).',
    }),
  ),
  annotations: Type.Optional(StringMapSchema),
  reconcile: Type.Optional(Type.Boolean({ description: 'Keep the child in line with the template on every reconcile (drift correction). Default false.' })),
  when: Type.Optional(Type.Array(ConditionSchema, { description: 'All must hold for the entry to apply.' })),
  anyOf: Type.Optional(Type.Array(ConditionSchema, { description: 'One must hold for the entry to apply.' })),
};

/** A short-form entry (`deployments`, `services`...): the common fields plus free-form kind-specific fields. */
export const TemplateEntrySchema = Type.Object(commonEntryFields, { additionalProperties: true });

/** A `resources` entry: a full manifest of any kind, plus the common fields. */
export const ManifestEntrySchema = Type.Object(
  {
    ...commonEntryFields,
    apiVersion: Type.String({ minLength: 1 }),
    kind: Type.String({ minLength: 1 }),
  },
  { additionalProperties: true },
);

const entries = Type.Optional(Type.Array(TemplateEntrySchema));
const phaseProperties = {
  namespaces: entries,
  secrets: entries,
  configMaps: entries,
  serviceAccounts: entries,
  roles: entries,
  roleBindings: entries,
  clusterRoles: entries,
  clusterRoleBindings: entries,
  deployments: entries,
  statefulSets: entries,
  replicaSets: entries,
  daemonSets: entries,
  services: entries,
  jobs: entries,
  cronJobs: entries,
  ingresses: entries,
  pods: entries,
  persistentVolumes: entries,
  persistentVolumeClaims: entries,
  networkPolicies: entries,
  podDisruptionBudgets: entries,
  limitRanges: entries,
  resourceQuotas: entries,
  priorityClasses: entries,
  horizontalPodAutoscalers: entries,
  customResource: Type.Optional(Type.Array(ManifestEntrySchema)),
  resources: Type.Optional(Type.Array(ManifestEntrySchema)),
} satisfies { [K in TemplateKind]: unknown };

/** A phase (`onCreate`, `onReconcile`, `onDelete`, a Motif's `resources`): lists of entries by template kind. */
export const TemplatePhaseSchema = Type.Object(phaseProperties, { additionalProperties: false });

export const StatusFieldSchema = Type.Object(
  {
    path: Type.String({ minLength: 1, description: 'Dot path under .status to write.' }),
    value: Type.String({ description: 'The value (a template); a value that is exactly one action keeps its type.' }),
    when: Type.Optional(ConditionsSchema),
    anyOf: Type.Optional(ConditionsSchema),
    type: Type.Optional(Type.Enum(['string', 'int', 'float', 'bool'], { description: 'Write the value as this type; default: the type of the result.' })),
    clearOnFalse: Type.Optional(Type.Boolean({ description: 'When the conditions do not hold, write an empty text instead of leaving the last value (Orkestra).' })),
  },
  { additionalProperties: false },
);

export const StatusBlockSchema = Type.Object(
  {
    conditions: Type.Optional(Type.Boolean({ description: 'Write the Ready condition (default true).' })),
    observedGeneration: Type.Optional(Type.Boolean({ description: 'Write observedGeneration, in the status and in the Ready condition (default true; Orkestra: ignoreObservedGeneration).' })),
    write: Type.Optional(Type.Boolean({ description: 'Write any status at all (default true; Orkestra: ignoreStatusPatch).' })),
    fields: Type.Optional(Type.Array(StatusFieldSchema)),
  },
  { additionalProperties: false },
);

const SentinelNames = Type.Array(Type.Enum([...SENTINELS]), { description: 'Sentinel names: generationChanged, labelsChanged, annotationsChanged, ...' });

/** A pre-reconcile gate: passes when one of its sentinels is true, else when its conditions hold. */
export const GateSchema = Type.Object(
  {
    when: Type.Optional(ConditionsSchema),
    anyOf: Type.Optional(ConditionsSchema),
    sentinels: Type.Optional(SentinelNames),
    external: Type.Optional(ExternalCallsSchema),
    failPolicy: Type.Optional(Type.Enum(['open', 'closed'], { description: 'A failed call: open (default) lets the object through; closed fails the cycle, retried with backoff.' })),
  },
  { additionalProperties: false },
);

export const PreReconcileSchema = Type.Object(
  { sentinels: Type.Optional(SentinelNames), external: Type.Optional(ExternalCallsSchema), enqueueGate: Type.Optional(GateSchema), reconcileGate: Type.Optional(GateSchema) },
  { additionalProperties: false, description: 'Gates checked before each reconcile of a live object; a closed gate skips the cycle.' },
);

/** `keyFrom` of a watch or observed Event: which custom resource a change reconciles. */
const KeyFromSchema = Type.Object(
  {
    label: Type.Optional(Type.String({ minLength: 1, description: 'A label of the watched object whose value is the key (`name` or `namespace/name`).' })),
    name: Type.Optional(Type.String({ minLength: 1, description: 'Always reconcile this custom resource.' })),
    namespace: Type.Optional(Type.String({ minLength: 1, description: 'Namespace of `name`.' })),
  },
  { additionalProperties: false },
);

/** `watch[]`: another kind whose changes reconcile the custom resources again. */
export const WatchEntrySchema = Type.Object(
  {
    apiVersion: Type.String({ minLength: 1 }),
    kind: Type.String({ minLength: 1 }),
    namespace: Type.Optional(Type.String({ minLength: 1, description: 'Watch only this namespace.' })),
    name: Type.Optional(Type.String({ minLength: 1, description: 'Watch only the object of this name.' })),
    on: Type.Optional(Type.Array(Type.Enum(['create', 'update', 'delete']), { description: 'Which changes trigger (default: all).' })),
    enqueueGate: Type.Optional(GateSchema),
    keyFrom: Type.Optional(KeyFromSchema),
  },
  { additionalProperties: false },
);

/** `regarding` / `related` of an observed Event: each field given must equal the Event's reference. */
const EventObjectSchema = Type.Object(
  {
    apiVersion: Type.Optional(Type.String({ minLength: 1 })),
    kind: Type.Optional(Type.String({ minLength: 1 })),
    group: Type.Optional(Type.String({ description: "The group of the reference's apiVersion (\"\" for the core group)." })),
    version: Type.Optional(Type.String({ minLength: 1, description: "The version of the reference's apiVersion." })),
    name: Type.Optional(Type.String({ minLength: 1 })),
    namespace: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

/** `observe.events.<name>`: Kubernetes Events (events.k8s.io/v1) whose appearance reconciles custom resources. */
export const ObserveEventSchema = Type.Object(
  {
    reason: Type.Optional(Type.String({ minLength: 1, description: 'The Event reason must be this.' })),
    action: Type.Optional(Type.String({ minLength: 1, description: 'The Event action must be this.' })),
    type: Type.Optional(Type.String({ minLength: 1, description: 'The Event type must be this (Normal, Warning).' })),
    reportingController: Type.Optional(Type.String({ minLength: 1 })),
    reportingInstance: Type.Optional(Type.String({ minLength: 1 })),
    regarding: Type.Optional(EventObjectSchema),
    related: Type.Optional(EventObjectSchema),
    namespace: Type.Optional(Type.String({ minLength: 1, description: 'Only Events in this namespace.' })),
    name: Type.Optional(Type.String({ minLength: 1, description: 'Only the Event of this name.' })),
    on: Type.Optional(Type.Array(Type.Enum(['create', 'update', 'delete']), { description: 'Which changes of a matching Event trigger (default: all).' })),
    keyFrom: Type.Optional(KeyFromSchema),
    enqueueGate: Type.Optional(GateSchema),
  },
  { additionalProperties: false },
);

export const ObserveSchema = Type.Object(
  { events: Type.Optional(Type.Record(Type.String({ minLength: 1 }), ObserveEventSchema, { description: 'Kubernetes Events that reconcile custom resources again, by name.' })) },
  { additionalProperties: false },
);

/** `cross[]`: a custom resource of another CRD of this definition (or, with `source`, another process's answer over HTTP), read into `.cross.<as>`. */
export const CrossEntrySchema = Type.Object(
  {
    crd: Type.Optional(Type.String({ minLength: 1, description: 'The other CRD, by its name in this definition (or give labelSelector).' })),
    labelSelector: Type.Optional(
      Type.Record(Type.String(), Type.String(), { description: "Instead of crd: the CRD of this definition whose own labelSelector has one of these pairs (Orkestra); needs as." }),
    ),
    as: Type.Optional(Type.String({ minLength: 1, pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'The key under .cross (default: the CRD name).' })),
    selector: Type.Optional(
      Type.Object(
        {
          name: Type.Optional(Type.String({ minLength: 1, description: 'The custom resource to read (a template).' })),
          namespace: Type.Optional(Type.String({ minLength: 1, description: 'Its namespace (a template; default: the reading custom resource\'s).' })),
          matchLabels: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Select by labels (values are templates) instead of by name.' })),
        },
        { additionalProperties: false },
      ),
    ),
    strategy: Type.Optional(Type.Enum(['first', 'all'], { description: 'first (default): one result; all: a list of every match.' })),
    source: Type.Optional(CrossSourceSchema),
  },
  { additionalProperties: false },
);

/** `autoscale`: workers, queue bound and resync overridden while the CRD's load figures meet the conditions. */
export const AutoscaleSchema = Type.Object(
  {
    interval: Type.Optional(Type.String({ minLength: 1, description: 'How often the conditions are evaluated (default 15s).' })),
    cooldown: Type.Optional(Type.String({ minLength: 1, description: 'How long the conditions must not hold before the declared settings return (default 2m).' })),
    conditions: Type.Optional(
      Type.Object({ when: Type.Optional(ConditionsSchema), anyOf: Type.Optional(ConditionsSchema) }, { additionalProperties: false, description: 'Over .metrics.queueDepth, .metrics.workersBusyPercent, ... (all when, one of anyOf).' }),
    ),
    do: Type.Object(
      {
        workers: Type.Optional(Type.Integer({ minimum: 1 })),
        queueDepth: Type.Optional(Type.Integer({ minimum: 1, description: 'The queue bound (maxDepth) while active.' })),
        resync: Type.Optional(Type.String({ minLength: 1 })),
      },
      { additionalProperties: false },
    ),
    windows: Type.Optional(AutoscaleWindowsSchema),
    sources: Type.Optional(
      Type.Record(Type.String({ minLength: 1 }), CrossSourceSchema, { description: "Another process's figures by CRD name (cross.<crd>.metrics.*): GET <host>/katalog/<crd> or the endpoint (Orkestra's condition source)." }),
    ),
  },
  { additionalProperties: false },
);

/** `operatorBox.events.<name>` (Orkestra's `emit.events`). */
export const EmitEventSchema = Type.Object(
  {
    type: Type.Enum(['Normal', 'Warning'], { description: 'The Kubernetes Event type.' }),
    reason: Type.String({ minLength: 1, description: 'The Event reason (a template).' }),
    message: Type.String({ minLength: 1, description: 'The Event message (a template).' }),
    on: Type.Optional(Type.Array(Type.Enum(['always', 'success', 'failure']), { description: 'Reconcile outcomes that record it; default always.' })),
    when: Type.Optional(ConditionsSchema),
    anyOf: Type.Optional(ConditionsSchema),
  },
  { additionalProperties: false },
);

export const OperatorBoxSchema = Type.Object(
  {
    default: Type.Optional(Type.Boolean({ description: 'true (default): templates and hooks; false: a custom constructor owns reconcile.' })),
    finalizers: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Finalizers added to every custom resource of this CRD.' })),
    onCreate: Type.Optional(TemplatePhaseSchema),
    onReconcile: Type.Optional(TemplatePhaseSchema),
    onDelete: Type.Optional(TemplatePhaseSchema),
    hooks: Type.Optional(
      Type.Object(
        {
          function: Type.String({ minLength: 1, description: 'Name under which the hooks are registered in code.' }),
          runHooksFirst: Type.Optional(Type.Boolean({ description: 'Run hooks before templates (default false).' })),
          args: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Handed to the hooks as ctx.args; texts with {{ }} are rendered per object.' })),
        },
        { additionalProperties: false },
      ),
    ),
    constructor: Type.Optional(
      Type.Object(
        {
          function: Type.String({ minLength: 1, description: 'Name under which the constructor is registered in code.' }),
          args: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Handed to the constructor as deps.args, as written.' })),
          external: Type.Optional(ExternalCallsSchema),
        },
        { additionalProperties: false },
      ),
    ),
    status: Type.Optional(StatusBlockSchema),
    when: Type.Optional(Type.Array(ConditionSchema, { description: 'All must hold for any onCreate/onReconcile template of the box to apply.' })),
    anyOf: Type.Optional(Type.Array(ConditionSchema, { description: 'One must hold for any onCreate/onReconcile template of the box to apply.' })),
    preReconcile: Type.Optional(PreReconcileSchema),
    external: Type.Optional(ExternalCallsSchema),
    autoscale: Type.Optional(AutoscaleSchema),
    cross: Type.Optional(Type.Array(CrossEntrySchema, { description: 'Custom resources of other CRDs read into .cross; their changes reconcile again.' })),
    watch: Type.Optional(Type.Array(WatchEntrySchema, { description: 'Other kinds whose changes reconcile the custom resources again.' })),
    observe: Type.Optional(ObserveSchema),
    events: Type.Optional(Type.Record(Type.String({ minLength: 1 }), EmitEventSchema, { description: 'Kubernetes Events recorded after each reconcile, by name.' })),
    requeue: Type.Optional(
      Type.Object(
        {
          after: Type.String({ minLength: 1, description: 'A duration (`30s`, `5m`) or a template rendering one.' }),
          when: Type.Optional(ConditionsSchema),
          anyOf: Type.Optional(ConditionsSchema),
        },
        { additionalProperties: false, description: 'Reconcile again after a successful cycle, when the conditions hold.' },
      ),
    ),
  },
  { additionalProperties: false },
);

export type ConditionInput = Type.Static<typeof ConditionSchema>;
export type TemplateEntryInput = Type.Static<typeof TemplateEntrySchema>;
export type TemplatePhaseInput = Type.Static<typeof TemplatePhaseSchema>;
export type StatusFieldInput = Type.Static<typeof StatusFieldSchema>;
export type OperatorBoxInput = Type.Static<typeof OperatorBoxSchema>;
export type GateInput = Type.Static<typeof GateSchema>;
export type PreReconcileInput = Type.Static<typeof PreReconcileSchema>;
export type WatchEntryInput = Type.Static<typeof WatchEntrySchema>;
export type CrossEntryInput = Type.Static<typeof CrossEntrySchema>;
export type ObserveEventInput = Type.Static<typeof ObserveEventSchema>;
export type AutoscaleInput = Type.Static<typeof AutoscaleSchema>;
export type EmitEventInput = Type.Static<typeof EmitEventSchema>;
export type ExternalCallInput = Type.Static<typeof ExternalCallsSchema>[number];
