/**
 * What each of Orkestra's enrich targets other than `pods` puts beside a child (its `pkg/children/enrich_*.go`),
 * as underscore keys the notes read (template/functions-orkestra-enriched.ts). By the child's kind:
 * - any child, `events`: `_warnings: [{reason, message, count, lastTimestamp}]`, the child's Warning Events (field
 *   selector `involvedObject.name,involvedObject.kind,type=Warning`), and for a Deployment, StatefulSet or ReplicaSet
 *   also those of the pods its selector matches (container failures are recorded on the Pod);
 * - Deployment, `replicasets`: `_replicaSets`, the ReplicaSets it owns (by uid), each with `_owner`;
 * - ReplicaSet, `owner`: `_owner: {name, kind, uid}`, its controller owner reference (no call);
 * - StatefulSet, `pvcs`: `_pvcs`, the claims `<template>-<statefulset>-<ordinal>` that exist;
 * - Service, `endpoints`: `_endpoints: [{ip, port, ready}]` from its EndpointSlices; `backingpods`: `_backingPods`,
 *   summaries of the pods its `spec.selector` matches;
 * - Pod, `node`: `_node: {name, zone, region, instanceType}` from the Node it runs on (topology labels);
 * - PersistentVolumeClaim, `pvc`: `_pv`, the bound volume; `storageclass`: `_storageClass`;
 * - PersistentVolume, `pv`: `_pvc`, the bound claim;
 * - Ingress, `ingress`: `_loadBalancerIPs` (no call) and `_tlsSecrets`, the Secrets of `spec.tls`;
 * - HorizontalPodAutoscaler, `hpa`: `_scaleTarget: {name, kind, apiVersion}`, `_currentMetrics: [{type, name,
 *   current}]` (no call);
 * - CronJob, `cronjob`: `_activeJobs` (its `status.active`), `_lastJob` and `_lastSuccessfulJob`, the newest Job it
 *   owns and the newest that succeeded.
 * As in Orkestra a key is set only when it has something (an absent key reads as empty in the notes).
 */
import type { EnrichTargetName } from '../definition/types.js';
import type { KubeObject } from '../kube/resource.js';
import { ENDPOINT_SLICES, ENRICH_LIST_LIMIT, EVENTS, JOBS, NODES, PERSISTENT_VOLUME_CLAIMS, PERSISTENT_VOLUMES, PODS, REPLICA_SETS, SECRETS, STORAGE_CLASSES, type EnrichReads } from './enrich-reads.js';
import { podSelectorOf, podSummary } from './enrich-pods.js';

type Json = Record<string, unknown>;

/** What one enrich pass shares between children: the active targets, the reads, and the Nodes already fetched. */
export interface EnrichPass {
  readonly active: ReadonlySet<EnrichTargetName>;
  readonly reads: EnrichReads;
  readonly signal: AbortSignal;
  readonly nodes: Map<string, Json | undefined>;
}

const map = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const maps = (value: unknown): Json[] => (Array.isArray(value) ? value.map(map) : []);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const int = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : 0);

