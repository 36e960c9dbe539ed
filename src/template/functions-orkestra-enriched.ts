/**
 * Orkestra's notes that read what its `enrich` step puts beside a child other than `_pods` (and the job notes that
 * read `_pods`), as Orkestra's `pkg/note/catalog_generated.go` defines them; operatorbox/enrich-targets.ts builds the
 * data: `_warnings` (events), `_node` (node), `_replicaSets` (replicasets), `_owner` (owner), `_lastJob` /
 * `_lastSuccessfulJob` (cronjob), `_currentMetrics` / `_scaleTarget` (hpa), `_loadBalancerIPs` / `_tlsSecrets`
 * (ingress), `_pv` (pvc), `_storageClass` (storageclass), `_pvcs` (pvcs), `_backingPods` (backingpods) and
 * `_endpoints` (endpoints). A child without the data (not enriched, another kind, missing) gives Orkestra's zero
 * values: `""`, 0, false, -1 for an exit code, an empty list — never an error.
 *
 * Where the catalog and a real object disagree, the object wins (docs/orkestra-compatibility.md#enrich):
 * `pvcStorageClassReclaimPolicy` reads a StorageClass's top-level `reclaimPolicy`, and `oldDeploymentReplicaSets`
 * finds the current ReplicaSet by the Deployment's revision annotation when `status.currentReplicaSet` is absent.
 */
import { fixed, type TemplateFunction } from './function-type.js';
import { getKey, isMap } from './values.js';

type Item = Readonly<Record<string, unknown>>;

function field(object: unknown, key: string): unknown {
  return isMap(object) ? getKey(object, key) : undefined;
}

function list(object: unknown, key: string): readonly Item[] {
  const value = field(object, key);
  return Array.isArray(value) ? value.filter((item): item is Item => isMap(item)) : [];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function number(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** The value at a path of maps, or undefined. */
function at(object: unknown, ...path: string[]): unknown {
  let current = object;
  for (const key of path) current = field(current, key);
  return current;
}

/** The non-empty texts, joined with ", " as Orkestra joins them. */
function joined(values: readonly unknown[]): string {
  return values
    .map(text)
    .filter((value) => value !== '')
    .join(', ');
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values.filter((value) => value !== ''))];
}

const names = (items: readonly Item[]): string[] => items.map((item) => text(at(item, 'metadata', 'name'))).filter((name) => name !== '');

/** `_pods` names whose phase passes `test`. */
function podNamesWhere(test: (phase: string) => boolean): TemplateFunction {
  return fixed(1, ([object]) => joined(list(object, '_pods').filter((pod) => test(text(pod['phase']))).map((pod) => pod['name'])));
}

function endpoint(item: Item): string {
  return `${text(item['ip'])}:${String(number(item['port']))}`;
}

const REVISION = 'deployment.kubernetes.io/revision';

/** The name of a Deployment's current ReplicaSet: `status.currentReplicaSet`, else the one at the Deployment's revision. */
function currentReplicaSet(deployment: unknown, replicaSets: readonly Item[]): string {
  const named = text(at(deployment, 'status', 'currentReplicaSet'));
  if (named !== '') return named;
  const revision = text(at(deployment, 'metadata', 'annotations', REVISION));
  if (revision === '') return '';
  const current = replicaSets.find((rs) => text(at(rs, 'metadata', 'annotations', REVISION)) === revision);
  return text(at(current, 'metadata', 'name'));
}

