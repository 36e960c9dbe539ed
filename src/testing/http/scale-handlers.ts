/**
 * The `/scale` endpoints (GET, PUT, PATCH of every type; `operations/scale.ts` does the work): decode the Scale a
 * request sends as kube-apiserver's decoder does (its type errors and unknown fields in its words), run admission
 * with the Scale as the object (`autoscaling/v1` Scale, subresource `scale`), and answer the parent's new Scale.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { admitWrite } from '../admission/admit.js';
import { applyMergePatch, applyStrategicMergePatch, PatchError, strategicSchemaFor, type ManagedFieldsEntry } from '../patch/index.js';
import { jsonPatched } from '../operations/json-patch-answers.js';
import { isJsonObject } from '../patch/json-value.js';
import { patchTypeOf, runApply } from '../operations/patch.js';
import { applyToScale, readScale, scaleAnswer, SCALE_KIND, scaleEntriesAfterUpdate, scaleForWrite, writeScale, type ScaledView } from '../operations/scale.js';
import { checkIdentity, existing } from '../operations/update.js';
import { pruneUnknown, SCALE_FIELDS } from '../resources/known-fields.js';
import { badRequest, STRATEGIC_ON_CUSTOM_RESOURCE, StatusError, unknownPatchType, unsupportedMediaType } from '../status-errors.js';
import type { KubeObject } from '../store/record.js';
import { parseApplyBody, parseJsonBody, parsePatchBody, readBody } from './body.js';
import type { ServerContext } from './context.js';
import { fieldValidationOf, patchInvalid, scanFields, sortedKeys, type FieldValidation } from './field-validation.js';
import { jsonPatchDecoder, strictJsonPatch } from './json-patch-body.js';
import { dryRun, fieldManagerOf, flag, optional, writeOptionsOf } from './query.js';
import type { ResourceRequest } from './resource-handlers.js';
import { unmarshalProblem } from '../go/go-json.js';
import { sendJson, withWarnings } from './respond.js';


/** The typed fields of a Scale: where Go's decoder refuses a value of another type. */
const TYPED_FIELDS = [
  { parent: 'spec', field: 'replicas', go: 'ScaleSpec.spec.replicas', type: 'int32', holds: 'int32' },
  { parent: 'status', field: 'replicas', go: 'ScaleStatus.status.replicas', type: 'int32', holds: 'int32' },
  { parent: 'status', field: 'selector', go: 'ScaleStatus.status.selector', type: 'string', holds: 'string' },
] as const;