/** The keys the active targets add to `child` (empty when none applies). */
export async function enrichedFields(child: KubeObject, pass: EnrichPass): Promise<Json> {
  const out: Json = {};
  const { active } = pass;
  const kind = child.kind ?? '';
  const set = (key: string, value: unknown): void => {
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) out[key] = value;
  };
  if (active.has('events')) set('_warnings', await warningsOf(child, pass));
  if (kind === 'Deployment' && active.has('replicasets')) set('_replicaSets', await replicaSetsOf(child, pass));
  if (kind === 'ReplicaSet' && active.has('owner')) set('_owner', ownerOf(child));
  if (kind === 'StatefulSet' && active.has('pvcs')) set('_pvcs', await claimsOf(child, pass));
  if (kind === 'Service' && active.has('endpoints')) set('_endpoints', await endpointsOf(child, pass));
  if (kind === 'Service' && active.has('backingpods')) set('_backingPods', await backingPodsOf(child, pass));
  if (kind === 'Pod' && active.has('node')) set('_node', await nodeOf(child, pass));
  if (kind === 'PersistentVolumeClaim' && active.has('pvc')) set('_pv', await boundVolumeOf(child, pass));
  if (kind === 'PersistentVolumeClaim' && active.has('storageclass')) set('_storageClass', await storageClassOf(child, pass));
  if (kind === 'PersistentVolume' && active.has('pv')) set('_pvc', await boundClaimOf(child, pass));
  if (kind === 'Ingress' && active.has('ingress')) Object.assign(out, await ingressOf(child, pass));
  if (kind === 'HorizontalPodAutoscaler' && active.has('hpa')) Object.assign(out, autoscalerOf(child));
  if (kind === 'CronJob' && active.has('cronjob')) Object.assign(out, await cronJobOf(child, pass));
  return out;
}

const namespaceOf = (object: KubeObject): string => object.metadata?.namespace ?? '';
const nameOf = (object: KubeObject): string => object.metadata?.name ?? '';

function warning(event: KubeObject): Json {
  return { reason: str(event['reason']), message: str(event['message']), count: int(event['count']), lastTimestamp: str(event['lastTimestamp']) };
}

const POD_WARNING_KINDS = new Set(['Deployment', 'StatefulSet', 'ReplicaSet']);

async function warningsOf(child: KubeObject, { reads, signal }: EnrichPass): Promise<Json[] | undefined> {
  const namespace = namespaceOf(child);
  if (namespace === '' || nameOf(child) === '') return undefined;
  const own = await reads.list(EVENTS, namespace, { fieldSelector: `involvedObject.name=${nameOf(child)},involvedObject.kind=${child.kind ?? ''},type=Warning` }, signal);
  const out = own.map(warning);
  const selector = POD_WARNING_KINDS.has(child.kind ?? '') ? podSelectorOf(child) : undefined;
  if (selector !== undefined) {
    // One list of the namespace's Pod warnings, kept for the pods the selector matches (Orkestra lists per pod).
    const pods = new Set((await reads.list(PODS, namespace, { labelSelector: selector }, signal)).map(nameOf));
    if (pods.size > 0) {
      const events = await reads.list(EVENTS, namespace, { fieldSelector: 'involvedObject.kind=Pod,type=Warning' }, signal);
      for (const event of events) if (pods.has(str(map(event['involvedObject'])['name']))) out.push(warning(event));
    }
  }
  return out;
}

function controllerRef(object: KubeObject): { name: string; kind: string; uid: string } | undefined {
  return (object.metadata?.ownerReferences ?? []).find((reference) => reference.controller === true);
}

function ownerOf(object: KubeObject): Json | undefined {
  const owner = controllerRef(object);
  return owner === undefined ? undefined : { name: owner.name, kind: owner.kind, uid: owner.uid };
}

function ownedBy(object: KubeObject, uid: string): boolean {
  return (object.metadata?.ownerReferences ?? []).some((reference) => reference.uid === uid);
}

async function replicaSetsOf(deployment: KubeObject, { reads, signal }: EnrichPass): Promise<Json[] | undefined> {
  const uid = deployment.metadata?.uid ?? '';
  if (namespaceOf(deployment) === '' || uid === '') return undefined;
  const items = await reads.list(REPLICA_SETS, namespaceOf(deployment), {}, signal);
  return items.filter((rs) => ownedBy(rs, uid)).map((rs) => ({ ...rs, ...(ownerOf(rs) === undefined ? {} : { _owner: ownerOf(rs) }) }));
}

/** The ReplicaSet of `_replicaSets` with the most `spec.replicas` (Orkestra's "active" one), for `.children.replicaset`. */
export function activeReplicaSet(replicaSets: readonly Json[]): Json | undefined {
  let best: Json | undefined;
  let most = -1;
  for (const rs of replicaSets) {
    const replicas = int(map(rs['spec'])['replicas']);
    if (replicas > most) [best, most] = [rs, replicas];
  }
  return best;
}

