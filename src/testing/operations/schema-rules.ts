/**
 * The schema rules of a write of a custom resource, as kube-apiserver's custom resource strategy applies them: the
 * object is defaulted (schema-defaults.ts), then validated against the structural schema of the version it is
 * written in (schema-validation.ts) and its scale subresource's paths (scale-fields.ts), its set and map lists checked for duplicates (schema-list-types.ts), and its
 * CEL rules evaluated when the schema let it through (cel/validation-rules.ts). A write to `/status` validates only
 * `status` against the status schema, and the CEL rules of the whole object, as kube-apiserver does. An update is
 * ratcheted against the stored object: what it leaves as it was is not held against a schema that changed since (a
 * CEL rule's failure there is a warning), and list duplicates the stored object already had are not refused.
 * Problems are one 422 `Invalid` with every cause.
 */
import { celOutcome, hasCelRules } from '../cel/validation-rules.js';
import { withBuiltinDefaults } from '../kinds/builtin/builtin-defaults.js';
import type { ResourceView } from '../resources/resource-type.js';
import { decodedObject, withDefaults } from '../resources/schema-defaults.js';
import { asSchema, fieldSchema, type SchemaNode } from '../resources/schema-keywords.js';
import { listTypeProblems } from '../resources/schema-list-types.js';
import { scaleFieldProblems } from '../resources/scale-fields.js';
import { schemaProblems } from '../resources/schema-validation.js';
import { invalid, type FieldProblem } from '../status-errors.js';
import { metadataOf, type KubeObject } from '../store/record.js';
import { checkBuiltin } from './builtin-rules.js';
import { metadataProblems, metadataWarnings } from './metadata-rules.js';

/** The kinds of schema problem after which kube-apiserver does not run the CEL rules. */
const BLOCKING = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);
const RULES_NOT_CHECKED: FieldProblem = {
  field: '<nil>',
  reason: 'FieldValueInvalid',
  message: 'Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
};

/** The structural schema of a custom resource's version, or undefined (built-in kinds). */
export function schemaOf(view: ResourceView): SchemaNode | undefined {
  return view.type.builtin ? undefined : asSchema(view.type.schemas?.[view.version]);
}

/** `object` with the defaults kube-apiserver's decoder leaves it with: its schema's (a custom resource) or its kind's (built-in). */
export function withSchemaDefaults(view: ResourceView, object: KubeObject): KubeObject {
  if (view.type.builtin) return withBuiltinDefaults(view.type, object);
  const schema = schemaOf(view);
  return schema === undefined ? object : decodedObject(object, schema);
}

/** What {@link checkSchema} needs to know of the write besides the objects. */
export interface SchemaWrite {
  readonly subresource: 'status' | undefined;
  /**
   * The object came through kube-apiserver's decoder, which drops the nulls of fields that are neither nullable nor
   * defaulted; false for server-side apply, whose result the decoder never sees (such a null is refused).
   */
  readonly decoded: boolean;
  /** Receives the warnings of CEL rules a ratcheted value fails. */
  readonly warn: ((warning: string) => void) | undefined;
}

/**
 * Defaults and validates `next`, the object a write would store (`prev`: the stored one of an update). Answers the
 * object to store (defaulted; a new object where a default was filled in, `next` itself otherwise), or throws 422.
 */
export function checkSchema(view: ResourceView, next: KubeObject, prev: KubeObject | undefined, write: SchemaWrite): KubeObject {
  const { subresource, decoded } = write;
  // ObjectMeta's rules come first, for every kind (metadata-rules.ts).
  const metadata = metadataProblems(view, next, prev);
  if (view.type.builtin) return checkBuiltin(view, next, prev, subresource, write.warn, metadata);
  const schema = schemaOf(view);
  if (schema === undefined) {
    if (metadata.length > 0) throw invalid(view.type, String(metadataOf(next)['name'] ?? ''), metadata);
    warnOfFinalizers(view, next, prev, write);
    return next;
  }
  const object = decoded ? decodedObject(next, schema) : (withDefaults(next, schema) as KubeObject);
  const problems: FieldProblem[] = [...metadata];
  if (subresource === 'status') {
    const statusSchema = fieldSchema(schema, 'status');
    if (statusSchema !== undefined && Object.hasOwn(object, 'status')) {
      const old = prev !== undefined && Object.hasOwn(prev, 'status') ? { value: prev['status'] } : undefined;
      problems.push(...schemaProblems(statusSchema, object['status'], old, 'status'));
    }
  } else {
    problems.push(...schemaProblems(schema, object, prev === undefined ? undefined : { value: prev }));
  }
  if (view.scale !== undefined) problems.push(...scaleFieldProblems(view.scale, object, subresource));
  if (prev === undefined || listTypeProblems(schema, prev).length === 0) problems.push(...listTypeProblems(schema, object));
  if (hasCelRules(schema)) {
    // kube-apiserver runs the CEL rules only on an object the schema let through (hasBlockingErr).
    if (problems.some((problem) => BLOCKING.has(problem.reason ?? ''))) problems.push(RULES_NOT_CHECKED);
    else {
      const outcome = celOutcome(schema, object, prev === undefined ? undefined : { value: prev });
      problems.push(...outcome.problems);
      for (const warning of outcome.warnings) write.warn?.(warning);
    }
  }
  if (problems.length > 0) {
    const name = metadataOf(object)['name'];
    throw invalid(view.type, typeof name === 'string' ? name : '', problems);
  }
  warnOfFinalizers(view, next, prev, write);
  return object;
}

/** A custom resource's warnings about the finalizers a write adds: only for a write that passed (WarningsOnCreate/Update). */
function warnOfFinalizers(view: ResourceView, next: KubeObject, prev: KubeObject | undefined, write: SchemaWrite): void {
  for (const warning of metadataWarnings(view, next, prev)) write.warn?.(warning);
}
