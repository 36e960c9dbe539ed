/**
 * PATCH, chosen by Content-Type: JSON merge patch, JSON patch, strategic merge patch (built-in kinds only; custom
 * resources get 415 as from a real server) and server-side apply (creates missing objects, field managers and
 * conflicts). The patched object then goes through the same update rules as a PUT.
 */
import type { Cluster } from '../cluster.js';
import {
  ApplyConflictError,
  PatchError,
  applyMergePatch,
  applyStrategicMergePatch,
  serverSideApply,
  strategicSchemaFor,
  type JsonPatch,
  type ManagedFieldsEntry,
} from '../patch/index.js';
import { goMapValue } from '../go/go-values.js';
import { notAnObject } from '../go/go-json.js';
import { mergePatchedText, jsonPatchedText } from '../patch/patched-text.js';
import { builtInRootStruct } from '../resources/builtin-typed-schema.js';
import { unstructuredConversionError } from '../resources/go-conversion.js';
import { goDecodingError } from '../resources/go-decoding.js';
import type { ResourceView } from '../resources/resource-type.js';
import { applyId } from '../resources/typed-apply.js';
import {
  STRATEGIC_ON_CUSTOM_RESOURCE,
  badRequest,
  conflict,
  conflictWithMessage,
  internalErrorWithMessage,
  invalid,
  notFound,
  patchInvalid,
  unprocessable,
  unsupportedMediaType,
} from '../status-errors.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../store/record.js';
import { heldAtView } from '../resources/version-forms.js';
import { createObject } from './create.js';
import { decodedJsonPatch, jsonPatched } from './json-patch-answers.js';
import { checkIdentity, finishUpdate, type ObjectTarget } from './update.js';
import type { WriteOptions } from './write-options.js';

export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

const MEDIA_TYPES: Readonly<Record<string, PatchType>> = {
  'application/merge-patch+json': 'merge',
  'application/json-patch+json': 'json',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
  'application/apply-patch+json': 'apply',
};

/** The patch type of a Content-Type header (parameters after `;` ignored), or undefined. */
export function patchTypeOf(contentType: string | undefined): PatchType | undefined {
  const media = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return MEDIA_TYPES[media];
}

export interface PatchOptions extends WriteOptions {
  /** Server-side apply: take over conflicting fields. */
  readonly force: boolean;
  /**
   * Called with the patched object of a merge, JSON or strategic patch before it is stored (not for apply): answers
   * the object to store (`fieldValidation`'s pruning) or throws to refuse the patch. For a JSON patch, `patchedText`
   * writes the patched object as the patch library does, which a refusal quotes.
   */
  readonly checkFields?: (object: KubeObject, patchedText?: () => string) => KubeObject;
  /**
   * Called with the object the patch (or apply) produced, just before it is stored (after `checkFields`): answers
   * the object to store instead. Admission uses it to store what the mutating webhooks made of the patched object.
   */
  readonly replace?: (object: KubeObject) => KubeObject;
  /**
   * Decodes a JSON patch as the request's handler does (http/json-patch-body.ts: strictly first, with the body's
   * text); without it, the patch library alone decodes it.
   */
  readonly decodeJsonPatch?: (patch: unknown) => JsonPatch;
  /** The managedFields to store (admission's, recorded before the mutating webhooks changed the object); not for apply. */
  readonly managedFields?: ManagedFieldsEntry[];
}

/** The result of a patch: the stored record, and whether apply created it. */
export interface PatchResult {
  readonly record: StoredRecord;
  readonly created: boolean;
}

export function asObject(value: unknown, what: string): KubeObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw unprocessable(`${what} did not produce an object`);
  return value as KubeObject;
}

export function runEngine(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    if (error instanceof PatchError) throw error.internal ? internalErrorWithMessage(error.reason) : unprocessable(error.reason);
    throw error;
  }
}

export function checkUnchangedIdentity(view: ResourceView, patched: KubeObject, prev: StoredRecord): void {
  const metadata = metadataOf(patched);
  if (metadata['name'] !== prev.name) {
    throw invalid(view.type, prev.name, [{ field: 'metadata.name', message: `Invalid value: ${JSON.stringify(metadata['name'] ?? null)}: field is immutable` }]);
  }
  if (view.type.namespaced && metadata['namespace'] !== prev.namespace) {
    throw invalid(view.type, prev.name, [{ field: 'metadata.namespace', message: `Invalid value: ${JSON.stringify(metadata['namespace'] ?? null)}: field is immutable` }]);
  }
  if (patched['apiVersion'] !== view.apiVersion || patched['kind'] !== view.type.kind) {
    throw badRequest(`the patch changed apiVersion or kind (to ${String(patched['apiVersion'])} ${String(patched['kind'])})`);
  }
}