export const ORKESTRA_ENRICHED_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  // events → _warnings: [{reason, message, count, lastTimestamp}]
  hasWarnings: fixed(1, ([object]) => list(object, '_warnings').length > 0),
  warningCount: fixed(1, ([object]) => list(object, '_warnings').length),
  firstWarning: fixed(1, ([object]) => text(list(object, '_warnings')[0]?.['message'])),
  warningMessages: fixed(1, ([object]) => joined(list(object, '_warnings').map((warning) => warning['message']))),
  /** De-duplicated, as the catalog says. */
  warningReasons: fixed(1, ([object]) => distinct(list(object, '_warnings').map((warning) => text(warning['reason']))).join(', ')),

  // node → _node: {name, zone, region, instanceType} on a Pod child
  podNodeName: fixed(1, ([object]) => text(at(object, '_node', 'name'))),
  podNodeZone: fixed(1, ([object]) => text(at(object, '_node', 'zone'))),
  podNodeRegion: fixed(1, ([object]) => text(at(object, '_node', 'region'))),
  podNodeInstanceType: fixed(1, ([object]) => text(at(object, '_node', 'instanceType'))),

  // replicasets → _replicaSets on a Deployment; owner → _owner: {name, kind, uid} on a ReplicaSet
  deploymentReplicaSetCount: fixed(1, ([object]) => list(object, '_replicaSets').length),
  deploymentReplicaSets: fixed(1, ([object]) => names(list(object, '_replicaSets'))),
  oldDeploymentReplicaSets: fixed(1, ([object]) => {
    const all = list(object, '_replicaSets');
    const current = currentReplicaSet(object, all);
    return current === '' ? [] : names(all).filter((name) => name !== current);
  }),
  replicaSetOwnerName: fixed(1, ([object]) => text(at(object, '_owner', 'name'))),
  replicaSetOwnerKind: fixed(1, ([object]) => text(at(object, '_owner', 'kind'))),

  // pods → _pods on a Job
  jobActivePodNames: podNamesWhere((phase) => phase !== 'Succeeded' && phase !== 'Failed'),
  jobSucceededPodNames: podNamesWhere((phase) => phase === 'Succeeded'),
  jobFailedPodNames: podNamesWhere((phase) => phase === 'Failed'),
  jobFirstExitCode: fixed(1, ([object]) => {
    const pod = list(object, '_pods').find((candidate) => typeof candidate['exitCode'] === 'number' && candidate['exitCode'] >= 0);
    return pod === undefined ? -1 : number(pod['exitCode']);
  }),

  // cronjob → _lastJob, _lastSuccessfulJob (Jobs) on a CronJob
  cronJobLastJobName: fixed(1, ([object]) => text(at(object, '_lastJob', 'metadata', 'name'))),
  cronJobLastJobSucceeded: fixed(1, ([object]) => number(at(object, '_lastJob', 'status', 'succeeded')) > 0),
  cronJobLastSuccessfulJobName: fixed(1, ([object]) => text(at(object, '_lastSuccessfulJob', 'metadata', 'name'))),

  // hpa → _currentMetrics: [{type, name, current}], _scaleTarget: {name, kind, apiVersion}
  hpaMetricTypes: fixed(1, ([object]) => joined(list(object, '_currentMetrics').map((metric) => metric['type']))),
  hpaScaleTargetKind: fixed(1, ([object]) => text(at(object, '_scaleTarget', 'kind'))),
  hpaScaleTargetName: fixed(1, ([object]) => text(at(object, '_scaleTarget', 'name'))),

  // ingress → _loadBalancerIPs: [string], _tlsSecrets: [Secret]
  ingressLoadBalancerIPs: fixed(1, ([object]) => {
    const value = field(object, '_loadBalancerIPs');
    return Array.isArray(value) ? joined(value) : '';
  }),
  ingressTLSSecretCount: fixed(1, ([object]) => list(object, '_tlsSecrets').length),

  // pvc → _pv (PersistentVolume), storageclass → _storageClass on a PersistentVolumeClaim; pvcs → _pvcs on a StatefulSet
  pvcProvisioner: fixed(1, ([object]) => text(at(object, '_pv', 'metadata', 'annotations', 'pv.kubernetes.io/provisioned-by'))),
  pvcVolumeMode: fixed(1, ([object]) => text(at(object, '_pv', 'spec', 'volumeMode'))),
  pvcStorageClassProvisioner: fixed(1, ([object]) => text(at(object, '_storageClass', 'provisioner'))),
  pvcStorageClassReclaimPolicy: fixed(1, ([object]) => text(at(object, '_storageClass', 'reclaimPolicy')) || text(at(object, '_storageClass', 'spec', 'reclaimPolicy'))),
  statefulSetPVCCount: fixed(1, ([object]) => list(object, '_pvcs').length),

  // backingpods → _backingPods (pod summaries), endpoints → _endpoints: [{ip, port, ready}] on a Service
  backingPodCount: fixed(1, ([object]) => list(object, '_backingPods').length),
  backingPodNames: fixed(1, ([object]) => joined(list(object, '_backingPods').map((pod) => pod['name']))),
  endpointsReady: fixed(1, ([object]) => list(object, '_endpoints').some((item) => item['ready'] === true)),
  hasEndpoints: fixed(1, ([object]) => list(object, '_endpoints').some((item) => item['ready'] === true)),
  serviceEndpointCount: fixed(1, ([object]) => list(object, '_endpoints').length),
  serviceEndpoints: fixed(1, ([object]) => list(object, '_endpoints').map(endpoint).join(', ')),
  serviceFirstEndpoint: fixed(1, ([object]) => {
    const first = list(object, '_endpoints')[0];
    return first === undefined ? '' : endpoint(first);
  }),
};
