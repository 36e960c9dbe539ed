/**
 * The normalised definition: what every layer above `definition/` reads. It is produced once by the loader
 * (parse → validate → normalise), deeply frozen, and never re-read from YAML. Input shapes (map or list form,
 * aliases, Komposer, Motif) exist only inside `definition/`; this file is the contract with the rest.
 */

import type { Condition as TemplateCondition, TemplateDialect, UserNote } from '../template/index.js';
import type { QueueBehaviour, RetryBackoff } from './queue-types.js';

/** Where a resolved setting came from, highest precedence first (SPEC §5). */
export type SettingSource = 'override' | 'komposer' | 'definition' | 'options' | 'env' | 'default';

/** Where a setting written in the definition came from: the CRD entry itself, or an inline Komposer override. */
export type DefinitionSource = 'definition' | 'komposer';

/** A value from the definition together with where it was written. */
export interface Sourced<T> {
  readonly value: T;
  readonly source: DefinitionSource;
}

/** A group/version/kind with the plural and scope needed to build URLs. */
export interface ApiTypes {
  readonly group: string; // '' for the core group
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly scope: 'Namespaced' | 'Cluster';
  /** True when `apiTypes` named only a built-in kind and the rest came from the built-in table. */
  readonly builtIn: boolean;
}

export type DependencyCondition = 'started' | 'healthy';

export interface Dependency {
  readonly name: string;
  readonly condition: DependencyCondition;
}

/** A condition of `when` / `anyOf` (SPEC §4.3), operator normalised to its short name: the template module's type. */
export type Condition = Readonly<TemplateCondition>;

/** The template kinds of SPEC §4.1, in the order their short forms are documented. */
export const TEMPLATE_KINDS = [
  'namespaces',
  'secrets',
  'configMaps',
  'serviceAccounts',
  'roles',
  'roleBindings',
  'clusterRoles',
  'clusterRoleBindings',
  'deployments',
  'statefulSets',
  'replicaSets',
  'daemonSets',
  'services',
  'jobs',
  'cronJobs',
  'ingresses',
  'pods',
  'persistentVolumes',
  'persistentVolumeClaims',
  'networkPolicies',
  'podDisruptionBudgets',
  'limitRanges',
  'resourceQuotas',
  'priorityClasses',
  'horizontalPodAutoscalers',
  'customResource',
  'resources',
] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/**
 * One template entry: the raw (uncompiled) template tree as written, plus the fields every entry may carry.
 * `body` holds the kind-specific fields (short form, or a full manifest for `resources`); string leaves may
 * contain template actions. `path` is the entry's document path, used to name the template in errors.
 */
export interface TemplateEntry {
  readonly kind: TemplateKind;
  readonly path: string;
  readonly reconcile: boolean;
  readonly when: readonly Condition[];
  readonly anyOf: readonly Condition[];
  readonly body: Readonly<Record<string, unknown>>;
  /** Values of `.inputs` when the entry came from a Motif import (the Motif's defaults merged with `with:`); else empty. */
  readonly inputs: Readonly<Record<string, unknown>>;
  /**
   * `secrets` / `configMaps` / `networkPolicies` / `limitRanges` / `resourceQuotas` only: copy the data (the spec)
   * of another object of the kind (`fromSecret`, `fromConfigMap`, `fromNetworkPolicy`, `fromLimitRange`,
   * `fromResourceQuota`; `fromNamespace`) and/or write the child into several namespaces (`toNamespaces`). Strings
   * may be templates.
   * docs/orkestra-compatibility.md#copies says how.
   */
  readonly copy?: EntryCopy;
  /** `secrets`: a duration (`30d`, `2w`, `6mo`, `1y`, Go's; may be a template) after which the Secret is rewritten. */
  readonly rotateAfter?: string;
  /** `secrets`: generate a key, a CA and a server certificate into a `kubernetes.io/tls` Secret (templates allowed). */
  readonly tls?: EntryTls;
  /** One child per item of a list (or map) of the data (docs/orkestra-compatibility.md#foreach). */
  readonly forEach?: EntryForEach;
  /** Orkestra: a profile named by a template, expanded per name (docs/orkestra-compatibility.md#profiles-named-by-a-template). */
  readonly profileChoice?: EntryProfileChoice;
}

/** What a template entry iterates over (see {@link TemplateEntry.forEach}). */
export interface EntryForEach {
  /** Dot path from the data root to a list or map (`spec.regions`); anything else gives no children. */
  readonly field: string;
  /** Extra name of the current item beside `.item` (`as: region` → `.region`); `item` when not given. */
  readonly as: string;
}

