/**
 * What the API server checks and fills in on a CustomResourceDefinition write: the name/group/scope/versions
 * rules, defaults a custom resource could not hold (crd-defaults.ts), the cleanup finalizer, and the status a real
 * server's controllers would write (accepted names, NamesAccepted and Established at once, storedVersions,
 * Terminating while deleting).
 */
import { jsonEqual } from '../patch/json-value.js';
import type { ResourceRegistry } from '../resources/registry.js';
import type { ResourceType } from '../resources/resource-type.js';
import { invalid, type FieldProblem } from '../status-errors.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../store/record.js';
import { dropUnsetKeywords, missingSchemaProblems, schemaProblemsOf, schemaWarnings, sharedSchema } from './crd-schemas.js';
import { acceptedNames, crdVersions } from './crd-types.js';

/** The finalizer a real server puts on every CRD; removed once all its custom resources are gone. */
export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

const CRD_KIND = { group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition' };
const PLURAL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

type Json = Record<string, unknown>;

function obj(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

const fieldsOf = (version: Json): unknown[] => (Array.isArray(version['selectableFields']) ? (version['selectableFields'] as unknown[]) : []);

/**
 * Where kube-apiserver 1.37.2 refuses `selectableFields`. Its conversion of a v1 CRD moves a per-version field that is
 * the same in every version (the schema, the selectable fields) up to the spec, and then each place checks that the
 * schema is beside its selectable fields: so versions with one shared schema but different selectable fields are
 * refused, and so are the same selectable fields in every version with different schemas (probed; the messages are
 * kube-apiserver's, the first one as worded there).
 */
function selectableFieldProblems(versions: readonly Json[]): FieldProblem[] {
  const first = versions[0];
  if (first === undefined) return [];
  const schemaShared = versions.every((v) => jsonEqual(v['schema'], first['schema']));
  if (versions.every((v) => jsonEqual(fieldsOf(v), fieldsOf(first)))) {
    const hasSchema = schemaShared && obj(first['schema'])['openAPIV3Schema'] !== undefined;
    return fieldsOf(first).length > 0 && !hasSchema ? [{ field: 'spec.selectableFields', message: 'Invalid value: "": may only be set when validations.schema is included' }] : [];
  }
  return versions.flatMap((v, i) =>
    fieldsOf(v).length > 0 && (schemaShared || obj(v['schema'])['openAPIV3Schema'] === undefined)
      ? [{ field: `spec.versions[${i}].selectableFields`, message: 'Invalid value: "": may only be set when `version.schema.openAPIV3Schema` is not included' }]
      : [],
  );
}

function validate(crd: KubeObject, name: string, registry: ResourceRegistry, prev: StoredRecord | undefined): void {
  const spec = obj(crd['spec']);
  const names = obj(spec['names']);
  const group = typeof spec['group'] === 'string' ? spec['group'] : '';
  const plural = typeof names['plural'] === 'string' ? names['plural'] : '';
  const problems: FieldProblem[] = [];
  if (group === '') problems.push({ field: 'spec.group', message: 'Required value' });
  else if (!group.includes('.')) problems.push({ field: 'spec.group', message: `Invalid value: "${group}": should be a domain with at least one dot` });
  if (plural === '') problems.push({ field: 'spec.names.plural', message: 'Required value' });
  else if (!PLURAL.test(plural)) problems.push({ field: 'spec.names.plural', message: `Invalid value: "${plural}": must be a lowercase DNS label` });
  if (typeof names['kind'] !== 'string' || names['kind'] === '') problems.push({ field: 'spec.names.kind', message: 'Required value' });
  if (name !== `${plural}.${group}`) problems.push({ field: 'metadata.name', message: `Invalid value: "${name}": must be spec.names.plural+"."+spec.group` });
  if (spec['scope'] !== 'Namespaced' && spec['scope'] !== 'Cluster') {
    problems.push({ field: 'spec.scope', message: `Unsupported value: ${JSON.stringify(spec['scope'] ?? '')}: supported values: "Cluster", "Namespaced"` });
  }
  const versions = crdVersions(crd);
  if (versions.length === 0) problems.push({ field: 'spec.versions', message: 'Invalid value: null: must have exactly one version marked as storage version' });
  else if (versions.filter((v) => v['storage'] === true).length !== 1) {
    problems.push({ field: 'spec.versions', message: 'Invalid value: must have exactly one version marked as storage version' });
  }
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    const version = typeof v['name'] === 'string' ? v['name'] : '';
    if (version === '') problems.push({ field: `spec.versions[${i}].name`, message: 'Required value' });
    if (seen.has(version)) problems.push({ field: `spec.versions[${i}].name`, message: `Duplicate value: "${version}"` });
    seen.add(version);
  });
  problems.push(...selectableFieldProblems(versions));
  problems.push(...missingSchemaProblems(versions));
  if (sharedSchema(versions)) problems.push(...schemaProblemsOf(versions, undefined));
  else versions.forEach((_, i) => problems.push(...schemaProblemsOf(versions, i)));
  const existing = registry.byKey(`${group}/${plural}`);
  if (existing?.builtin === true) {
    problems.push({ field: 'metadata.name', message: `Invalid value: "${name}": conflicts with a built-in resource of the test API server` });
  }
  if (prev !== undefined) {
    const prevSpec = obj(prev.object['spec']);
    if (prevSpec['scope'] !== spec['scope']) problems.push({ field: 'spec.scope', message: `Invalid value: ${JSON.stringify(spec['scope'])}: field is immutable` });
    const stored = (obj(prev.object['status'])['storedVersions'] as unknown[] | undefined) ?? [];
    stored.forEach((v, i) => {
      if (typeof v === 'string' && !seen.has(v)) problems.push({ field: `status.storedVersions[${i}]`, message: `Invalid value: "${v}": must appear in spec.versions` });
    });
  }
  if (problems.length > 0) throw invalid(CRD_KIND, name, problems);
}

