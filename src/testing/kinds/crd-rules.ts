/**
 * What the API server checks and fills in on a CustomResourceDefinition write, in kube-apiserver's order (1.37.2,
 * probed): its v1 defaults (crd-spec-defaults.ts), the name, group and scope, the versions and their parts
 * (crd-version-rules.ts, the schemas in crd-schemas.ts), the names (crd-names.ts), the conversion
 * (crd-conversion-rules.ts), on update what is immutable, the stored versions, the approval annotation of a protected
 * group; then the cleanup finalizer, and the status its controllers would write at once (accepted names,
 * NamesAccepted and Established, or NamesAccepted=False when another CRD of the group holds a name, storedVersions,
 * Terminating while deleting).
 */
import type { ResourceRegistry } from '../resources/registry.js';
import type { ResourceType } from '../resources/resource-type.js';
import { dns1035LabelProblems, dns1123SubdomainProblems } from '../resources/dns-names.js';
import { fieldInvalid, fieldNotSupported, fieldRequired, invalid, type FieldProblem } from '../status-errors.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../store/record.js';
import { conversionProblems } from './crd-conversion-rules.js';
import { nameFormProblems, requiredNameProblems } from './crd-names.js';
import { dropUnsetKeywords, missingSchemaProblems, schemaOf, schemaProblemsOf, schemaWarnings } from './crd-schemas.js';
import { defaultCrdSpec } from './crd-spec-defaults.js';
import { columnProblems, deprecationProblems, selectableFieldProblems, sharedPart, subresourceProblems } from './crd-version-rules.js';
import { goVersionsDump, type HoistedParts } from './go-schema-dump.js';
import { approvalProblems } from './crd-approval.js';
import { crdStatus, established, storedVersionsOf } from './crd-status.js';
import { crdVersions, obj, str } from './crd-types.js';

/** The finalizer a real server puts on every CRD; removed once all its custom resources are gone. */
export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