/** A generated certificate (see {@link TemplateEntry.tls}); strings are uncompiled templates. */
export interface EntryTls {
  /** Subject common name; default `<secret name>.<namespace>.svc`. */
  readonly commonName?: string;
  /** Subject alternative names; an item that renders empty is left out, one that is an IP address is an IP entry. */
  readonly dnsNames: readonly string[];
  /** The certificate's lifetime (`90d`, `2160h`, `1y`); default the entry's `rotateAfter`, else one year. */
  readonly validFor?: string;
}

/** What a `secrets` / `configMaps` entry copies (see {@link TemplateEntry.copy}); strings are uncompiled templates. */
export interface EntryCopy {
  /** Name of the source object (of the entry's own kind); absent when the entry only distributes its own data. */
  readonly from?: string;
  /** Namespace of the source; default: the custom resource's, `default` for a cluster-scoped one. */
  readonly fromNamespace?: string;
  /** Target namespaces; an item that renders to a list adds each of its texts. Empty: the entry's `namespace`. */
  readonly toNamespaces: readonly string[];
}

/** A phase of templates: entries by kind, in declaration order within each kind. */
export type TemplatePhase = Readonly<Partial<Record<TemplateKind, readonly TemplateEntry[]>>>;

export interface StatusField {
  readonly path: string;
  readonly value: string;
  readonly when: readonly Condition[];
  readonly anyOf: readonly Condition[];
  /**
   * How the rendered value is written: `string`, `int`, `float` or `bool`. Absent: the value keeps the type of
   * its result (a value that is exactly one action keeps its type). Orkestra documents default to `string`.
   */
  readonly type?: StatusFieldType;
  /** Values of `.inputs` when the field came from a Motif import; absent otherwise. */
  readonly inputs?: Readonly<Record<string, unknown>>;
  /** When the conditions do not hold, write `""` at the path (unless another field writes it) instead of leaving the last value. */
  readonly clearOnFalse?: boolean;
}

export type StatusFieldType = 'string' | 'int' | 'float' | 'bool';

/** Namespace guards: which namespaces' custom resources this CRD reconciles (wildcards `kube-*`, `*-system`). */
export interface NamespaceGuard {
  /** When non-empty, only these namespaces (it wins over `restricted`). */
  readonly allowed: readonly string[];
  /** Never these namespaces. */
  readonly restricted: readonly string[];
}


export interface OperatorBox extends BoxObserve {
  /** false = a custom constructor owns reconcile entirely. */
  readonly default: boolean;
  /** Finalizers declared for this CRD (the Katalog-wide ones are merged into {@link CrdDefinition.finalizers}). */
  readonly finalizers: readonly string[];
  readonly onCreate: TemplatePhase;
  readonly onReconcile: TemplatePhase;
  readonly onDelete: TemplatePhase;
  /** `args`: handed to the hooks (`ctx.args`), text values with `{{` rendered per object; absent when not declared. */
  readonly hooks: { readonly function: string; readonly runHooksFirst: boolean; readonly args?: Readonly<Record<string, unknown>> } | undefined;
  /**
   * `args`: handed to the constructor (`deps.args`, `ctx.args`) as written; `external`: calls made before each
   * reconcile of a live object, their results in `ctx.external`; each absent when not declared.
   */
  readonly constructor: { readonly function: string; readonly args?: Readonly<Record<string, unknown>>; readonly external?: readonly ExternalCall[] } | undefined;
  readonly status: {
    readonly conditions: boolean;
    readonly fields: readonly StatusField[];
    /** `false`: observedGeneration is written neither in the status nor in the Ready condition; absent = written. */
    readonly observedGeneration?: false;
    /** `false`: the runtime writes no status for this CRD at all; absent = it does. */
    readonly write?: false;
  };
  /**
   * Conditions on the whole box (Orkestra's box-level `when` / `anyOf`): while they do not hold, no onCreate or
   * onReconcile template applies (as if each entry's own conditions were false); hooks, status and the delete path
   * are not affected. Absent when none are declared.
   */
  readonly conditions?: { readonly when: readonly Condition[]; readonly anyOf: readonly Condition[] };
  /** Gates before the box runs; absent when none are declared. */
  readonly preReconcile?: PreReconcile;
  /** Other kinds whose changes reconcile this CRD's custom resources again; absent when none are declared. */
  readonly watch?: readonly WatchEntry[];
  /** Reconcile again after a successful cycle (Orkestra's `requeue`); absent when not declared. */
  readonly requeue?: RequeueRule;
  /** Custom resources of other CRDs read into `.cross`; absent when none are declared. */
  readonly cross?: readonly CrossEntry[];
  /** Workers, queue bound and resync overridden while the CRD's load figures meet conditions; absent when not declared. */
  readonly autoscale?: AutoscaleRule;
  /** Calls made before templates and hooks, read as `.external.<name>`; absent when none are declared. */
  readonly external?: readonly ExternalCall[];
  /** Kubernetes Events recorded after each reconcile of a live object (Orkestra's `emit.events`); absent when none. */
  readonly events?: readonly EmitEvent[];
}

