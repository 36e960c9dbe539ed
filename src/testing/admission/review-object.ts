/**
 * The objects in an AdmissionReview, and what a mutating webhook's patch makes of them, as kube-apiserver does it.
 * A webhook is sent the object it holds in memory, written by Go's encoder: a built-in kind in its struct's form
 * (its order, `omitempty` fields left out: a ConfigMap created with `data: {}` has no `data`, so a patch that adds
 * `/data/x` fails there), a custom resource with its keys sorted. A patch applies to that text, and its result is
 * decoded again: into the kind's Go struct (a value of the wrong type is a 500, an unknown field is dropped) or as
 * a map (a custom resource, pruned by its schema), then defaulted (a container the patch adds gets its defaults
 * before the next webhook).
 */
import { goEncoded, goEncodedUnstructured } from '../go/go-encoding.js';
import { notAnObject } from '../go/go-json.js';
import { withBuiltinDefaults } from '../kinds/builtin/builtin-defaults.js';
import { withSchemaDefaults } from '../operations/schema-rules.js';
import { builtInRootStruct } from '../resources/builtin-typed-schema.js';
import { goDecodingError } from '../resources/go-decoding.js';
import { pruneUnknown, rootNode } from '../resources/known-fields.js';
import { apiVersionOf } from '../resources/resource-type.js';
import { internalError } from '../status-errors.js';
import type { KubeObject } from '../store/record.js';
import type { AdmissionWrite } from './admit.js';

/**
 * The kind of the objects `request` admits: the resource's own at `version` (by default the one the write holds them
 * in), or the one it names (a Scale, an Eviction).
 */
export function kindOf(request: AdmissionWrite, version = request.view.version): { readonly group: string; readonly version: string; readonly kind: string } {
  const { type } = request.view;
  return request.kind ?? { group: type.group, version, kind: type.kind };
}

/** Whether a group and resource are the core Namespaces (a request on one has the Namespace as its namespace). */
export function isNamespaceResource(group: string, resource: string): boolean {
  return group === '' && resource === 'namespaces';
}

/**
 * The name and namespace of `request` as kube-apiserver's admission attributes have them: the object's (generated,
 * once checked) name when the URL has none; a Namespace's own name as the namespace of a request on a Namespace, none
 * for another cluster-scoped kind.
 */
export function requestIdentity(request: AdmissionWrite, object: KubeObject | undefined): { readonly name: string; readonly namespace: string } {
  const { type } = request.view;
  const metadata = object?.['metadata'];
  const given = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>)['name'] : undefined;
  const name = request.name !== '' ? request.name : typeof given === 'string' ? given : '';
  const namespace = isNamespaceResource(type.group, type.plural) ? name : type.namespaced ? request.namespace : '';
  return { name, namespace };
}

/** The Go struct of `request`'s objects; undefined for a custom resource or a kind the generated types lack. */
function structOf(request: AdmissionWrite): string | undefined {
  if (request.kind === undefined && !request.view.type.builtin) return undefined;
  const { group, version, kind } = kindOf(request);
  return builtInRootStruct({ group, kind }, version);
}

/** `object` (at `version`, by default the one the write holds it in) as a webhook is sent it. */
export function reviewForm(request: AdmissionWrite, object: KubeObject, at = request.view.version): KubeObject {
  const { group, version, kind } = kindOf(request, at);
  const apiVersion = apiVersionOf(group, version);
  if (request.kind === undefined && !request.view.type.builtin) return goEncodedUnstructured({ ...object, apiVersion, kind }) as KubeObject;
  const struct = structOf(request);
  const { apiVersion: _apiVersion, kind: _kind, ...fields } = struct === undefined ? object : goEncoded(struct, object);
  return { kind, apiVersion, ...fields };
}

/**
 * The object a mutating webhook's patch made of `patched` (the patch applied to what the webhook was sent), as
 * kube-apiserver decodes and defaults it before the next webhook; a 500 when it does not decode. `strict`: decoded
 * as a MutatingAdmissionPolicy's JSON patch is, where a field the struct does not declare is an error too.
 */
export function decodedMutation(request: AdmissionWrite, patched: unknown, strict = false): KubeObject {
  const struct = structOf(request);
  if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) throw internalError(notAnObject(patched));
  const object = patched as KubeObject;
  if (struct !== undefined) {
    const problem = goDecodingError(struct, object);
    if (problem !== undefined) throw internalError(problem);
    const unknown = strict ? pruneUnknown(object, rootNode(request.view), '', undefined, false) : [];
    if (unknown.length > 0) throw internalError(`strict decoding error: ${unknown.join(', ')}`);
  }
  // The resource's own kind is defaulted as its decoder defaults it; a Scale or an Eviction has no defaults.
  if (request.kind !== undefined) return reviewForm(request, object);
  // A built-in kind: into its struct (what it does not declare is gone), defaulted, written again.
  if (request.view.type.builtin) return reviewForm(request, withBuiltinDefaults(request.view.type, reviewForm(request, object)));
  // kube-apiserver prunes what the schema does not declare when it stores the object (the validating webhooks still
  // see it there); pruned here, the webhooks after this one do not.
  pruneUnknown(object, rootNode(request.view));
  return reviewForm(request, withSchemaDefaults(request.view, object));
}
