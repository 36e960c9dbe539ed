/**
 * The resource endpoints: decode the request, run the operation, encode the answer the way a real server does
 * (201 on create, the object on update and patch, the object or a Success Status on delete, lists with built-in
 * items lacking kind/apiVersion).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { deleteObject } from '../operations/delete.js';
import { createObject } from '../operations/create.js';
import { patchObject, patchTypeOf } from '../operations/patch.js';
import { patchConverted } from '../operations/patch-converted.js';
import { getObject, listObjects, type ListPage } from '../operations/read.js';
import { updateObject, type ObjectTarget } from '../operations/update.js';
import type { ResourceView } from '../resources/resource-type.js';
import { typedApplyProblem } from '../resources/typed-apply.js';
import { parseFieldSelector } from '../selectors/field-selector.js';
import { parseLabelSelector } from '../selectors/label-selector.js';
import { alreadyExists, badRequest, conflict, deletedStatus, internalErrorWithMessage, methodNotAllowed, unknownPatchType } from '../status-errors.js';
import { bareJson, objectJson, type KubeObject, type StoredRecord } from '../store/record.js';
import { parseApplyBody, parseJsonBody, parsePatchBody, readBody } from './body.js';
import type { ServerContext } from './context.js';
import { deleteOptionsForAdmission, deleteOptionsOf } from './delete-options.js';
import { checkBody, fieldValidationOf, patchChecker } from './field-validation.js';
import { jsonPatchDecoder } from './json-patch-body.js';
import { checkListVersion, dryRun, fieldManagerOf, flag, limitOf, optional, writeOptionsOf } from './query.js';
import { sendJson, withWarnings } from './respond.js';
import { negotiate } from '../printing/accept.js';
import { contentTypeOf, render } from '../printing/render.js';
import { startWatch } from './watch-handler.js';
import { admitWrite, hasAdmission, type AdmittedOperation } from '../admission/admit.js';
import { admitPatch } from '../admission/admit-patch.js';
import type { KubeObject as Body } from '../store/record.js';
import { conversionFor, recordText, recordTexts } from '../conversion/converted-views.js';
import { admitVersioned, convertedWriteOf } from '../conversion/converted-write.js';
import { isDeleting } from '../operations/object-rules.js';
import { heldAtView } from '../resources/version-forms.js';
import { goEncodedUnstructured } from '../go/go-encoding.js';

/** A subresource that only takes a POST (served by its own handler). */
export type PostSubresource = 'eviction' | 'binding';
/** The subresources served: `/status` here, `/scale` and the POST-only ones by their own handlers. */
export type Subresource = 'status' | 'scale' | PostSubresource;

/** A resolved resource request. */
export interface ResourceRequest {
  readonly verb: string;
  readonly view: ResourceView;
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly subresource: Subresource | undefined;
  readonly query: URLSearchParams;
}


function objectText(view: ResourceView, record: StoredRecord): string {
  return objectJson(record, view.apiVersion, view.type.kind);
}

/** The JSON of a list page (`converted`: the items' texts, when a conversion webhook made them). */
export function listText(view: ResourceView, page: ListPage, converted?: readonly string[]): string {
  const items = converted ?? (view.type.builtin ? page.records.map(bareJson) : page.records.map((r) => objectText(view, r)));
  const metadata: Record<string, unknown> = { resourceVersion: String(page.resourceVersion) };
  // A custom resource's list always says `continue`, empty on the last page (kube-apiserver's unstructured lists).
  if (page.continueToken !== undefined || !view.type.builtin) metadata['continue'] = page.continueToken ?? '';
  if (page.remainingItemCount !== undefined) metadata['remainingItemCount'] = page.remainingItemCount;
  const apiVersion = JSON.stringify(view.apiVersion);
  const kind = JSON.stringify(view.type.listKind);
  // A built-in list is a Go struct (kind, apiVersion, metadata, items); a custom resource's a map, its keys sorted.
  if (view.type.builtin) return `{"kind":${kind},"apiVersion":${apiVersion},"metadata":${JSON.stringify(metadata)},"items":[${items.join(',')}]}`;
  return `{"apiVersion":${apiVersion},"items":[${items.join(',')}],"kind":${kind},"metadata":${JSON.stringify(goEncodedUnstructured(metadata))}}`;
}

function asObject(value: unknown): KubeObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('the request body must be a JSON object');
  return value as KubeObject;
}

/** The warnings a write's CEL rules earn (a ratcheted failure), once each: admission may run the write twice. */
class RuleWarnings {
  private readonly seen = new Set<string>();
  readonly warn = (warning: string): void => void this.seen.add(warning);

  all(): string[] {
    return [...this.seen];
  }
}

/**
 * Runs a write whose request already earned `Warning`s (unknown fields in `fieldValidation=Warn`): when the write
 * fails they are still sent, on the error's answer, as kube-apiserver sends the warnings its decoder recorded.
 */