/**
 * `operatorBox.events.<name>` (Orkestra's `emit.events`): a Kubernetes Event about the custom resource, recorded
 * after each reconcile of a live object whose outcome is in `on` and whose conditions hold. `reason` and `message`
 * are templates rendered against the same data as the status fields.
 */
export interface EmitEvent {
  readonly name: string;
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
  /** The outcomes that record it: `success`, `failure`, or both (written `always`, or nothing). */
  readonly on: readonly ('success' | 'failure')[];
  readonly when: readonly Condition[];
  readonly anyOf: readonly Condition[];
  /** The document path of the entry, for messages. */
  readonly path: string;
}

/**
 * `operatorBox.autoscale` (Orkestra's autoscaler): every `intervalMs` the conditions are evaluated over
 * `.metrics.*` (the CRD's own load figures); while they hold, `do` replaces the declared settings; once they have
 * not held for `cooldownMs`, the declared settings come back.
 */
export interface AutoscaleRule {
  readonly intervalMs: number;
  readonly cooldownMs: number;
  readonly when: readonly Condition[];
  readonly anyOf: readonly Condition[];
  readonly do: { readonly workers?: number; readonly maxDepth?: number; readonly resyncMs?: number };
  /** Time windows (Orkestra's `time`, `dayOfWeek`, `cron` conditions), all of `when` and one of `anyOf` with the figures'. */
  readonly windows?: { readonly when: readonly AutoscaleWindow[]; readonly anyOf: readonly AutoscaleWindow[] };
  /**
   * Where another process serves a CRD's figures (`cross.<crd>.metrics.*`), by CRD name in lower case: Orkestra's
   * condition-level `source`, read before each evaluation; it comes before a `cross` entry's source for that CRD.
   * A source for a CRD of this definition is left out at load: its figures are read in process.
   */
  readonly sources?: Readonly<Record<string, CrossSource>>;
}

/**
 * An autoscale time window, in the process's local time: `time` holds from `after` to `before` (HH:MM, both ends
 * included, either may be absent); `days` on the listed days (0 Sunday … 6 Saturday); `cron` for `durationMs`
 * (default: the rule's interval) after each fire. `negate` inverts it.
 */
export type AutoscaleWindow =
  | { readonly kind: 'time'; readonly after?: string; readonly before?: string; readonly negate: boolean }
  | { readonly kind: 'days'; readonly days: readonly number[]; readonly negate: boolean }
  | { readonly kind: 'cron'; readonly cron: string; readonly durationMs?: number; readonly negate: boolean };

/**
 * `operatorBox.requeue`: after a successful cycle of a live object whose hooks or constructor asked for no delay,
 * when the conditions hold, the object is reconciled again after `after` (a duration, or a template rendering one).
 */
export interface RequeueRule {
  readonly after: string;
  readonly when: readonly Condition[];
  readonly anyOf: readonly Condition[];
}

