/**
 * POST: creating an object. Applies the rules of a real server: name or generateName, namespace from the URL and
 * existing (and not terminating), AlreadyExists, status dropped when it is a subresource, system metadata (uid,
 * creationTimestamp, generation), managed fields, then one ADDED event.
 */
import { randomUUID } from 'node:crypto';
import type { Cluster } from '../cluster.js';
import { withBuiltinDefaults } from '../kinds/builtin/builtin-defaults.js';
import { behaviourOf } from '../kinds/kind-behaviour.js';
import { crdNameOf } from '../kinds/crd-rules.js';
import { ZERO_OBJECTS } from '../kinds/builtin/zero-objects.js';
import { recordUpdate, type ManagedFieldsEntry } from '../patch/index.js';
import { CRDS_KEY, NAMESPACES_KEY } from '../resources/builtin-resources.js';
import { SAFE_ALPHABET } from '../resources/dns-names.js';
import type { ResourceView } from '../resources/resource-type.js';
import { alreadyExists, badRequest, forbidden, invalid, methodNotAllowed, notFound, type ResourceName } from '../status-errors.js';
import { storedForm, storedRecord } from '../resources/stored-record.js';
import { storedFormAt } from '../resources/version-forms.js';
import type { KubeObject, StoredRecord } from '../store/record.js';
import { checkKind, checkName, ensureMetadata, isDeleting } from './object-rules.js';
import { checkSchema } from './schema-rules.js';
import type { ComputedWriteOptions } from './write-options.js';

function randomSuffix(): string {
  let out = '';
  for (let i = 0; i < 5; i++) out += SAFE_ALPHABET[Math.floor(Math.random() * SAFE_ALPHABET.length)] ?? 'x';
  return out;
}

/**
 * kube-apiserver's `NamespaceLifecycle` admission on a create of `resource` named `name` in `namespace`: 404 when the
 * namespace does not exist, 403 with a `NamespaceTerminating` cause while it is being deleted.
 */
export function checkNamespaceOpen(cluster: Cluster, namespace: string, resource: ResourceName, name: string): void {
  const found = cluster.store.get(NAMESPACES_KEY, '', namespace);
  if (found === undefined) throw notFound({ group: '', plural: 'namespaces' }, namespace);
  if (!isDeleting(found.object)) return;
  throw forbidden(resource, name, `unable to create new content in namespace ${namespace} because it is being terminated`, [
    { reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' },
  ]);
}

/** Resolves and checks the namespace of a body against the one in the URL. */
export function resolveNamespace(view: ResourceView, metadata: Record<string, unknown>, urlNamespace: string | undefined): string {
  if (!view.type.namespaced) {
    delete metadata['namespace'];
    return '';
  }
  const bodyNamespace = typeof metadata['namespace'] === 'string' ? metadata['namespace'] : '';
  if (urlNamespace !== undefined && bodyNamespace !== '' && bodyNamespace !== urlNamespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const namespace = urlNamespace ?? bodyNamespace;
  if (namespace === '') throw badRequest('an empty namespace may not be set during creation');
  metadata['namespace'] = namespace;
  return namespace;
}

/** Creates `body` (owned by the caller, mutated in place) and returns the stored record. */
export function createObject(cluster: Cluster, view: ResourceView, body: KubeObject, urlNamespace: string | undefined, options: ComputedWriteOptions): StoredRecord {
  const { type } = view;
  checkKind(view, body);
  const metadata = ensureMetadata(body);
  const namespace = resolveNamespace(view, metadata, urlNamespace);
  let name = typeof metadata['name'] === 'string' ? metadata['name'] : '';
  const generateName = typeof metadata['generateName'] === 'string' ? metadata['generateName'] : '';
  if (name === '' && generateName !== '') {
    do name = `${generateName}${randomSuffix()}`;
    while (cluster.store.get(type.key, namespace, name) !== undefined);
  }
  if (name === '') throw invalid(type, '', [{ field: 'metadata.name', message: 'Required value: name or generateName is required' }]);
  if (behaviourOf(type.key)?.checksName !== true) checkName(type, name, generateName);
  if (type.namespaced) checkNamespaceOpen(cluster, namespace, type, name);
  if (!type.builtin) {
    const crd = cluster.store.get(CRDS_KEY, '', crdNameOf(type));
    if (crd !== undefined && isDeleting(crd.object)) throw methodNotAllowed('create not allowed while custom resource definition is terminating');
  }
  metadata['name'] = name;
  metadata['uid'] = randomUUID();
  metadata['creationTimestamp'] = cluster.now();
  delete metadata['resourceVersion'];
  delete metadata['deletionTimestamp'];
  delete metadata['deletionGracePeriodSeconds'];
  delete metadata['selfLink'];
  if (type.generation) metadata['generation'] = 1;
  else delete metadata['generation'];
  if (view.statusSubresource) delete body['status'];
  const now = cluster.now();
  // A built-in object is defaulted before its registry sees it, as kube-apiserver decodes it first.
  const decoded = type.builtin ? withBuiltinDefaults(type, body) : body;
  // kube-apiserver's field manager sees a built-in object as decoded, before its registry prepares it (a Service's
  // allocated cluster IPs, what admission plugins add): those fields are nobody's.
  const decodedManaged = options.managedFields === undefined && type.builtin ? managedFieldsOnCreate(view, decoded, options.manager, now) : undefined;
  behaviourOf(type.key)?.prepareCreate(decoded, { registry: cluster.registry, store: cluster.store, now, warn: options.warn });
  const object = checkSchema(view, decoded, undefined, { subresource: undefined, decoded: options.fromApply !== true, warn: options.warn });
  const existing = cluster.store.get(type.key, namespace, name);
  if (existing !== undefined) throw alreadyExists(type, name, isDeleting(existing.object));

  const managed = options.managedFields ?? decodedManaged ?? managedFieldsOnCreate(view, object, options.manager, now);
  const objectMetadata = ensureMetadata(object);
  if (managed.length > 0) objectMetadata['managedFields'] = managed;
  else delete objectMetadata['managedFields'];

  if (options.dryRun) {
    object['apiVersion'] = view.apiVersion;
    return storedRecord(type, object);
  }
  return cluster.commit(type, 'ADDED', storedFormAt(type, view.version, object), undefined);
}

/**
 * A POST's entry: kube-apiserver compares the new object with a new Go object of its kind, whose structs (those that
 * are not pointers) are there already, so only the maps, lists and pointer structs the body adds are owned whole.
 */
function managedFieldsOnCreate(view: ResourceView, body: KubeObject, manager: string, now: string): ManagedFieldsEntry[] {
  const zero = view.type.builtin ? ZERO_OBJECTS[`${view.apiVersion}/${view.type.kind}`] : undefined;
  // Compared as Go writes the new object: a field left out when empty (`data: {}`) is not owned.
  return recordUpdate(zero, view.type.builtin ? storedForm(view.type, body) : body, [], { manager, apiVersion: view.apiVersion, now, listKeys: view.type.listKeys, create: true });
}