/** Applies a merge, JSON or strategic patch (`patch` already parsed from JSON) to an existing object. */
export function patchObject(cluster: Cluster, view: ResourceView, type: PatchType, patch: unknown, target: ObjectTarget, options: PatchOptions): PatchResult {
  if (type === 'apply') return applyObject(cluster, view, patch, target, options);
  let schema: ReturnType<typeof strategicSchemaFor>;
  if (type === 'strategic') {
    schema = view.type.builtin ? strategicSchemaFor(view.apiVersion, view.type.kind) : undefined;
    if (schema === undefined) throw unsupportedMediaType(STRATEGIC_ON_CUSTOM_RESOURCE);
  }
  const prev = cluster.store.get(view.type.key, target.namespace, target.name);
  if (prev === undefined) throw notFound(view.type, target.name);
  // The engines never modify their inputs: the stored object is patched without a copy of its own.
  const base = heldAtView(view, prev.object);
  let patched: unknown;
  let jsonPatch: JsonPatch = [];
  // A status patch keeps only the patched `status` (finishUpdate takes the rest from the stored object), and
  // neither `checkFields` nor admission changes the patched object in place: what the patch does not reach is shared.
  const shareUntouched = target.subresource === 'status';
  if (type === 'merge') patched = runEngine(() => applyMergePatch(base, patch, { shareUntouched }));
  else if (type === 'json') {
    jsonPatch = (options.decodeJsonPatch ?? decodedJsonPatch)(patch);
    patched = jsonPatched(base, jsonPatch);
    // A document replaced by an array: kube-apiserver's decoder looks for its kind first.
    if (Array.isArray(patched)) throw patchInvalid(jsonPatchedText(base, jsonPatch), notAnObject(patched));
  }
  else if (schema !== undefined) {
    const strategic = schema;
    patched = runEngine(() => applyStrategicMergePatch(base, patch, strategic));
  }
  const checked = asObject(patched, 'the patch');
  if (view.type.builtin) checkDecodes(view, type, base, type === 'json' ? jsonPatch : patch, checked);
  const fieldsChecked = options.checkFields === undefined ? checked : options.checkFields(checked, type === 'json' ? () => jsonPatchedText(base, jsonPatch) : undefined);
  const object = options.replace === undefined ? fieldsChecked : options.replace(fieldsChecked);
  checkUnchangedIdentity(view, object, prev);
  return { record: finishUpdate(cluster, view, prev, object, target.subresource, options), created: false };
}

/**
 * A built-in kind's patched object must make its Go object, as kube-apiserver makes it: a merge or JSON patch's
 * result is decoded from its JSON (go-decoding.ts), a strategic merge patch's converted from a map
 * (go-conversion.ts); what fails is a 422 on `patch`. A JSON patch comes decoded.
 */
function checkDecodes(view: ResourceView, type: PatchType, base: KubeObject, patch: unknown, patched: KubeObject): void {
  const struct = builtInRootStruct(view.type, view.version);
  if (struct === undefined) return;
  if (type === 'strategic') {
    const problem = unstructuredConversionError(struct, patched);
    if (problem !== undefined) throw patchInvalid(goMapValue(patch), problem);
    return;
  }
  const problem = goDecodingError(struct, patched, base);
  if (problem !== undefined) throw patchInvalid(type === 'merge' ? mergePatchedText(base, patch, patched) : jsonPatchedText(base, patch as JsonPatch), problem);
}

/**
 * An applied built-in object is converted to its Go object from the merged map (go-conversion.ts); what fails is
 * kube-apiserver's 500 `failed to convert new object ... to proper version`.
 */
function checkConverts(view: ResourceView, id: string, merged: KubeObject): void {
  const struct = view.type.builtin ? builtInRootStruct(view.type, view.version) : undefined;
  const problem = struct === undefined ? undefined : unstructuredConversionError(struct, merged);
  if (problem === undefined) return;
  const gvk = `${view.type.group}/${view.version}, Kind=${view.type.kind}`;
  throw internalErrorWithMessage(`failed to convert new object (${id}) to proper version: unable to convert unstructured object to ${gvk}: ${problem}`);
}

