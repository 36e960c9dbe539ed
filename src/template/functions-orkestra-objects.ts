/**
 * Orkestra's notes that read one Kubernetes object the template data already holds (`.children.hpa`, `.`):
 * metadata, conditions, and the status of HPAs, PVCs, Ingresses, Jobs, CronJobs, StatefulSets, Services and
 * Nodes (`pkg/note`: kubernetes, hpa, pvc, ingress, job, statefulset, service, node, serve domains). A missing
 * object or field gives Orkestra's zero value ("", 0, false), never an error. None reads the API server.
 */
import { fixed, variadic, type TemplateFunction } from './function-type.js';
import { isMap } from './values.js';
import { at } from './functions-orkestra-kube.js';


const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '');
function int(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value.trim());
  return 0;
}
const list = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

function condition(object: unknown, type: unknown): Readonly<Record<string, unknown>> | undefined {
  const found = list(at(object, 'status', 'conditions')).find((c) => isMap(c) && c['type'] === type);
  return isMap(found) ? found : undefined;
}
const conditionTrue = (object: unknown, type: string): boolean => condition(object, type)?.['status'] === 'True';

const label = (object: unknown, key: unknown): string => text(at(object, 'metadata', 'labels', text(key)));
const annotation = (object: unknown, key: unknown): string => text(at(object, 'metadata', 'annotations', text(key)));
const loadBalancer = (object: unknown, field: 'ip' | 'hostname'): string => text(at(list(at(object, 'status', 'loadBalancer', 'ingress'))[0], field));
const joined = (items: readonly string[]): string => items.filter((item) => item !== '').join(', ');

const SERVE_TARGET = 'orkestra.orkspace.io/serve-target';
const SERVE_ALIAS = 'orkestra.orkspace.io/serve-alias';
const SERVE_SOURCE = 'orkestra.orkspace.io/serve-source';