async function claimsOf(statefulSet: KubeObject, { reads, signal }: EnrichPass): Promise<KubeObject[] | undefined> {
  const namespace = namespaceOf(statefulSet);
  const spec = map(statefulSet['spec']);
  // Orkestra reads an unset (or zero) replica count as 1.
  const replicas = Math.min(int(spec['replicas']) || 1, ENRICH_LIST_LIMIT);
  const templates = maps(spec['volumeClaimTemplates']).map((template) => str(map(template['metadata'])['name'])).filter((name) => name !== '');
  if (namespace === '' || templates.length === 0) return undefined;
  const out: KubeObject[] = [];
  for (const template of templates) {
    for (let ordinal = 0; ordinal < replicas; ordinal += 1) {
      const claim = await reads.get(PERSISTENT_VOLUME_CLAIMS, `${template}-${nameOf(statefulSet)}-${ordinal}`, namespace, signal);
      if (claim !== undefined) out.push(claim);
    }
  }
  return out;
}

async function endpointsOf(service: KubeObject, { reads, signal }: EnrichPass): Promise<Json[] | undefined> {
  if (namespaceOf(service) === '') return undefined;
  const slices = await reads.list(ENDPOINT_SLICES, namespaceOf(service), { labelSelector: `kubernetes.io/service-name=${nameOf(service)}` }, signal);
  const out: Json[] = [];
  for (const slice of slices) {
    const ports = maps(slice['ports']).map((port) => int(port['port']));
    for (const entry of maps(slice['endpoints'])) {
      const ready = map(entry['conditions'])['ready'] === true;
      for (const ip of Array.isArray(entry['addresses']) ? entry['addresses'].map(str) : []) {
        if (ip !== '') for (const port of ports) out.push({ ip, port, ready });
      }
    }
  }
  return out;
}

async function backingPodsOf(service: KubeObject, { reads, signal }: EnrichPass): Promise<Json[] | undefined> {
  const selector = Object.entries(map(map(service['spec'])['selector']))
    .filter(([, value]) => typeof value === 'string')
    .map(([key, value]) => `${key}=${str(value)}`)
    .join(',');
  if (namespaceOf(service) === '' || selector === '') return undefined;
  const pods = await reads.list(PODS, namespaceOf(service), { labelSelector: selector }, signal);
  return [...pods].sort((a, b) => nameOf(a).localeCompare(nameOf(b))).map((pod) => podSummary(pod, undefined));
}

async function nodeOf(pod: KubeObject, { reads, signal, nodes }: EnrichPass): Promise<Json | undefined> {
  const name = str(map(pod['spec'])['nodeName']);
  if (name === '') return undefined;
  if (!nodes.has(name)) {
    const node = await reads.get(NODES, name, '', signal);
    const labels = node?.metadata?.labels ?? {};
    nodes.set(
      name,
      node === undefined
        ? undefined
        : { name, zone: labels['topology.kubernetes.io/zone'] ?? '', region: labels['topology.kubernetes.io/region'] ?? '', instanceType: labels['node.kubernetes.io/instance-type'] ?? '' },
    );
  }
  return nodes.get(name);
}

async function boundVolumeOf(claim: KubeObject, { reads, signal }: EnrichPass): Promise<KubeObject | undefined> {
  const volume = str(map(claim['spec'])['volumeName']);
  if (volume === '') return undefined;
  const pv = await reads.get(PERSISTENT_VOLUMES, volume, '', signal);
  return pv === undefined ? undefined : { ...pv, status: pv['status'] ?? {} };
}

async function storageClassOf(claim: KubeObject, { reads, signal }: EnrichPass): Promise<KubeObject | undefined> {
  const name = str(map(claim['spec'])['storageClassName']);
  return name === '' ? undefined : reads.get(STORAGE_CLASSES, name, '', signal);
}

