/**
 * The definition layer: load, validate and normalise Katalogs, Komposers and Motifs into a frozen
 * {@link Definition}. Layers above import from here (or from types.ts for the contract types).
 */
export { loadDefinition, parseDefinition, normalizeDefinition, isDefinition } from './load.js';
export type { DefinitionSourceOptions } from './load.js';
export { definitionToInput } from './serialize.js';
export { editorSchema, editorSchemaText } from './editor-schema.js';
export { builtInKind, BUILTIN_KIND_NAMES } from './builtin-kinds.js';
export { KatalogSchema, KomposerSchema, MotifSchema } from './schema.js';
export type { KatalogInput, KomposerInput, MotifInput, CrdEntryInput } from './schema.js';
export { TEMPLATE_KINDS } from './types.js';
export type { CrdConversion, ConversionPath } from './conversion-types.js';
export type {
  ApiTypes,
  Condition,
  CrdDefinition,
  Definition,
  DefinitionSource,
  Dependency,
  DependencyCondition,
  OperatorBox,
  SettingSource,
  Sourced,
  StatusField,
  StatusFieldType,
  NamespaceGuard,
  NormalizeField,
  EnrichRule,
  EnrichTarget,
  EnrichTargetName,
  Gate,
  PreReconcile,
  RequeueRule,
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
  TemplateEntry,
  EntryCopy,
  EntryForEach,
  EntryTls,
  EntryProfileChoice,
  ProfileReference,
  TemplateKind,
  TemplatePhase,
  AdmissionRules,
  AdmissionCall,
  AdmissionOperation,
  ValidationRule,
  ValidationOperator,
  MutationRule,
} from './types.js';
export type { QueueBehaviour, QueueDrop, RetryBackoff } from './queue-types.js';
export type { TemplateDialect, UserNote } from '../template/index.js';
