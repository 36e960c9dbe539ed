/**
 * POST of a Binding: the `pods/binding` subresource (`/api/v1/namespaces/{ns}/pods/{name}/binding`) and the legacy
 * `bindings` collection (`/api/v1/namespaces/{ns}/bindings`, the Pod named by the Binding), as kube-apiserver
 * serves them: the Binding decoded (binding-body.ts), its namespace checked against the URL's, the built-in
 * admission plugins (NamespaceLifecycle, admission/pod-topology-labels.ts), then the webhooks with the Binding as the object (kind `v1`
 * Binding; resource `pods`, subresource `binding`, or resource `bindings`), then the bind itself
 * (operations/binding.ts). Both answer `201` with a `Success` Status, a dry run too.
 *
 * The legacy collection wipes the Binding's system metadata as any create does, so its `uid` is no precondition
 * there (its `resourceVersion` still is); the subresource keeps both.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { admitWrite } from '../admission/admit.js';
import { addTopologyLabels } from '../admission/pod-topology-labels.js';
import { checkNamespaceOpen } from '../operations/create.js';
import type { Cluster } from '../cluster.js';
import { bindPod } from '../operations/binding.js';
import { isJsonObject } from '../patch/json-value.js';
import { splitApiVersion, type ResourceView } from '../resources/resource-type.js';
import { badRequest } from '../status-errors.js';
import { readBody } from './body.js';
import { decodeBinding } from './binding-body.js';
import type { ServerContext } from './context.js';
import { fieldValidationOf } from './field-validation.js';
import { dryRun, writeOptionsOf } from './query.js';
import type { ResourceRequest } from './resource-handlers.js';
import { sendJson, withWarnings } from './respond.js';

const BINDING_KIND = { group: '', version: 'v1', kind: 'Binding' } as const;
const SUCCESS = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
/** What a create wipes from the object's metadata (`WipeObjectMetaSystemFields`), but on a subresource that keeps it. */
const SYSTEM_FIELDS = ['creationTimestamp', 'uid', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink'];

/** Whether kube-apiserver's scheme knows `kind` at `apiVersion`: a built-in kind, or its list kind. */
function builtinKind(cluster: Cluster, apiVersion: string, kind: string): boolean {
  if (cluster.registry.byKind(apiVersion, kind)?.type.builtin === true) return true;
  const { group, version } = splitApiVersion(apiVersion);
  return cluster.registry.viewsAt(group, version).some((view) => view.type.builtin && view.type.listKind === kind);
}

/** The Pods' view as admission names a request of the legacy collection: resource `bindings`. */
function legacyView(view: ResourceView): ResourceView {
  return { ...view, type: { ...view.type, plural: 'bindings', singular: 'binding', kind: 'Binding' } };
}

/** Serves a POST of a Binding (`r.name` is the Pod's for `pods/binding`, undefined for the `bindings` collection). */
export async function serveBinding(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, r: ResourceRequest): Promise<void> {
  if (r.verb !== 'create') throw new Error(`katalog/testing: a Binding is only created, not served to ${r.verb}`);
  const { cluster } = ctx;
  const { view, query } = r;
  const namespace = r.namespace ?? '';
  const legacy = r.name === undefined;
  const text = await readBody(req);
  const dry = dryRun(query, 'CreateOptions');
  const decoded = decodeBinding(text, fieldValidationOf(query, 'CreateOptions'), (apiVersion, kind) => builtinKind(cluster, apiVersion, kind));
  const headers = withWarnings({}, decoded.warnings);
  // The decoder's warnings go with whatever is answered, as kube-apiserver sends the warnings it recorded.
  if (headers.Warning !== undefined) res.setHeader('Warning', headers.Warning);
  const binding = decoded.binding;
  const metadata = isJsonObject(binding['metadata']) ? binding['metadata'] : {};
  binding['metadata'] = metadata;
  if (legacy) for (const field of SYSTEM_FIELDS) delete metadata[field];
  const asked = typeof metadata['namespace'] === 'string' ? metadata['namespace'] : '';
  if (asked !== '' && asked !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  metadata['namespace'] = namespace;
  const name = r.name ?? (typeof metadata['name'] === 'string' ? metadata['name'] : '');
  const admissionView = legacy ? legacyView(view) : view;
  checkNamespaceOpen(cluster, namespace, admissionView.type, name);
  if (!legacy) addTopologyLabels(cluster, binding);
  // What the validating webhooks see: the Binding the last (dry) run bound with, mutating webhooks' changes in it.
  let bound = binding;
  const admitted = await admitWrite(
    cluster,
    { operation: 'CREATE', view: admissionView, namespace, name, subresource: legacy ? undefined : 'binding', object: binding, oldObject: undefined, dryRun: dry, options: writeOptionsOf(query), kind: BINDING_KIND, shown: () => bound },
    (object, dryRunNow) => {
      bound = object ?? binding;
      return bindPod(cluster, view, { namespace, name: r.name, binding: bound, dryRun: dryRunNow });
    },
  );
  sendJson(res, 201, SUCCESS, withWarnings(headers, admitted.warnings));
}
