/**
 * Orkestra notes katalog does not define, by name, with the reason: a template that calls one fails to compile
 * with that reason (never a bare "not defined"). Two reasons: the note reads data Orkestra's `enrich` adds to a
 * child that katalog's enrich does not fetch yet (events, owner, node, ReplicaSets, Endpoints, StorageClass; it
 * fetches pods); or it reads the clock, which would make a render differ from one
 * reconcile to the next while nothing changed.
 */
const ENRICH = "it reads what Orkestra's `enrich` fetches beside a child (events, owners, nodes, ReplicaSets, Endpoints, volumes...); katalog's enrich fetches only `pods` so far (docs/orkestra-compatibility.md#enrich); read the child's own fields, or use a hook";
const CLOCK = 'it reads the clock, so a render would change while nothing else does; use rotateAfter or requeue.after for time-based work';
const NOT_YET = 'not implemented yet';

const by = (reason: string, names: readonly string[]): Array<[string, string]> => names.map((name) => [name, reason]);

const REFUSED: ReadonlyMap<string, string> = new Map([
  ...by(ENRICH, [
    'firstWarning', 'hasWarnings', 'warningCount', 'warningMessages', 'warningReasons',
    'podNodeInstanceType', 'podNodeName', 'podNodeRegion', 'podNodeZone',
    'deploymentReplicaSetCount', 'deploymentReplicaSets', 'oldDeploymentReplicaSets', 'replicaSetOwnerKind', 'replicaSetOwnerName',
    'jobActivePodNames', 'jobFailedPodNames', 'jobFirstExitCode', 'jobSucceededPodNames',
    'cronJobLastJobName', 'cronJobLastJobSucceeded', 'cronJobLastSuccessfulJobName',
    'hpaMetricTypes', 'hpaScaleTargetKind', 'hpaScaleTargetName', 'ingressLoadBalancerIPs', 'ingressTLSSecretCount',
    'pvcProvisioner', 'pvcStorageClassProvisioner', 'pvcStorageClassReclaimPolicy', 'pvcVolumeMode', 'statefulSetPVCCount',
    'backingPodCount', 'backingPodNames', 'endpointsReady', 'hasEndpoints', 'serviceEndpointCount', 'serviceEndpoints', 'serviceFirstEndpoint',
  ]),
  ...by(CLOCK, ['timeAgo', 'timeSince', 'timeUntil', 'isExpired', 'nextCron', 'timeInWindow', 'timeNotInWindow', 'weekday', 'weekend']),
  ...by(NOT_YET, ['cronDescribe', 'timeFormat']),
]);

/** Why katalog refuses the Orkestra note `name`, or `undefined` when it does not. */
export function refusedOrkestraFunction(name: string): string | undefined {
  return REFUSED.get(name);
}

/** Every refused Orkestra note, sorted. */
export const REFUSED_ORKESTRA_FUNCTION_NAMES: readonly string[] = Object.freeze([...REFUSED.keys()].sort());