const CRD_KIND = { group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition' };

type Json = Record<string, unknown>;

const fieldsOf = (version: Json): unknown[] => (Array.isArray(version['selectableFields']) ? (version['selectableFields'] as unknown[]) : []);

/** What kube-apiserver checks of a CRD's versions and their parts, in its order (the parts it checks per version). */
function versionProblems(versions: readonly Json[], hoisted: HoistedParts): FieldProblem[] {
  const problems: FieldProblem[] = [...missingSchemaProblems(versions)];
  versions.forEach((version, i) => {
    const at = `spec.versions[${i}]`;
    const name = str(version['name']);
    const nameProblems = dns1035LabelProblems(name);
    if (nameProblems.length > 0) problems.push(fieldInvalid(`${at}.name`, name, nameProblems.join(',')));
    problems.push(...deprecationProblems(version, at));
    if (!hoisted.schema) problems.push(...schemaProblemsOf(versions, i));
    if (!hoisted.subresources) problems.push(...subresourceProblems(version['subresources'], `${at}.subresources`));
    if (!hoisted.additionalPrinterColumns) problems.push(...columnProblems(version['additionalPrinterColumns'], `${at}.additionalPrinterColumns`));
    if (!hoisted.selectableFields && fieldsOf(version).length > 0) {
      const schema = schemaOf(version);
      // A shared schema is not the version's own (kube-apiserver's wording, where it checks the version's).
      if (hoisted.schema || schema === undefined) problems.push(fieldInvalid(`${at}.selectableFields`, '', 'may only be set when `version.schema.openAPIV3Schema` is not included'));
      else problems.push(...selectableFieldProblems(version['selectableFields'], schema, `${at}.selectableFields`));
    }
  });
  const names = versions.map((version) => str(version['name']));
  if (new Set(names).size !== names.length) problems.push(versionsInvalid(versions, hoisted, 'must contain unique version names'));
  if (versions.filter((version) => version['storage'] === true).length !== 1) problems.push(versionsInvalid(versions, hoisted, 'must have exactly one version marked as storage version'));
  const first = versions[0];
  if (first !== undefined) {
    // kube-apiserver's internal form also keeps the first version's name as `spec.version`.
    const found = dns1035LabelProblems(str(first['name']));
    if (found.length > 0) problems.push(fieldInvalid('spec.version', str(first['name']), found.join(',')));
  }
  return problems;
}

function versionsInvalid(versions: readonly Json[], hoisted: HoistedParts, detail: string): FieldProblem {
  return { field: 'spec.versions', reason: 'FieldValueInvalid', message: `Invalid value: ${versions.length === 0 ? 'null' : goVersionsDump(versions, hoisted)}: ${detail}` };
}

/** The parts every version has alike, checked once on the spec, in kube-apiserver's order. */
function sharedPartProblems(versions: readonly Json[], hoisted: HoistedParts): FieldProblem[] {
  const first = versions[0];
  if (first === undefined) return [];
  const problems: FieldProblem[] = [];
  if (hoisted.schema) problems.push(...schemaProblemsOf(versions, undefined));
  if (hoisted.subresources) problems.push(...subresourceProblems(first['subresources'], 'spec.subresources'));
  if (hoisted.additionalPrinterColumns) problems.push(...columnProblems(first['additionalPrinterColumns'], 'spec.additionalPrinterColumns'));
  if (hoisted.selectableFields && fieldsOf(first).length > 0) {
    const schema = schemaOf(first);
    if (!hoisted.schema || schema === undefined) problems.push(fieldInvalid('spec.selectableFields', '', 'may only be set when validations.schema is included'));
    else problems.push(...selectableFieldProblems(first['selectableFields'], schema, 'spec.selectableFields'));
  }
  return problems;
}

/** The group, in kube-apiserver's words. */
function groupProblems(group: string): FieldProblem[] {
  if (group === '') return [fieldRequired('spec.group')];
  const found = dns1123SubdomainProblems(group);
  if (found.length > 0) return [fieldInvalid('spec.group', group, found.join(','))];
  return group.includes('.') ? [] : [fieldInvalid('spec.group', group, 'should be a domain with at least one dot')];
}

function storedVersionProblems(stored: readonly string[], versions: readonly Json[]): FieldProblem[] {
  if (stored.length === 0) return [fieldInvalid('status.storedVersions', null, 'must have at least one stored version')];
  const problems: FieldProblem[] = [];
  const names = versions.map((version) => str(version['name']));
  for (const version of versions) {
    if (version['storage'] === true && !stored.includes(str(version['name']))) problems.push(fieldInvalid('status.storedVersions', stored, `must have the storage version ${str(version['name'])}`));
  }
  stored.forEach((v, i) => {
    if (!names.includes(v)) {
      problems.push(fieldInvalid(`status.storedVersions[${i}]`, v, `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`));
    }
  });
  return problems;
}

function validate(crd: KubeObject, name: string, registry: ResourceRegistry, prev: StoredRecord | undefined): void {
  const spec = obj(crd['spec']);
  const names = obj(spec['names']);
  const group = str(spec['group']);
  const plural = str(names['plural']);
  const versions = crdVersions(crd);
  const hoisted: HoistedParts = {
    schema: sharedPart(versions, 'schema'),
    subresources: sharedPart(versions, 'subresources'),
    additionalPrinterColumns: sharedPart(versions, 'additionalPrinterColumns'),
    selectableFields: sharedPart(versions, 'selectableFields'),
  };
  const problems: FieldProblem[] = [];
  // The name is checked on create only (it cannot change).
  if (prev === undefined) {
    for (const problem of dns1123SubdomainProblems(name)) problems.push(fieldInvalid('metadata.name', name, problem));
    if (name !== `${plural}.${group}`) problems.push(fieldInvalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  }
  problems.push(...groupProblems(group));
  const scope = str(spec['scope']);
  if (scope === '') problems.push(fieldRequired('spec.scope'));
  else if (scope !== 'Namespaced' && scope !== 'Cluster') problems.push(fieldNotSupported('spec.scope', scope, ['Cluster', 'Namespaced']));
  problems.push(...versionProblems(versions, hoisted));
  problems.push(...requiredNameProblems(names), ...nameFormProblems(names));
  problems.push(...sharedPartProblems(versions, hoisted));
  problems.push(...conversionProblems(spec['conversion']));
  if (prev !== undefined) {
    const prevSpec = obj(prev.object['spec']);
    if (established(prev.object)) {
      if (scope !== str(prevSpec['scope'])) problems.push(fieldInvalid('spec.scope', scope, 'field is immutable'));
      if (str(names['kind']) !== str(obj(prevSpec['names'])['kind'])) problems.push(fieldInvalid('spec.names.kind', str(names['kind']), 'field is immutable'));
    }
    if (group !== str(prevSpec['group'])) problems.push(fieldInvalid('spec.group', group, 'field is immutable'));
    if (plural !== str(obj(prevSpec['names'])['plural'])) problems.push(fieldInvalid('spec.names.plural', plural, 'field is immutable'));
  }
  problems.push(...storedVersionProblems(storedVersionsOf(versions, prev?.object), versions));
  problems.push(...approvalProblems(crd, prev?.object));
  if (spec['preserveUnknownFields'] === true && obj(prev?.object['spec'])['preserveUnknownFields'] !== true) {
    problems.push(fieldInvalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'));
  }
  if (registry.byKey(`${group}/${plural}`)?.builtin === true) {
    problems.push(fieldInvalid('metadata.name', name, 'conflicts with a built-in resource of the test API server'));
  }
  if (problems.length > 0) throw invalid(CRD_KIND, name, problems);
}

/** Validates a new CRD, adds the cleanup finalizer and sets its status. */
export function prepareCrdCreate(crd: KubeObject, registry: ResourceRegistry, now: string, warn?: (warning: string) => void): void {
  const metadata = metadataOf(crd);
  defaultCrdSpec(crd);
  dropUnsetKeywords(crdVersions(crd));
  validate(crd, String(metadata['name'] ?? ''), registry, undefined);
  for (const warning of schemaWarnings(crdVersions(crd))) warn?.(warning);
  const finalizers = Array.isArray(metadata['finalizers']) ? [...(metadata['finalizers'] as unknown[])] : [];
  if (!finalizers.includes(CRD_CLEANUP_FINALIZER)) finalizers.push(CRD_CLEANUP_FINALIZER);
  metadata['finalizers'] = finalizers;
  crd['status'] = crdStatus(crd, undefined, registry, now);
}

/** Validates an updated CRD and recomputes its status. */
export function prepareCrdUpdate(crd: KubeObject, prev: StoredRecord, registry: ResourceRegistry, now: string, warn?: (warning: string) => void): void {
  defaultCrdSpec(crd);
  dropUnsetKeywords(crdVersions(crd));
  validate(crd, String(metadataOf(crd)['name'] ?? ''), registry, prev);
  for (const warning of schemaWarnings(crdVersions(crd), crdVersions(prev.object))) warn?.(warning);
  crd['status'] = crdStatus(crd, prev.object, registry, now);
}

/** Recomputes the status of a CRD whose metadata changed (e.g. it is being deleted: Terminating). */
export function refreshCrdStatus(crd: KubeObject, prev: StoredRecord, registry: ResourceRegistry, now: string): void {
  crd['status'] = crdStatus(crd, prev.object, registry, now);
}

/** The name of the CRD that defines a custom resource type (`<plural>.<group>`). */
export function crdNameOf(type: ResourceType): string {
  return `${type.plural}.${type.group}`;
}