async function warnedOnFailure<T>(res: ServerResponse, warnings: () => Record<string, string | string[]>, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const warning = warnings().Warning;
    if (warning !== undefined && !res.headersSent) res.setHeader('Warning', warning);
    throw error;
  }
}

/** Serves one resource request (the route and faults are already handled). */
export async function serveResource(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, r: ResourceRequest): Promise<void> {
  const subresource = r.subresource;
  if (subresource !== undefined && subresource !== 'status') throw new Error(`katalog/testing: a /${subresource} request belongs to its own handler`);
  const { cluster } = ctx;
  const { view, query } = r;
  const namespace = r.namespace ?? '';
  const target: ObjectTarget = { namespace, name: r.name ?? '', subresource };
  switch (r.verb) {
    case 'get': {
      const rendering = negotiate(req.headers.accept, 'get');
      const text = await recordText(cluster, view, getObject(cluster, view, namespace, target.name));
      sendJson(res, 200, render(cluster, view, rendering, text, query), { 'Content-Type': contentTypeOf(rendering) });
      return;
    }
    case 'list': {
      const version = checkListVersion(query);
      const rendering = negotiate(req.headers.accept, 'list');
      const page = listObjects(cluster, view, {
        ...version,
        namespace: r.namespace,
        labels: parseLabelSelector(optional(query, 'labelSelector')),
        fields: parseFieldSelector(optional(query, 'fieldSelector'), view.fieldLabels),
        limit: limitOf(query),
        continueToken: optional(query, 'continue'),
      });
      const items = conversionFor(cluster, view) === undefined ? undefined : await recordTexts(cluster, view, page.records);
      sendJson(res, 200, render(cluster, view, rendering, listText(view, page, items), query), { 'Content-Type': contentTypeOf(rendering) });
      return;
    }
    case 'watch':
      startWatch(ctx, req, res, view, r.namespace, r.name, query);
      return;
    case 'create': {
      if (r.name !== undefined) throw methodNotAllowed();
      const mode = fieldValidationOf(query, 'CreateOptions');
      const manager = fieldManagerOf(req, query, 'CreateOptions');
      const text = await readBody(req);
      const body = asObject(parseJsonBody(text));
      const headers = checkBody(view, mode, text, body);
      const metadata = body.metadata;
      const name = typeof metadata === 'object' && metadata !== null && typeof (metadata as Body).name === 'string' ? String((metadata as Body).name) : '';
      const namespace = view.type.namespaced ? (r.namespace ?? (typeof (metadata as Body | undefined)?.namespace === 'string' ? String((metadata as Body).namespace) : '')) : '';
      const rules = new RuleWarnings();
      const admitted = await warnedOnFailure(res, () => withWarnings(headers, rules.all()), async () => {
        const create = (): AdmittedOperation => (object, dry, managedFields) =>
          createObject(cluster, view, object ?? {}, r.namespace, { manager, dryRun: dry, warn: rules.warn, ...(managedFields === undefined ? {} : { managedFields }) });
        const request = { operation: 'CREATE', view, namespace, name, subresource: undefined, object: body, dryRun: dryRun(query, 'CreateOptions'), options: writeOptionsOf(query) } as const;
        // Converted (converted-write.ts), a create whose name was taken meanwhile is refused as any such create.
        return admitVersioned(cluster, request, undefined, create, { manager }, (current) => alreadyExists(view.type, current?.name ?? name, current !== undefined && isDeleting(current.object)));
      });
      sendJson(res, 201, await recordText(cluster, view, admitted.record), withWarnings(headers, [...rules.all(), ...admitted.warnings]));
      return;
    }
    case 'update': {
      const mode = fieldValidationOf(query, 'UpdateOptions');
      const manager = fieldManagerOf(req, query, 'UpdateOptions');
      const text = await readBody(req);
      const body = asObject(parseJsonBody(text));
      const headers = checkBody(view, mode, text, body);
      const current = cluster.store.get(view.type.key, namespace, target.name);
      const rules = new RuleWarnings();
      const admitted = await warnedOnFailure(res, () => withWarnings(headers, rules.all()), async () => {
        const update = (held: StoredRecord | undefined): AdmittedOperation => (object, dry, managedFields) =>
          updateObject(cluster, view, object ?? {}, target, { manager, dryRun: dry, warn: rules.warn, ...(managedFields === undefined ? {} : { managedFields }) }, held);
        const request = { operation: 'UPDATE', view, namespace, name: target.name, subresource: r.subresource, object: body, dryRun: dryRun(query, 'UpdateOptions'), options: writeOptionsOf(query) } as const;
        // Converted (converted-write.ts), a PUT whose object changed meanwhile is stale, as its resourceVersion says.
        return admitVersioned(cluster, request, current, update, { manager }, () => conflict(view.type, target.name));
      });
      sendJson(res, 200, await recordText(cluster, view, admitted.record), withWarnings(headers, [...rules.all(), ...admitted.warnings]));
      return;
    }
    case 'patch': {
      const patchType = patchTypeOf(req.headers['content-type']);
      const text = await readBody(req);
      if (patchType === undefined) throw unknownPatchType(view);
      if (patchType === 'apply' && optional(query, 'fieldManager') === undefined) throw badRequest('fieldManager is required for apply requests');
      const mode = fieldValidationOf(query, 'PatchOptions');
      const patch = patchType === 'apply' ? parseApplyBody(text) : parsePatchBody(text);
      const decodeJsonPatch = jsonPatchDecoder(text, mode);
      const untyped = patchType === 'apply' ? typedApplyProblem(view, patch) : undefined;
      if (untyped !== undefined) throw internalErrorWithMessage(untyped);
      const fields = patchChecker(view, mode, patchType, text);
      const manager = fieldManagerOf(req, query, 'PatchOptions');
      const rules = new RuleWarnings();
      const warnings = (): Record<string, string | string[]> => withWarnings(fields.headers(), rules.all());
      const conversion = convertedWriteOf(cluster, view, cluster.store.get(view.type.key, namespace, target.name));
      if (conversion !== undefined) {
        // Converted to the request's version, patched and written there, stored at the storage version, its entries
        // compared in their own versions (patch-converted.ts).
        const options = { manager, force: flag(query, 'force'), dryRun: dryRun(query, 'PatchOptions'), checkFields: fields.check, decodeJsonPatch, warn: rules.warn, admissionOptions: writeOptionsOf(query) };
        const admitted = await warnedOnFailure(res, warnings, () => patchConverted(cluster, view, conversion, patchType, patch, target, options));
        sendJson(res, admitted.created ? 201 : 200, await recordText(cluster, view, admitted.record), withWarnings(warnings(), admitted.warnings));
        return;
      }
      const reruns = hasAdmission(cluster, { key: view.type.key, namespace });
      const admitted = await warnedOnFailure(res, warnings, () => admitPatch(
        cluster,
        {
          view,
          namespace,
          name: target.name,
          subresource: target.subresource,
          dryRun: dryRun(query, 'PatchOptions'),
          options: writeOptionsOf(query),
          oldObject: () => {
            const current = cluster.store.get(view.type.key, namespace, target.name);
            return current === undefined ? undefined : heldAtView(view, JSON.parse(objectText(view, current)) as Body);
          },
        },
        // Under admission the patch runs the patch several times and each run patches a copy (the engines keep
        // their inputs); without them it runs once, on the patch itself.
        (run) => patchObject(cluster, view, patchType, reruns ? structuredClone(patch) : patch, target, { manager, force: flag(query, 'force'), checkFields: fields.check, decodeJsonPatch, warn: rules.warn, ...run }),
      ));
      sendJson(res, admitted.created ? 201 : 200, await recordText(cluster, view, admitted.record), withWarnings(warnings(), admitted.warnings));
      return;
    }
    case 'delete': {
      const options = deleteOptionsOf(query, await readBody(req));
      const current = cluster.store.get(view.type.key, namespace, target.name);
      let result: ReturnType<typeof deleteObject> | undefined;
      const admitted = await admitWrite(
        cluster,
        {
          operation: 'DELETE',
          view,
          namespace,
          name: target.name,
          subresource: undefined,
          object: undefined,
          // At the request's version (converted through the CRD's webhook when it has one), for admission only.
          oldObject: current === undefined || !hasAdmission(cluster) ? undefined : (JSON.parse(await recordText(cluster, view, current)) as Body),
          dryRun: options.dryRun === true,
          options: deleteOptionsForAdmission(options),
        },
        () => {
          result = deleteObject(cluster, view, namespace, target.name, options);
          return result.record;
        },
      );
      const headers = withWarnings({}, admitted.warnings);
      // Gone (or, in a dry run, to be gone): the Status, unless the kind answers the object as it was last.
      if (result?.removed === true && view.type.returnsDeletedObject !== true) sendJson(res, 200, JSON.stringify(deletedStatus(view.type, admitted.record.name, admitted.record.uid)), headers);
      else sendJson(res, 200, await recordText(cluster, view, admitted.record), headers);
      return;
    }
    case 'deletecollection': {
      const options = deleteOptionsOf(query, await readBody(req));
      const page = listObjects(cluster, view, {
        namespace: r.namespace,
        labels: parseLabelSelector(optional(query, 'labelSelector')),
        fields: parseFieldSelector(optional(query, 'fieldSelector'), view.fieldLabels),
        limit: undefined,
        continueToken: undefined,
      });
      for (const record of page.records) deleteObject(cluster, view, record.namespace, record.name, options);
      // The answer is the list the deletes were made from: the items as they were listed, at the list's revision.
      const items = conversionFor(cluster, view) === undefined ? undefined : await recordTexts(cluster, view, page.records);
      sendJson(res, 200, listText(view, page, items));
      return;
    }
    default:
      throw methodNotAllowed();
  }
}