export interface CrdDefinition extends CrdNotifications {
  /** The CRD's name in this Katalog: a lowercase RFC 1123 label. */
  readonly name: string;
  readonly description: string | undefined;
  readonly apiTypes: ApiTypes;
  /** Absolute path of the CustomResourceDefinition manifest, when declared. */
  readonly crdFile: string | undefined;
  readonly enabled: boolean;
  /** `typed` only when declared so; the runtime may switch to typed when a schema is registered in code. */
  readonly mode: 'dynamic' | 'typed' | undefined;
  readonly namespace: string | undefined;
  readonly labelSelector: string | undefined;
  readonly fieldSelector: string | undefined;
  /** Settings written in the definition (resolved against options, env and defaults by the runtime, SPEC §5). */
  readonly settings: {
    readonly workers?: Sourced<number>;
    /** Milliseconds. */
    readonly resync?: Sourced<number>;
    readonly maxDepth?: Sourced<number>;
    readonly failureThreshold?: Sourced<number>;
  };
  /** `queue.retryBackoff` (queue-types.ts); absent: the runtime's backoff, retried until success. */
  readonly retryBackoff?: RetryBackoff;
  /** `queue.behaviour` rules beyond the bound (queue-types.ts); absent when the bound says it all. */
  readonly queueBehaviour?: QueueBehaviour;
  readonly dependsOn: readonly Dependency[];
  readonly operatorBox: OperatorBox;
  /** Katalog-wide finalizers merged with the CRD's own, without duplicates, declared order. */
  readonly finalizers: readonly string[];
  /** The file this CRD entry came from. */
  readonly file: string | undefined;
  /** Function table its templates compile against: `orkestra` when declared in an Orkestra document. Default katalog. */
  readonly templateDialect?: TemplateDialect;
  /**
   * Which children a reconcile deletes (docs/operatorbox.md#pruning). Absent (katalog's): every owned child no
   * entry declares this cycle. `conditional` (set for Orkestra documents, as Orkestra does): only a child that a
   * kept-in-line entry (`onReconcile`, or `reconcile: true`; not a Job) names while its conditions do not hold.
   */
  readonly pruning?: 'conditional';
  /** User-defined notes the CRD's templates may call (Orkestra `notes`, imported ones included); one list per definition. */
  readonly notes?: readonly UserNote[];
  /** Namespaces whose custom resources are (not) reconciled; absent = all. */
  readonly namespaceGuard?: NamespaceGuard;
  /** A critical CRD that is degraded makes the runtime not ready (`/ready` answers 503). */
  readonly critical?: boolean;
  /**
   * Development inputs written for Orkestra's command line (`crFiles`, `setup`), absolute paths where they are
   * paths. Carried for tools and tests; the runtime never applies them.
   */
  readonly devInputs?: { readonly crFiles: readonly string[]; readonly setup: unknown };
  /** Validation, mutation and deletion protection, served by the admission webhook router; absent when none. */
  readonly admission?: AdmissionRules;
  /** Labels written onto each custom resource when they differ (Orkestra's CRD `labels`; values may be templates). */
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * Data fetched beside the children before status fields render (Orkestra's `enrich` / `enrichAll`,
   * docs/orkestra-compatibility.md#enrich); absent when not declared, and then nothing is fetched.
   */
  readonly enrich?: EnrichRule;
  /** Fields under `.spec` replaced in memory before a cycle reads the object (Orkestra's `normalize`); absent when none. */
  readonly normalize?: readonly NormalizeField[];
  /** Conversion between versions, answered by the conversion webhook router; absent when not declared. */
  readonly conversion?: CrdConversion;
}

/** The enrich targets katalog fetches (Orkestra's names; operatorbox/enrich-targets.ts says what each reads). */
export const ENRICH_TARGETS = ['pods', 'events', 'endpoints', 'backingpods', 'replicasets', 'owner', 'node', 'pvc', 'pv', 'pvcs', 'storageclass', 'ingress', 'hpa', 'cronjob'] as const;
export type EnrichTargetName = (typeof ENRICH_TARGETS)[number];

/** `enrich` / `enrichAll` of a CRD: which targets are fetched, each when its conditions hold. */
export interface EnrichRule {
  /** `enrichAll: true`: every target katalog fetches, unconditionally. */
  readonly all: boolean;
  readonly targets: readonly EnrichTarget[];
}

export interface EnrichTarget {
  readonly name: EnrichTargetName;
  /** Evaluated against the custom resource and its children (before enrichment); empty lists hold. */
  readonly when: readonly Condition[];
  readonly anyOf: readonly Condition[];
}

/** One `normalize.spec` field: a dot path under `.spec`, its template, and the type to cast to (absent: read as YAML). */
export interface NormalizeField {
  readonly path: string;
  readonly value: string;
  readonly type?: StatusFieldType;
}

export type { AdmissionCall, AdmissionOperation, ValidationOperator, ValidationRule, MutationRule, AdmissionRules } from './admission-types.js';
import type { AdmissionRules } from './admission-types.js';
import type { EntryProfileChoice } from './profile-choice-types.js';
export type { EntryProfileChoice, ProfileReference } from './profile-choice-types.js';
import type { CrdConversion } from './conversion-types.js';
export type { ExternalAuth, ExternalCall, ExternalMethod, GateFailPolicy } from './external-types.js';
export type { CrossEntry, CrossSource, CrossSourceProtocol } from './cross-types.js';
import type { CrossEntry, CrossSource } from './cross-types.js';
import type { ExternalCall } from './external-types.js';
export { SENTINELS } from './flow-types.js';
export type { Sentinel, Gate, PreReconcile, WatchEvent, WatchEntry, ObservedEvent, EventObjectMatch, BoxObserve } from './flow-types.js';
import type { PreReconcile, WatchEntry, BoxObserve } from './flow-types.js';
import type { CrdNotifications, DefinitionNotification } from './notification-types.js';

/** A loaded, validated, normalised and frozen definition. */
export interface Definition extends DefinitionNotification {
  readonly apiVersion: 'katalog.dev/v1' | 'orkestra.orkspace.io/v1';
  readonly kind: 'Katalog' | 'Komposer';
  readonly name: string;
  readonly description: string | undefined;
  /** Every CRD, enabled or not, keyed by name, in declaration order. */
  readonly crds: ReadonlyMap<string, CrdDefinition>;
  /** Names of enabled CRDs in stable topological order (dependencies first, ties by declaration order). */
  readonly order: readonly string[];
  readonly finalizers: readonly string[];
  /** The files read, in the order they were read. */
  readonly files: readonly string[];
}