function conflictError(error: ApplyConflictError): Error {
  return conflictWithMessage(
    error.message,
    error.conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: c.message, field: c.path })),
  );
}

/**
 * The apply configuration of a request, checked: an object of `view`'s apiVersion and kind naming the target; its
 * `status` dropped on the main resource of a kind with a status subresource (which owns status).
 */
export function applyConfiguration(view: ResourceView, body: unknown, target: ObjectTarget): KubeObject {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('the apply configuration must be an object');
  const applied = body as KubeObject;
  if (typeof applied['apiVersion'] !== 'string' || applied['apiVersion'] === '') throw badRequest('apiVersion must be set in an apply configuration');
  if (typeof applied['kind'] !== 'string' || applied['kind'] === '') throw badRequest('kind must be set in an apply configuration');
  if (applied['apiVersion'] !== view.apiVersion || applied['kind'] !== view.type.kind) {
    throw badRequest(`the apply configuration is a ${String(applied['apiVersion'])} ${String(applied['kind'])}, expected ${view.apiVersion} ${view.type.kind}`);
  }
  checkIdentity(view, applied, target);
  if (view.statusSubresource && target.subresource === undefined) delete applied['status'];
  return applied;
}

/** Server-side apply's settings for a request at `view`. */
export function applySettings(cluster: Cluster, view: ResourceView, target: ObjectTarget, options: Pick<PatchOptions, 'manager' | 'force'>): Parameters<typeof serverSideApply>[2] {
  return {
    manager: options.manager,
    force: options.force,
    apiVersion: view.apiVersion,
    now: cluster.now(),
    listKeys: view.type.listKeys,
    // A custom resource keeps an applied null, which its schema then judges; a built-in kind's decoding drops it.
    keepNulls: !view.type.builtin,
    // A built-in kind's status write takes its metadata too (update.ts mergeForSubresource).
    statusMetadata: view.type.builtin,
    ...(target.subresource === undefined ? {} : { subresource: target.subresource }),
  };
}

function applyObject(cluster: Cluster, view: ResourceView, body: unknown, target: ObjectTarget, options: PatchOptions): PatchResult {
  const id = applyId(view, body); // as the request named it, before the target's namespace is filled in
  const applied = applyConfiguration(view, body, target);
  const prev = cluster.store.get(view.type.key, target.namespace, target.name);
  const askedRv = metadataOf(applied)['resourceVersion'];
  if (prev !== undefined && typeof askedRv === 'string' && askedRv !== '' && askedRv !== String(prev.rv)) throw conflict(view.type, target.name);
  const common = applySettings(cluster, view, target, options);
  if (prev === undefined) {
    if (target.subresource !== undefined) throw notFound(view.type, target.name);
    const result = runApply(() => serverSideApply(undefined, applied, common));
    result.object['apiVersion'] = view.apiVersion;
    result.object['kind'] = view.type.kind;
    checkConverts(view, id, result.object);
    const object = options.replace === undefined ? result.object : options.replace(result.object);
    const record = createObject(cluster, view, object, view.type.namespaced ? target.namespace : undefined, {
      manager: options.manager,
      dryRun: options.dryRun,
      managedFields: result.managedFields,
      fromApply: true,
      ...(options.warn === undefined ? {} : { warn: options.warn }),
    });
    return { record, created: true };
  }
  const live = heldAtView(view, prev.object);
  const result = runApply(() => serverSideApply(live, applied, common));
  result.object['apiVersion'] = view.apiVersion;
  result.object['kind'] = view.type.kind;
  checkConverts(view, id, result.object);
  const object = options.replace === undefined ? result.object : options.replace(result.object);
  checkUnchangedIdentity(view, object, prev);
  const record = finishUpdate(cluster, view, prev, object, target.subresource, {
    manager: options.manager,
    dryRun: options.dryRun,
    managedFields: result.managedFields,
    fromApply: true,
    ...(options.warn === undefined ? {} : { warn: options.warn }),
  });
  return { record, created: false };
}

export function runApply<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof ApplyConflictError) throw conflictError(error);
    if (error instanceof PatchError) throw unprocessable(error.reason);
    throw error;
  }
}