async function boundClaimOf(volume: KubeObject, { reads, signal }: EnrichPass): Promise<KubeObject | undefined> {
  const ref = map(map(volume['spec'])['claimRef']);
  const [name, namespace] = [str(ref['name']), str(ref['namespace'])];
  return name === '' || namespace === '' ? undefined : reads.get(PERSISTENT_VOLUME_CLAIMS, name, namespace, signal);
}

async function ingressOf(ingress: KubeObject, { reads, signal }: EnrichPass): Promise<Json> {
  const out: Json = {};
  const addresses = maps(map(map(ingress['status'])['loadBalancer'])['ingress'])
    .map((entry) => str(entry['ip']) || str(entry['hostname']))
    .filter((address) => address !== '');
  if (addresses.length > 0) out['_loadBalancerIPs'] = addresses;
  const names = [...new Set(maps(map(ingress['spec'])['tls']).map((tls) => str(tls['secretName'])))].filter((name) => name !== '');
  const secrets: KubeObject[] = [];
  if (namespaceOf(ingress) !== '') {
    for (const name of names) {
      const secret = await reads.get(SECRETS, name, namespaceOf(ingress), signal);
      if (secret !== undefined) secrets.push(secret);
    }
  }
  if (secrets.length > 0) out['_tlsSecrets'] = secrets;
  return out;
}

const METRIC_CURRENT: Readonly<Record<string, { source: string; fields: readonly string[] }>> = {
  Resource: { source: 'resource', fields: ['averageUtilization', 'averageValue'] },
  External: { source: 'external', fields: ['value', 'averageValue'] },
  Pods: { source: 'pods', fields: ['averageValue'] },
  Object: { source: 'object', fields: ['value', 'averageValue'] },
  ContainerResource: { source: 'containerResource', fields: ['averageUtilization', 'averageValue'] },
};

function autoscalerOf(hpa: KubeObject): Json {
  const out: Json = {};
  const ref = map(map(hpa['spec'])['scaleTargetRef']);
  if (Object.keys(ref).length > 0) out['_scaleTarget'] = { name: ref['name'], kind: ref['kind'], apiVersion: ref['apiVersion'] };
  const metrics = maps(map(hpa['status'])['currentMetrics']).map((metric) => {
    const type = str(metric['type']);
    const shape = METRIC_CURRENT[type];
    if (shape === undefined) return { type };
    const source = map(metric[shape.source]);
    const current = map(source['current']);
    const name = source['name'] ?? map(source['metric'])['name'];
    const value = shape.fields.map((key) => current[key]).find((candidate) => candidate !== undefined);
    return { type, ...(name === undefined ? {} : { name }), ...(value === undefined ? {} : { current: value }) };
  });
  if (metrics.length > 0) out['_currentMetrics'] = metrics;
  return out;
}

async function cronJobOf(cronJob: KubeObject, { reads, signal }: EnrichPass): Promise<Json> {
  const out: Json = {};
  const uid = cronJob.metadata?.uid ?? '';
  if (namespaceOf(cronJob) === '' || uid === '') return out;
  const active = map(cronJob['status'])['active'];
  if (Array.isArray(active) && active.length > 0) out['_activeJobs'] = active;
  const created = (job: KubeObject): string => job.metadata?.creationTimestamp ?? '';
  const jobs = (await reads.list(JOBS, namespaceOf(cronJob), {}, signal)).filter((job) => ownedBy(job, uid));
  jobs.sort((a, b) => created(b).localeCompare(created(a)) || nameOf(b).localeCompare(nameOf(a)));
  if (jobs[0] !== undefined) out['_lastJob'] = jobs[0];
  const succeeded = jobs.find((job) => int(map(job['status'])['succeeded']) > 0);
  if (succeeded !== undefined) out['_lastSuccessfulJob'] = succeeded;
  return out;
}
