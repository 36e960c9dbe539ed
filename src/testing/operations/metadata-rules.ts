/**
 * ObjectMeta's validation on every write of every kind, as kube-apiserver runs it before a kind's own rules:
 * apimachinery's ValidateObjectMetaAccessor and its update (labels, annotations, owner references, finalizer
 * names; a `/status` write keeps the stored metadata, so it meets none of them). The built-in
 * kinds add core's rule that a finalizer is a standard one or has a `/`; a custom resource is warned about such a
 * finalizer instead (apiextensions' WarningsOnCreate/Update, for the finalizers a write adds). With kube-apiserver
 * 1.37.2's messages, as `test/conformance/object-meta.ts` asserts on both servers.
 */
import { labelProblems, qualifiedNameProblems } from '../kinds/builtin/field-rules.js';
import { goJson, goQuote } from '../go/go-values.js';
import type { ResourceView } from '../resources/resource-type.js';
import { fieldInvalid, fieldRequired, fieldTooLong, type FieldProblem } from '../status-errors.js';
import { metadataOf, type KubeObject } from '../store/record.js';

const ANNOTATIONS_LIMIT = 256 * 1024;
const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);
/** The groups whose validation is apimachinery's alone: CRDs and webhook configurations. */
const GENERIC_GROUPS = new Set(['apiextensions.k8s.io', 'admissionregistration.k8s.io']);

type Json = Record<string, unknown>;

function stringMap(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** apimachinery's ValidateAnnotations: each key a qualified name (case aside), and 256 KiB of keys and values in all. */
function annotationProblems(annotations: Json): FieldProblem[] {
  const problems: FieldProblem[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(annotations)) {
    for (const message of qualifiedNameProblems(key.toLowerCase())) problems.push(fieldInvalid('metadata.annotations', key, message));
    size += Buffer.byteLength(key) + Buffer.byteLength(text(value));
  }
  if (size > ANNOTATIONS_LIMIT) problems.push(fieldTooLong('metadata.annotations', ANNOTATIONS_LIMIT));
  return problems;
}

/** An owner reference as Go writes the struct: its four strings always, the two flags when set. */
function ownerReferenceJson(ref: Json): string {
  const fields = ['apiVersion', 'kind', 'name', 'uid'].map((key) => `${JSON.stringify(key)}:${goJson(text(ref[key]))}`);
  for (const flag of ['controller', 'blockOwnerDeletion']) if (typeof ref[flag] === 'boolean') fields.push(`${JSON.stringify(flag)}:${String(ref[flag])}`);
  return `{${fields.join(',')}}`;
}

/** apimachinery's ValidateOwnerReferences: each reference's four fields, no Event as an owner, one controller at most. */
function ownerReferenceProblems(refs: readonly unknown[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  let controller = '';
  refs.forEach((item, index) => {
    const ref = stringMap(item);
    const at = `metadata.ownerReferences[${index}]`;
    const apiVersion = text(ref['apiVersion']);
    const parts = apiVersion.split('/');
    const version = parts.length === 1 ? parts[0] : parts[1];
    if (apiVersion === '') problems.push(fieldRequired(`${at}.apiVersion`, 'must not be empty'));
    else if (parts.length > 2 || version === '') problems.push(fieldInvalid(`${at}.apiVersion`, apiVersion, 'must be <group>/<version> or <version>'));
    for (const key of ['kind', 'name', 'uid']) if (text(ref[key]) === '') problems.push(fieldRequired(`${at}.${key}`, 'must not be empty'));
    if (apiVersion === 'v1' && ref['kind'] === 'Event') {
      problems.push({ field: at, reason: 'FieldValueInvalid', message: `Invalid value: ${ownerReferenceJson(ref)}: /v1, Kind=Event is disallowed from being an owner` });
    }
    if (ref['controller'] === true) {
      const current = `${text(ref['kind'])}/${text(ref['name'])}`;
      if (controller === '') controller = current;
      else {
        const all = `[${refs.map((r) => ownerReferenceJson(stringMap(r))).join(',')}]`;
        problems.push({
          field: 'metadata.ownerReferences',
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${all}: Only one reference can have Controller set to true. Found "true" in references for ${controller} and ${current}`,
        });
      }
    }
  });
  return problems;
}

/** apimachinery's ValidateFinalizers: each a qualified name, not both `orphan` and `foregroundDeletion`. */
function finalizerNameProblems(finalizers: readonly string[]): FieldProblem[] {
  const problems = finalizers.flatMap((finalizer) => qualifiedNameProblems(finalizer).map((message) => fieldInvalid('metadata.finalizers', finalizer, message)));
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    problems.push(fieldInvalid('metadata.finalizers', finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return problems;
}

function isStandardOrQualified(finalizer: string): boolean {
  return finalizer.includes('/') || STANDARD_FINALIZERS.has(finalizer);
}

function finalizersOf(metadata: Json): string[] {
  const finalizers = metadata['finalizers'];
  return Array.isArray(finalizers) ? finalizers.map(text) : [];
}

/**
 * Whether core's finalizer rule applies: not to CRDs and webhook configurations (apimachinery's validation alone),
 * nor to a `v1` Event, whose legacy validation leaves ObjectMeta to the registry's generic checks.
 */
function coreFinalizerRule(type: { readonly builtin: boolean; readonly group: string; readonly kind: string }): boolean {
  return type.builtin && !GENERIC_GROUPS.has(type.group) && !(type.group === '' && type.kind === 'Event');
}

/** The problems of `next`'s metadata (`prev`: the stored object of an update or a `/status` write), in kube-apiserver's order. */
export function metadataProblems(view: ResourceView, next: KubeObject, prev: KubeObject | undefined): FieldProblem[] {
  const metadata = metadataOf(next);
  const refs = metadata['ownerReferences'];
  const finalizers = finalizersOf(metadata);
  const problems = [
    ...labelProblems(stringMap(metadata['labels']), 'metadata.labels'),
    ...annotationProblems(stringMap(metadata['annotations'])),
    ...ownerReferenceProblems(Array.isArray(refs) ? refs : []),
    ...finalizerNameProblems(finalizers),
  ];
  if (coreFinalizerRule(view.type)) {
    finalizers.forEach((finalizer, index) => {
      if (!isStandardOrQualified(finalizer)) problems.push(fieldInvalid(`metadata.finalizers[${index}]`, finalizer, 'name is neither a standard finalizer name nor is it fully qualified'));
    });
  }
  return problems;
}

/** A custom resource's warnings for the finalizers a write adds (sorted, as apiextensions lists them). */
export function metadataWarnings(view: ResourceView, next: KubeObject, prev: KubeObject | undefined): string[] {
  if (view.type.builtin) return [];
  const before = new Set(prev === undefined ? [] : finalizersOf(metadataOf(prev)));
  const added = [...new Set(finalizersOf(metadataOf(next)).filter((finalizer) => !before.has(finalizer)))].sort();
  const warnings: string[] = [];
  for (const finalizer of added) {
    const quoted = goQuote(finalizer);
    for (const message of qualifiedNameProblems(finalizer)) warnings.push(`metadata.finalizers: ${quoted}: ${message}`);
    if (!isStandardOrQualified(finalizer)) {
      const including = finalizer.includes('.') ? ' including a path (/)' : '';
      warnings.push(`metadata.finalizers: ${quoted}: prefer a domain-qualified finalizer name${including} to avoid accidental conflicts with other finalizer writers`);
    }
  }
  return warnings;
}