export const ORKESTRA_OBJECT_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  // kubernetes
  generation: fixed(1, ([o]) => int(at(o, 'metadata', 'generation'))),
  observedGeneration: fixed(1, ([o]) => int(at(o, 'status', 'observedGeneration'))),
  isSynced: fixed(1, ([o]) => int(at(o, 'metadata', 'generation')) === int(at(o, 'status', 'observedGeneration'))),
  isTerminating: fixed(1, ([o]) => text(at(o, 'metadata', 'deletionTimestamp')) !== ''),
  phase: fixed(1, ([o]) => text(at(o, 'status', 'phase'))),
  conditionReason: fixed(2, ([o, type]) => text(condition(o, type)?.['reason'])),
  conditionMessage: fixed(2, ([o, type]) => text(condition(o, type)?.['message'])),
  getLabel: fixed(2, ([o, key]) => label(o, key)),
  getAnnotation: fixed(2, ([o, key]) => annotation(o, key)),
  getLabelInt: fixed(2, ([o, key]) => int(label(o, key))),
  getAnnotationInt: fixed(2, ([o, key]) => int(annotation(o, key))),
  hasLabel: fixed(2, ([o, key]) => label(o, key) !== ''),
  hasAnnotation: fixed(2, ([o, key]) => annotation(o, key) !== ''),
  /** `labelMatches OBJ K1 V1 K2 V2...`: every pair is among the object's labels. */
  labelMatches: variadic(1, ([o, ...pairs]) => {
    for (let i = 0; i + 1 < pairs.length; i += 2) if (label(o, pairs[i]) !== text(pairs[i + 1])) return false;
    return true;
  }),
  getStatus: fixed(2, ([o, key]) => text(at(o, 'status', text(key)))),
  hasStatus: fixed(2, ([o, key]) => {
    const value = at(o, 'status', text(key));
    if (value === undefined || value === null || value === '') return false;
    if (Array.isArray(value)) return value.length > 0;
    return isMap(value) ? Object.keys(value).length > 0 : true;
  }),
  resourceCPU: fixed(1, ([o]) => text(at(o, 'spec', 'resources', 'requests', 'cpu'))),
  resourceMemory: fixed(1, ([o]) => text(at(o, 'spec', 'resources', 'requests', 'memory'))),
  /** `containerPort OBJ INDEX PORT`: the container at INDEX exposes PORT. */
  containerPort: fixed(3, ([o, index, port]) => {
    const container = list(at(o, 'spec', 'template', 'spec', 'containers'))[int(index)] ?? list(at(o, 'spec', 'containers'))[int(index)];
    return list(at(container, 'ports')).some((p) => int(at(p, 'containerPort')) === int(port));
  }),
  // hpa
  hpaCurrentReplicas: fixed(1, ([o]) => int(at(o, 'status', 'currentReplicas'))),
  hpaDesiredReplicas: fixed(1, ([o]) => int(at(o, 'status', 'desiredReplicas'))),
  hpaMaxReplicas: fixed(1, ([o]) => int(at(o, 'spec', 'maxReplicas'))),
  hpaMinReplicas: fixed(1, ([o]) => {
    const min = at(o, 'spec', 'minReplicas');
    return min === undefined || min === null ? 1 : int(min);
  }),
  hpaAtMax: fixed(1, ([o]) => isMap(o) && int(at(o, 'status', 'currentReplicas')) >= int(at(o, 'spec', 'maxReplicas'))),
  hpaAbleToScale: fixed(1, ([o]) => conditionTrue(o, 'AbleToScale')),
  hpaScalingActive: fixed(1, ([o]) => conditionTrue(o, 'ScalingActive')),
  hpaScalingLimited: fixed(1, ([o]) => conditionTrue(o, 'ScalingLimited')),
  hpaScaling: fixed(1, ([o]) => conditionTrue(o, 'ScalingActive') && int(at(o, 'status', 'currentReplicas')) !== int(at(o, 'status', 'desiredReplicas'))),
  // pvc
  pvcPhase: fixed(1, ([o]) => text(at(o, 'status', 'phase'))),
  pvcBound: fixed(1, ([o]) => at(o, 'status', 'phase') === 'Bound'),
  pvcCapacity: fixed(1, ([o]) => text(at(o, 'spec', 'resources', 'requests', 'storage'))),
  pvcStorageClass: fixed(1, ([o]) => text(at(o, 'spec', 'storageClassName'))),
  pvcAccessModes: fixed(1, ([o]) => joined(list(at(o, 'spec', 'accessModes')).map(text))),
  // ingress
  ingressClassName: fixed(1, ([o]) => text(at(o, 'spec', 'ingressClassName'))),
  ingressIP: fixed(1, ([o]) => loadBalancer(o, 'ip')),
  ingressHost: fixed(1, ([o]) => loadBalancer(o, 'hostname')),
  ingressReady: fixed(1, ([o]) => list(at(o, 'status', 'loadBalancer', 'ingress')).some((entry) => text(at(entry, 'ip')) !== '' || text(at(entry, 'hostname')) !== '')),
  ingressRules: fixed(1, ([o]) => joined(list(at(o, 'spec', 'rules')).map((rule) => text(at(rule, 'host'))))),
  ingressTLSHosts: fixed(1, ([o]) => joined(list(at(o, 'spec', 'tls')).flatMap((tls) => list(at(tls, 'hosts')).map(text)))),
  // job and cronjob
  jobActive: fixed(1, ([o]) => int(at(o, 'status', 'active')) > 0),
  cronJobActiveCount: fixed(1, ([o]) => list(at(o, 'status', 'active')).length),
  cronJobLastScheduleTime: fixed(1, ([o]) => text(at(o, 'status', 'lastScheduleTime'))),
  cronJobLastSuccessTime: fixed(1, ([o]) => text(at(o, 'status', 'lastSuccessfulTime'))),
  cronJobNextScheduleTime: fixed(1, ([o]) => text(at(o, 'status', 'nextScheduleTime'))),
  // statefulset
  statefulSetCurrentRevision: fixed(1, ([o]) => text(at(o, 'status', 'currentRevision'))),
  statefulSetUpdateRevision: fixed(1, ([o]) => text(at(o, 'status', 'updateRevision'))),
  // service
  serviceLoadBalancerIP: fixed(1, ([o]) => loadBalancer(o, 'ip')),
  serviceLoadBalancerHost: fixed(1, ([o]) => loadBalancer(o, 'hostname')),
  serviceNodePort: fixed(1, ([o]) => int(at(list(at(o, 'spec', 'ports'))[0], 'nodePort'))),
  // node
  nodeReady: fixed(1, ([o]) => conditionTrue(o, 'Ready')),
  nodeCondition: fixed(2, ([o, type]) => text(condition(o, type)?.['status'])),
  nodeAllocatableCPU: fixed(1, ([o]) => text(at(o, 'status', 'allocatable', 'cpu'))),
  nodeAllocatableMemory: fixed(1, ([o]) => text(at(o, 'status', 'allocatable', 'memory'))),
  nodeTaints: fixed(1, ([o]) => joined(list(at(o, 'spec', 'taints')).map((taint) => text(at(taint, 'key'))))),
  // serve: provenance annotations Orkestra's gateway writes; a custom resource applied directly has none
  getServeTarget: fixed(1, ([o]) => annotation(o, SERVE_TARGET)),
  getServeAlias: fixed(1, ([o]) => annotation(o, SERVE_ALIAS)),
  getServeSource: fixed(1, ([o]) => annotation(o, SERVE_SOURCE)),
  hasServeTarget: fixed(1, ([o]) => annotation(o, SERVE_TARGET) !== ''),
  hasServeAlias: fixed(1, ([o]) => annotation(o, SERVE_ALIAS) !== ''),
  hasServeSource: fixed(1, ([o]) => annotation(o, SERVE_SOURCE) !== ''),
  isDirectApply: fixed(1, ([o]) => [SERVE_TARGET, SERVE_ALIAS, SERVE_SOURCE].every((key) => annotation(o, key) === '')),
};
