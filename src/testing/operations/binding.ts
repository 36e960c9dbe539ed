/**
 * Binding a Pod to a node, as kube-apiserver's pod registry does it (`BindingREST.Create`, `assignPod`,
 * `setPodNodeAndMetadata`, with `ValidatePodBinding`), in its order and words:
 *
 * 1. The Binding names the Pod of the URL (400), and is valid: `target.kind` empty or `Node`, `target.name` set and a
 *    DNS subdomain (kube-apiserver answers these as a bare 500, aggregated as `[a, b]` when there are several).
 * 2. The Pod exists (404); the Binding's `metadata.uid` and `metadata.resourceVersion` are preconditions on it (409,
 *    a storage error naming its etcd key, which a dry run names without the `/registry` prefix).
 * 3. The Pod is not being deleted, not bound yet and has no scheduling gates: each a 409 on `pods/binding`, also in a
 *    dry run.
 * 4. The Pod gets `spec.nodeName`, loses `status.nominatedNodeName`, takes the Binding's annotations (then loses the
 *    legacy init-container annotations) and labels over its own, and gets condition `PodScheduled=True` (its
 *    transition time kept when it was already True; reason, message and probe time cleared).
 *
 * The write bypasses the Pod's strategy: no defaults, no validation, and neither managed fields nor generation change.
 * It is one MODIFIED event.
 */
import type { Cluster } from '../cluster.js';
import { cloneJson, isJsonObject, type JsonObject } from '../patch/json-value.js';
import { dns1123SubdomainProblems } from '../resources/dns-names.js';
import { goBadValue, goQuote } from '../go/go-values.js';
import type { ResourceView } from '../resources/resource-type.js';
import { storageKey } from '../resources/storage-key.js';
import { badRequest, conflict, internalErrorWithMessage, notFound } from '../status-errors.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../store/record.js';
import { withPodCondition } from '../kinds/builtin/pod-conditions.js';
import { commitChange } from './commit-change.js';
import { unstoredRecord } from './object-rules.js';

/** What a Binding's conflicts are reported on. */
const PODS_BINDING = { group: '', plural: 'pods/binding' } as const;
/** The init-container annotations of Kubernetes before 1.8, which a binding removes (`DropInitContainerAnnotations`). */
const INIT_CONTAINER_ANNOTATIONS = ['pod.beta.kubernetes.io/init-containers', 'pod.alpha.kubernetes.io/init-containers', 'pod.beta.kubernetes.io/init-container-statuses', 'pod.alpha.kubernetes.io/init-container-statuses'];

export interface BindRequest {
  readonly namespace: string;
  /** The Pod's name in the URL; undefined for the legacy `bindings` collection, which takes the Binding's own. */
  readonly name: string | undefined;
  /** The decoded Binding (`metadata`, `target`). */
  readonly binding: KubeObject;
  readonly dryRun: boolean;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A Go `map[string]string` as decoded: null values are empty strings. */
function stringMap(value: unknown): Record<string, string> {
  if (!isJsonObject(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, text(v)]));
}

