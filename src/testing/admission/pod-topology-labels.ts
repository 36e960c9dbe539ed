/**
 * kube-apiserver's `PodTopologyLabels` admission plugin, on by default since 1.35: a `pods/binding` whose
 * `target.kind` is exactly `Node` takes the Node's `topology.kubernetes.io/zone` and `/region` labels, over its own
 * (the legacy `bindings` collection does not). `NamespaceLifecycle` is `operations/create.ts`'s checkNamespaceOpen.
 */
import type { Cluster } from '../cluster.js';
import { isJsonObject } from '../patch/json-value.js';
import type { KubeObject } from '../store/record.js';

const NODES_KEY = '/nodes';
const TOPOLOGY_LABELS = ['topology.kubernetes.io/zone', 'topology.kubernetes.io/region'];

/** `PodTopologyLabels` on a `pods/binding`: copies the target Node's topology labels onto `binding` (in place). */
export function addTopologyLabels(cluster: Cluster, binding: KubeObject): void {
  const target = binding['target'];
  if (!isJsonObject(target) || target['kind'] !== 'Node' || typeof target['name'] !== 'string') return;
  const node = cluster.store.get(NODES_KEY, '', target['name']);
  if (node === undefined) return;
  const nodeLabels = node.labels;
  const copied = TOPOLOGY_LABELS.filter((key) => typeof nodeLabels[key] === 'string');
  if (copied.length === 0) return;
  const metadata = isJsonObject(binding['metadata']) ? binding['metadata'] : {};
  const labels = isJsonObject(metadata['labels']) ? metadata['labels'] : {};
  for (const key of copied) labels[key] = nodeLabels[key] ?? '';
  metadata['labels'] = labels;
  binding['metadata'] = metadata;
}
