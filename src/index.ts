/**
 * katalog: an embeddable Kubernetes operator runtime. Write a declarative Katalog, register hooks and custom
 * reconcilers in code, mount the read-only inspection router, and `start()`.
 * @packageDocumentation
 */

// Creating and running
export { createRuntime, type DefinitionInput } from './create-runtime.js';
export { Runtime, type RuntimeState } from './runtime/runtime.js';
export type { CrdStatus, ListenOptions, ServerHandle, HttpSurface } from './runtime/surface.js';
export type { LeaderInfo } from './runtime/leadership.js';
export type { RuntimeOptions, CrdOverride, DurationInput } from './options.js';

// The definition
export { loadDefinition, parseDefinition, normalizeDefinition, isDefinition, definitionToInput, builtInKind, TEMPLATE_KINDS } from './definition/index.js';
export type {
  DefinitionSourceOptions,
  KatalogInput,
  KomposerInput,
  MotifInput,
  CrdEntryInput,
  Definition,
  CrdDefinition,
  OperatorBox,
  TemplateEntry,
  EntryCopy,
  EntryForEach,
  EntryTls,
  EntryProfileChoice,
  ProfileReference,
  TemplatePhase,
  TemplateKind,
  StatusField,
  StatusFieldType,
  NamespaceGuard,
  NormalizeField,
  CrdConversion,
  ConversionPath,
  EnrichRule,
  EnrichTarget,
  EnrichTargetName,
  AdmissionRules,
  AdmissionCall,
  AdmissionOperation,
  ValidationRule,
  ValidationOperator,
  MutationRule,
  Gate,
  PreReconcile,
  RequeueRule,
  QueueBehaviour,
  QueueDrop,
  RetryBackoff,
  Sentinel,
  WatchEntry,
  ObservedEvent,
  EventObjectMatch,
  BoxObserve,
  CrossEntry,
  CrossSource,
  CrossSourceProtocol,
  AutoscaleRule,
  AutoscaleWindow,
  EmitEvent,
  WatchEvent,
  TemplateDialect,
  UserNote,
  Condition,
  Dependency,
  DependencyCondition,
  ApiTypes,
  Sourced,
  SettingSource,
  DefinitionSource,
} from './definition/index.js';

// Code that joins the operator: hooks and custom reconcilers
export type {
  Hooks,
  HookContext,
  NotFoundContext,
  ReconcileResult,
  ReconcileRequest,
  Reconciler,
  ReconcilerContext,
  ConstructorDeps,
  ConstructorFactory,
  CrdInfo,
  CacheReader,
  EventRecorder,
} from './operatorbox/types.js';
export { CLEANUP_FINALIZER } from './operatorbox/generic-box.js';

// Template kinds, ownership and converters
export { KindTable } from './registry/kind-table.js';
export { COMMON_ENTRY_FIELDS, type KindBuilder, type BuildContext } from './registry/kind-builder.js';
export { ConverterRegistry, type Converter, type ConvertContext } from './operatorbox/converters.js';
export { MANAGED_BY_LABEL, CRD_LABEL, OWNER_LABEL, OWNER_ANNOTATION } from './registry/ownership.js';
export { TEMPLATE_HASH_ANNOTATION } from './registry/manifest-hash.js';

// Leader election and sharding
export { shardOf, type ShardOptions } from './runtime/sharding.js';
export type { LeaderElectionOptions } from './runtime/leader-options.js';
export type { Notification, NotificationOptions, NotifySink } from './runtime/notifier-options.js';
export type { CrdNotifications, DefinitionNotification, NotificationConfig, NotificationTeam, NotifyRule, WebhookSource } from './definition/notification-types.js';

// Kubernetes access handed to code
export { KubeClient, type ListOptions, type ListPage, type PatchType, type WatchOptions } from './kube/client.js';
export type { KubeObject, ObjectMeta, OwnerReference, ResourceRef } from './kube/resource.js';

// Settings, health, metrics, events, logging
export {
  BUILTIN_SETTINGS,
  SETTING_ENV_VARS,
  resolveSettings,
  resolveAllSettings,
  SettingsError,
  type SettingsOptions,
  type SettingName,
  type CrdSettingsInput,
  type ValueWithSource,
  type ResolvedSettings,
  type SettingsProblem,
} from './runtime/settings.js';
export type { CrdState } from './observe/health.js';
export { METRIC_NAMES } from './observe/metrics.js';
export type { LifecycleEvents, Listener } from './observe/events.js';
export { consoleLogger, silentLogger, type Logger, type LogFields, type LogLevel, type ConsoleLoggerOptions } from './observe/logger.js';

// The inspection API
export { createInspectionRouter, type InspectionRouterOptions } from './http/router.js';
export { inspectionViewOf, type InspectionView, type LeaderView, type CrdView, type CrdHealthView, type CrdSettingsView, type SourcedSetting, type Gvk, type MetricsText } from './http/view.js';
export type { KatalogList, CrdSummary, CrdDetail, ValueWithSourceBody, ErrorBody } from './http/bodies.js';
export type { ReconcilerInfo, CodeInfo, TemplatePhaseName } from './http/reconciler-info.js';
export { listen, type FetchApp, type ListeningServer } from './http/listen.js';

// The admission webhook router (validation, mutation, deletion protection)
export { createAdmissionRouter, ADMISSION_PATHS, type AdmissionRouter, type AdmissionRouterOptions, type AdmissionDecision } from './admission/router.js';
export type { ExternalFailurePolicy } from './admission/admission-external.js';
export type { SecretReader } from './operatorbox/external-calls.js';
// External calls' protocol clients (redis and postgres built in; mongo and kafka of the host): the externalProtocols option
export type { ExternalProtocolClient, ExternalProtocolRequest } from './operatorbox/external-protocol.js';
export { redisProtocol, type RedisProtocolOptions } from './operatorbox/protocol-redis.js';
export { postgresProtocol, type PostgresProtocolOptions } from './operatorbox/protocol-postgres.js';
export { cachedObjects } from './runtime/cached.js';
export { webhookConfigurations, type WebhookConfigurationOptions, type WebhookConfigurations, type WebhookClient } from './admission/webhook-configuration.js';
export { DELETION_PROTECTION_LABEL } from './admission/crd-rules.js';
// The conversion webhook router (ConversionReview for CRDs with conversion paths or converters)
export { createConversionRouter, CONVERSION_PATH, type ConversionRouterOptions, type ConversionOutcome } from './admission/conversion-router.js';
export { CONVERSION_METRIC_NAMES, type ConversionMetricsOptions } from './admission/conversion-metrics.js';
export type { VersionConverter } from './admission/conversion-rules.js';
export { conversionWebhookSpec, type ConversionWebhookOptions } from './runtime/crd-conversion.js';
export { CONVERSION_API_VERSION, type ConversionRequest, type ConversionResponse, type ConversionResult, type ConversionReview } from './admission/conversion-review.js';
export { ADMISSION_API_VERSION, type AdmissionRequest, type AdmissionResponse, type AdmissionReview, type AdmissionStatus, type GroupVersionResource } from './admission/review.js';

// Time and errors
export { systemClock, type Clock, type TimerHandle } from './util/clock.js';
export { parseDuration, formatDuration } from './util/duration.js';
export { KatalogError, DefinitionError, TemplateError, RuntimeError, KubeError, formatProblem, toError } from './errors.js';
export type { DefinitionProblem } from './errors.js';