function condition(type: string, reason: string, message: string, now: string, prevConditions: unknown): Json {
  const previous = Array.isArray(prevConditions) ? prevConditions.map(obj).find((c) => c['type'] === type) : undefined;
  const lastTransitionTime = previous?.['status'] === 'True' && typeof previous['lastTransitionTime'] === 'string' ? previous['lastTransitionTime'] : now;
  return { type, status: 'True', lastTransitionTime, reason, message };
}

/** The status a real server converges to for this CRD, computed at once. */
function computeStatus(crd: KubeObject, prev: StoredRecord | undefined, now: string): Json {
  const prevStatus = obj(prev?.object['status']);
  const storage = crdVersions(crd).find((v) => v['storage'] === true)?.['name'];
  const stored = Array.isArray(prevStatus['storedVersions']) ? prevStatus['storedVersions'].filter((v): v is string => typeof v === 'string') : [];
  if (typeof storage === 'string' && !stored.includes(storage)) stored.push(storage);
  const conditions = [
    condition('NamesAccepted', 'NoConflicts', 'no conflicts found', now, prevStatus['conditions']),
    condition('Established', 'InitialNamesAccepted', 'the initial names have been accepted', now, prevStatus['conditions']),
  ];
  if (typeof metadataOf(crd)['deletionTimestamp'] === 'string') {
    conditions.push(condition('Terminating', 'InstanceDeletionInProgress', 'CustomResource deletion is in progress', now, prevStatus['conditions']));
  }
  const status: Json = { conditions, acceptedNames: acceptedNames(crd), storedVersions: stored };
  return jsonEqual(status, prevStatus) ? prevStatus : status;
}

/** Validates a new CRD, adds the cleanup finalizer and sets its status. */
export function prepareCrdCreate(crd: KubeObject, registry: ResourceRegistry, now: string, warn?: (warning: string) => void): void {
  const metadata = metadataOf(crd);
  dropUnsetKeywords(crdVersions(crd));
  validate(crd, String(metadata['name'] ?? ''), registry, undefined);
  for (const warning of schemaWarnings(crdVersions(crd))) warn?.(warning);
  const finalizers = Array.isArray(metadata['finalizers']) ? [...(metadata['finalizers'] as unknown[])] : [];
  if (!finalizers.includes(CRD_CLEANUP_FINALIZER)) finalizers.push(CRD_CLEANUP_FINALIZER);
  metadata['finalizers'] = finalizers;
  crd['status'] = computeStatus(crd, undefined, now);
}

/** Validates an updated CRD and recomputes its status. */
export function prepareCrdUpdate(crd: KubeObject, prev: StoredRecord, registry: ResourceRegistry, now: string, warn?: (warning: string) => void): void {
  dropUnsetKeywords(crdVersions(crd));
  validate(crd, String(metadataOf(crd)['name'] ?? ''), registry, prev);
  const before = new Set(schemaWarnings(crdVersions(prev.object)));
  for (const warning of schemaWarnings(crdVersions(crd))) if (!before.has(warning)) warn?.(warning);
  crd['status'] = computeStatus(crd, prev, now);
}

/** Recomputes the status of a CRD whose metadata changed (e.g. it is being deleted: Terminating). */
export function refreshCrdStatus(crd: KubeObject, prev: StoredRecord, now: string): void {
  crd['status'] = computeStatus(crd, prev, now);
}

/** The name of the CRD that defines a custom resource type (`<plural>.<group>`). */
export function crdNameOf(type: ResourceType): string {
  return `${type.plural}.${type.group}`;
}