/** A map with its keys in the order Go's `encoding/json` writes them: sorted. */
function sortedMap(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** `status` with `conditions` set, placed where Go's PodStatus has it (after observedGeneration and phase) when new. */
function withConditions(status: JsonObject, conditions: unknown[]): JsonObject {
  if ('conditions' in status) return { ...status, conditions };
  const before = Object.keys(status).filter((key) => key === 'observedGeneration' || key === 'phase');
  const after = Object.keys(status).filter((key) => key !== 'observedGeneration' && key !== 'phase');
  return Object.fromEntries([...before.map((key) => [key, status[key]]), ['conditions', conditions], ...after.map((key) => [key, status[key]])]);
}

/** `ValidatePodBinding`'s problems, as `field: message`. */
function bindingProblems(target: JsonObject): string[] {
  const kind = text(target['kind']);
  const name = text(target['name']);
  const problems: string[] = [];
  if (kind !== '' && kind !== 'Node') problems.push(`target.kind: Unsupported value: ${goQuote(kind)}: supported values: "Node", "<empty>"`);
  if (name === '') problems.push('target.name: Required value');
  else if (kind === '' || kind === 'Node') for (const message of dns1123SubdomainProblems(name)) problems.push(`target.name: Invalid value: ${goBadValue(name)}: ${message}`);
  return problems;
}

/** The storage layer's refusal of a failed precondition (`Preconditions.Check`), as the Pod's 409. */
function preconditionFailed(view: ResourceView, pod: StoredRecord, detail: string, dryRun: boolean): never {
  const key = storageKey(view.type, pod.namespace, pod.name);
  // A dry run checks the preconditions in the registry's dry-run storage, on the key before etcd's prefix.
  const named = dryRun ? key.replace(/^\/registry/, '') : key;
  throw conflict(view.type, pod.name, `StorageError: invalid object, Code: 4, Key: ${named}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ${detail}`);
}

/** The Pod's own refusals of a binding (`setPodNodeAndMetadata`), in its order. */
function checkBindable(pod: KubeObject, name: string): void {
  const spec = isJsonObject(pod['spec']) ? pod['spec'] : {};
  if (typeof metadataOf(pod)['deletionTimestamp'] === 'string') throw conflict(PODS_BINDING, name, `pod ${name} is being deleted, cannot be assigned to a host`);
  const nodeName = text(spec['nodeName']);
  if (nodeName !== '') throw conflict(PODS_BINDING, name, `pod ${name} is already assigned to node ${goQuote(nodeName)}`);
  const gates = spec['schedulingGates'];
  if (Array.isArray(gates) && gates.length > 0) throw conflict(PODS_BINDING, name, `pod ${name} has non-empty .spec.schedulingGates`);
}

/** The Pod bound to `node` with the Binding's metadata (a new object: `pod` is the stored one). */
function boundPod(pod: KubeObject, node: string, binding: JsonObject, now: string): KubeObject {
  const next = cloneJson(pod);
  const metadata = metadataOf(next);
  const spec = isJsonObject(next['spec']) ? next['spec'] : {};
  spec['nodeName'] = node;
  next['spec'] = spec;
  const annotations = { ...stringMap(metadata['annotations']), ...stringMap(binding['annotations']) };
  for (const key of INIT_CONTAINER_ANNOTATIONS) delete annotations[key];
  // Go leaves an empty map out of the JSON.
  if (Object.keys(annotations).length > 0) metadata['annotations'] = sortedMap(annotations);
  else delete metadata['annotations'];
  const labels = stringMap(binding['labels']);
  if (Object.keys(labels).length > 0) metadata['labels'] = sortedMap({ ...stringMap(metadata['labels']), ...labels });
  const status = isJsonObject(next['status']) ? next['status'] : {};
  delete status['nominatedNodeName'];
  const conditions = Array.isArray(status['conditions']) ? (status['conditions'] as unknown[]) : [];
  next['status'] = withConditions(status, withPodCondition(conditions, { type: 'PodScheduled', status: 'True' }, now));
  return next;
}

/**
 * Binds the Pod a Binding names (see the file's header); answers the Pod as stored, or as it would be in a dry run.
 * `view` is the Pods' view.
 */
export function bindPod(cluster: Cluster, view: ResourceView, request: BindRequest): StoredRecord {
  const { binding } = request;
  const metadata = isJsonObject(binding['metadata']) ? binding['metadata'] : {};
  const target = isJsonObject(binding['target']) ? binding['target'] : {};
  const name = text(metadata['name']);
  if (request.name !== undefined && request.name !== name) throw badRequest('name in URL does not match name in Binding object');
  const problems = bindingProblems(target);
  if (problems.length > 0) throw internalErrorWithMessage(problems.length === 1 ? (problems[0] ?? '') : `[${problems.join(', ')}]`);
  if (name === '') throw badRequest('Name parameter required.');
  const pod = cluster.store.get(view.type.key, request.namespace, name);
  if (pod === undefined) throw notFound(view.type, name);
  const uid = text(metadata['uid']);
  if (uid !== '' && uid !== pod.uid) preconditionFailed(view, pod, `UID in precondition: ${uid}, UID in object meta: ${pod.uid}`, request.dryRun);
  const resourceVersion = text(metadata['resourceVersion']);
  if (resourceVersion !== '' && resourceVersion !== String(pod.rv)) {
    preconditionFailed(view, pod, `ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in object meta: ${pod.rv}`, request.dryRun);
  }
  checkBindable(pod.object, name);
  const next = boundPod(pod.object, text(target['name']), metadata, cluster.now());
  if (request.dryRun) return unstoredRecord(view, next);
  return commitChange(cluster, view.type, next, pod);
}