/** Go's unmarshal error for the first typed field of `scale` holding another type, or undefined. */
function typeProblem(scale: KubeObject): string | undefined {
  for (const typed of TYPED_FIELDS) {
    const holder = scale[typed.parent];
    const problem = isJsonObject(holder) ? unmarshalProblem(holder[typed.field], typed) : undefined;
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * A Scale as Go holds it once decoded (in place): a null is the zero value, and `omitempty` leaves out replicas 0
 * and an empty selector, so the field manager sees replicas set to 0 as replicas removed.
 */
function decoded(scale: KubeObject): KubeObject {
  const spec = scale['spec'];
  if (isJsonObject(spec) && (spec['replicas'] === 0 || spec['replicas'] === null)) delete spec['replicas'];
  const status = scale['status'];
  if (isJsonObject(status)) {
    if (status['replicas'] === null) status['replicas'] = 0;
    if (status['selector'] === '' || status['selector'] === null) delete status['selector'];
  }
  return scale;
}

function versionOf(apiVersion: string): string {
  return apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
}

/** A PUT body as kube-apiserver decodes a Scale: its kind, apiVersion and field types (400 in its words). */
function checkScaleBody(view: ScaledView, body: KubeObject): void {
  const kind = typeof body['kind'] === 'string' && body['kind'] !== '' ? body['kind'] : SCALE_KIND.kind;
  const apiVersion = typeof body['apiVersion'] === 'string' && body['apiVersion'] !== '' ? body['apiVersion'] : 'autoscaling/v1';
  const version = versionOf(apiVersion);
  const cannot = `${kind} in version ${JSON.stringify(version)} cannot be handled as a Scale`;
  if (kind !== SCALE_KIND.kind) throw badRequest(`${cannot}: converting (${version}.${kind}) to (autoscaling.Scale): unknown conversion`);
  if (apiVersion !== 'autoscaling/v1') throw badRequest(`${cannot}: no kind "Scale" is registered for version ${JSON.stringify(apiVersion)} in scheme "pkg/runtime/scheme.go:111"`);
  const problem = typeProblem(body);
  if (problem === undefined) return;
  // apiextensions-apiserver's codec words the same failure differently.
  throw badRequest(view.type.builtin ? `${cannot}: ${problem}` : 'no kind is registered for the type v1.Scale in scheme "pkg/runtime/scheme.go:111"');
}

/** A patched Scale whose field types Go's decoder refuses: kube-apiserver's 422 on the patch. */
function checkPatchedScale(scale: KubeObject): void {
  const problem = typeProblem(scale);
  if (problem !== undefined) throw patchInvalid(`Invalid value: ${JSON.stringify(patchedText(scale))}: ${problem}`);
}

/** A patched Scale as kube-apiserver's patch error quotes it: the top-level fields in key order. */
function patchedText(scale: KubeObject): string {
  return JSON.stringify(Object.fromEntries(Object.keys(scale).sort().map((key) => [key, scale[key]])));
}

/** The unknown (and, in a body's text, duplicate) fields of a Scale: refused in Strict mode, warned of in Warn. */
function scaleFieldWarnings(mode: FieldValidation, problems: string[], strict: (problems: string[]) => StatusError): Record<string, string | string[]> {
  if (mode === 'Ignore' || problems.length === 0) return {};
  if (mode === 'Strict') throw strict(problems);
  return withWarnings({}, problems);
}

/** Runs the write of `scale` under admission and answers the parent's new Scale. */
async function admitAndWrite(
  ctx: ServerContext,
  res: ServerResponse,
  r: ResourceRequest & { readonly view: ScaledView },
  write: { readonly scale: KubeObject; readonly before: KubeObject; readonly manager: string; readonly dryRun: boolean; readonly headers: Record<string, string | string[]> },
  entriesOf: (scale: KubeObject) => ManagedFieldsEntry[],
): Promise<void> {
  const { cluster } = ctx;
  const { view } = r;
  const namespace = r.namespace ?? '';
  const name = r.name ?? '';
  const admitted = await admitWrite(
    cluster,
    { operation: 'UPDATE', view, namespace, name, subresource: 'scale', object: write.scale, oldObject: write.before, dryRun: write.dryRun, options: writeOptionsOf(r.query), kind: SCALE_KIND, shown: (record) => scaleAnswer(view, record) },
    (object, dry) => {
      const scale = object ?? write.scale;
      // A mutating webhook may have changed the Scale: it is decoded again.
      if (scale !== write.scale) checkPatchedScale(decoded(scale));
      return writeScale(cluster, view, name, namespace, scale, entriesOf(scale), { manager: write.manager, dryRun: dry });
    },
  );
  sendJson(res, 200, JSON.stringify(scaleAnswer(view, admitted.record)), withWarnings(write.headers, admitted.warnings));
}

async function putScale(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, r: ResourceRequest & { readonly view: ScaledView }): Promise<void> {
  const { view, query } = r;
  const mode = fieldValidationOf(query, 'UpdateOptions');
  const text = await readBody(req);
  const body = parseJsonBody(text);
  if (!isJsonObject(body)) throw badRequest('the request body must be a JSON object');
  const scale = body as KubeObject;
  const headers = scaleFieldWarnings(mode, mode === 'Ignore' ? [] : scanFields(text, SCALE_FIELDS, true), (problems) =>
    badRequest(`Scale in version "v1" cannot be handled as a Scale: strict decoding error: ${problems.join(', ')}`),
  );
  pruneUnknown(scale, SCALE_FIELDS);
  checkScaleBody(view, decoded(scale));
  const target = { namespace: r.namespace ?? '', name: r.name ?? '', subresource: undefined };
  checkIdentity(view, scale, target);
  const before = scaleForWrite(view, existing(ctx.cluster, view, target));
  const manager = fieldManagerOf(req, query, 'UpdateOptions');
  const now = ctx.cluster.now();
  await admitAndWrite(ctx, res, r, { scale, before, manager, dryRun: dryRun(query, 'UpdateOptions'), headers }, (after) => scaleEntriesAfterUpdate(before, after, manager, now));
}

async function patchScale(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, r: ResourceRequest & { readonly view: ScaledView }): Promise<void> {
  const { view, query } = r;
  const patchType = patchTypeOf(req.headers['content-type']);
  const text = await readBody(req);
  if (patchType === undefined) throw unknownPatchType(view);
  if (patchType === 'strategic' && !view.type.builtin) throw unsupportedMediaType(STRATEGIC_ON_CUSTOM_RESOURCE);
  if (patchType === 'apply' && optional(query, 'fieldManager') === undefined) throw badRequest('fieldManager is required for apply requests');
  const mode = fieldValidationOf(query, 'PatchOptions');
  const target = { namespace: r.namespace ?? '', name: r.name ?? '', subresource: undefined };
  const before = scaleForWrite(view, existing(ctx.cluster, view, target));
  const manager = fieldManagerOf(req, query, 'PatchOptions');
  const now = ctx.cluster.now();
  const common = { before, manager, dryRun: dryRun(query, 'PatchOptions') };
  if (patchType === 'apply') {
    const applied = parseApplyBody(text);
    if (!isJsonObject(applied)) throw badRequest('the apply configuration must be an object');
    const result = runApply(() => applyToScale(before, applied, { manager, force: flag(query, 'force'), now }));
    await admitAndWrite(ctx, res, r, { ...common, scale: result.scale, headers: {} }, () => result.entries);
    return;
  }
  const patch = parsePatchBody(text);
  const patched = patchType === 'json' ? jsonPatched(before, jsonPatchDecoder(text, mode)(patch)) : patchedScale(patchType, before, patch);
  if (!isJsonObject(patched)) throw badRequest('the patch did not produce an object');
  const scale = patched as KubeObject;
  // A JSON patch's own unknown and duplicate fields come first (json-patch-body.ts).
  const own = patchType === 'json' && mode !== 'Ignore' ? strictJsonPatch(text).problems.map((problem) => `json patch ${problem}`) : [];
  const unknown = mode === 'Ignore' ? [] : [...own, ...pruneUnknown(scale, SCALE_FIELDS, '', sortedKeys, false)];
  const headers = scaleFieldWarnings(mode, unknown, (problems) => patchInvalid(`Invalid value: ${JSON.stringify(patchedText(scale))}: strict decoding error: ${problems.join(', ')}`));
  pruneUnknown(scale, SCALE_FIELDS);
  checkPatchedScale(scale);
  await admitAndWrite(ctx, res, r, { ...common, scale: decoded(scale), headers }, (after) => scaleEntriesAfterUpdate(before, after, manager, now));
}

/**
 * A Scale patched by a merge or strategic patch (a JSON patch answers as on any object: json-patch-answers.ts). A
 * patch that cannot be applied is kube-apiserver's bare 422 (its scale registry does not carry the patch engine's
 * reason).
 */
function patchedScale(type: 'merge' | 'strategic', before: KubeObject, patch: unknown): unknown {
  try {
    if (type === 'merge') return applyMergePatch(before, patch);
    const schema = strategicSchemaFor('autoscaling/v1', SCALE_KIND.kind);
    if (schema === undefined) throw new Error('katalog/testing: no strategic merge table for autoscaling/v1 Scale');
    return applyStrategicMergePatch(before, patch, schema);
  } catch (error) {
    if (!(error instanceof PatchError)) throw error;
    const message = 'the server rejected our request due to an error in our request';
    throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Invalid', details: {}, code: 422 });
  }
}

/** Serves a request of a `/scale` subresource (the route, its verb and the view's scale are already checked). */
export async function serveScale(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, r: ResourceRequest): Promise<void> {
  const { view } = r;
  if (view.scale === undefined) throw new Error('katalog/testing: a /scale request reached a resource without a scale subresource');
  const scaled = { ...r, view: view as ScaledView };
  switch (r.verb) {
    case 'get':
      sendJson(res, 200, JSON.stringify(readScale(ctx.cluster, scaled.view, r.namespace ?? '', r.name ?? '')));
      return;
    case 'update':
      await putScale(ctx, req, res, scaled);
      return;
    case 'patch':
      await patchScale(ctx, req, res, scaled);
      return;
    default:
      throw new Error(`katalog/testing: /scale does not serve ${r.verb}`);
  }
}
