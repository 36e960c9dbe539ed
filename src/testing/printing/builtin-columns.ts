/**
 * The columns kubectl shows for the built-in kinds (the API server's printers): names, types, priorities (1 = only
 * with `-o wide`) and the cell of each. Kinds without a printer here get Name and Created At. Pure.
 */
import type { KubeObject } from '../store/record.js';
import { ageOf, humanDuration } from './human-duration.js';
import { column, containerColumns, labelsText, list, NAME_COLUMN, nameOf, num, rec, str, type ColumnDefinition, type ColumnSet } from './columns.js';

const AGE = column('Age', 'string', 'CreationTimestamp is a timestamp representing the server time when this object was created.');
const CONTAINERS = column('Containers', 'string', 'Names of each container in the template.', 1);
const IMAGES = column('Images', 'string', 'Images referenced by each container in the template.', 1);
const SELECTOR = column('Selector', 'string', 'Label selector of the Pods.', 1);

function set(columns: ColumnDefinition[], cells: (object: KubeObject, now: number) => unknown[]): ColumnSet {
  return { columns: [NAME_COLUMN, ...columns], cells: (object, now) => [nameOf(object), ...cells(object, now)] };
}

const spec = (o: KubeObject): Record<string, unknown> => rec(o['spec']);
const status = (o: KubeObject): Record<string, unknown> => rec(o['status']);
const age = (o: KubeObject, now: number): string => ageOf(rec(o['metadata'])['creationTimestamp'], now);
const template = (o: KubeObject): unknown => rec(spec(o)['template'])['spec'];
const selector = (o: KubeObject): string => labelsText(rec(spec(o)['selector'])['matchLabels']);

function podReason(pod: KubeObject): string {
  if (rec(pod['metadata'])['deletionTimestamp'] !== undefined) return 'Terminating';
  for (const container of list(status(pod)['containerStatuses']).map(rec)) {
    const waiting = rec(rec(container['state'])['waiting']);
    if (typeof waiting['reason'] === 'string') return waiting['reason'];
    const terminated = rec(rec(container['state'])['terminated']);
    if (typeof terminated['reason'] === 'string') return terminated['reason'];
  }
  return str(status(pod)['reason'], str(status(pod)['phase'], 'Unknown'));
}

const pod = set(
  [
    column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'string', 'The aggregate status of the containers in this pod.'),
    column('Restarts', 'string', 'The number of times the containers in this pod have been restarted.'),
    AGE,
    column('IP', 'string', 'IP address allocated to the pod.', 1),
    column('Node', 'string', 'Name of the node the pod is scheduled on.', 1),
    column('Nominated Node', 'string', 'Node the scheduler nominated for the pod.', 1),
    column('Readiness Gates', 'string', 'Pod readiness gates.', 1),
  ],
  (o, now) => {
    const containers = list(spec(o)['containers']);
    const statuses = list(status(o)['containerStatuses']).map(rec);
    const ready = statuses.filter((c) => c['ready'] === true).length;
    const restarts = statuses.reduce((sum, c) => sum + num(c['restartCount']), 0);
    return [`${ready}/${containers.length}`, podReason(o), String(restarts), age(o, now), str(status(o)['podIP']), str(spec(o)['nodeName']), '<none>', '<none>'];
  },
);

const deployment = set(
  [
    column('Ready', 'string', 'Number of the pod with ready state'),
    column('Up-to-date', 'integer', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'),
    column('Available', 'integer', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'),
    AGE,
    CONTAINERS,
    IMAGES,
    SELECTOR,
  ],
  (o, now) => [`${num(status(o)['readyReplicas'])}/${num(spec(o)['replicas'] ?? 1)}`, num(status(o)['updatedReplicas']), num(status(o)['availableReplicas']), age(o, now), ...containerColumns(template(o)), selector(o)],
);

const replicaSet = set(
  [
    column('Desired', 'integer', 'Number of desired pods.'),
    column('Current', 'integer', 'Number of actual replicas.'),
    column('Ready', 'integer', 'The number of ready replicas for this replica set.'),
    AGE,
    CONTAINERS,
    IMAGES,
    SELECTOR,
  ],
  (o, now) => [num(spec(o)['replicas'] ?? 1), num(status(o)['replicas']), num(status(o)['readyReplicas']), age(o, now), ...containerColumns(template(o)), selector(o)],
);

const statefulSet = set([column('Ready', 'string', 'Number of the pod with ready state'), AGE, CONTAINERS, IMAGES], (o, now) => [
  `${num(status(o)['readyReplicas'])}/${num(spec(o)['replicas'] ?? 1)}`,
  age(o, now),
  ...containerColumns(template(o)),
]);

const daemonSet = set(
  [
    column('Desired', 'integer', 'The total number of nodes that should be running the daemon pod.'),
    column('Current', 'integer', 'The number of nodes that are running at least one daemon pod.'),
    column('Ready', 'integer', 'The number of nodes that should be running the daemon pod and have it ready.'),
    column('Up-to-date', 'integer', 'The total number of nodes that are running the updated daemon pod.'),
    column('Available', 'integer', 'The number of nodes that should be running the daemon pod and have it available.'),
    column('Node Selector', 'string', 'The node selector of the daemon pods.'),
    AGE,
    CONTAINERS,
    IMAGES,
    SELECTOR,
  ],
  (o, now) => [
    num(status(o)['desiredNumberScheduled']),
    num(status(o)['currentNumberScheduled']),
    num(status(o)['numberReady']),
    num(status(o)['updatedNumberScheduled']),
    num(status(o)['numberAvailable']),
    labelsText(rec(template(o))['nodeSelector']),
    age(o, now),
    ...containerColumns(template(o)),
    selector(o),
  ],
);

function jobStatus(o: KubeObject): string {
  const conditions = list(status(o)['conditions']).map(rec).filter((c) => c['status'] === 'True');
  if (conditions.some((c) => c['type'] === 'Complete')) return 'Complete';
  if (conditions.some((c) => c['type'] === 'Failed')) return 'Failed';
  if (spec(o)['suspend'] === true) return 'Suspended';
  return 'Running';
}

const job = set(
  [
    column('Status', 'string', 'Status of the job.'),
    column('Completions', 'string', 'The completion status of the job.'),
    column('Duration', 'string', 'Time required to complete the job.'),
    AGE,
    CONTAINERS,
    IMAGES,
    SELECTOR,
  ],
  (o, now) => {
    const start = Date.parse(String(status(o)['startTime'] ?? ''));
    const end = Date.parse(String(status(o)['completionTime'] ?? ''));
    const duration = Number.isNaN(start) ? '' : humanDuration((Number.isNaN(end) ? now : end) - start);
    return [jobStatus(o), `${num(status(o)['succeeded'])}/${num(spec(o)['completions'] ?? 1)}`, duration, age(o, now), ...containerColumns(template(o)), selector(o)];
  },
);

const cronJob = set(
  [
    column('Schedule', 'string', 'The schedule in Cron format.'),
    column('Timezone', 'string', 'The time zone of the schedule.'),
    column('Suspend', 'boolean', 'Whether subsequent executions are suspended.'),
    column('Active', 'integer', 'The number of running jobs.'),
    column('Last Schedule', 'string', 'When the job was last scheduled.'),
    AGE,
    CONTAINERS,
    IMAGES,
    SELECTOR,
  ],
  (o, now) => {
    const jobSpec = rec(rec(spec(o)['jobTemplate'])['spec']);
    const last = status(o)['lastScheduleTime'];
    return [
      str(spec(o)['schedule'], ''),
      str(spec(o)['timeZone']),
      spec(o)['suspend'] === true,
      list(status(o)['active']).length,
      last === undefined ? '<none>' : ageOf(last, now),
      age(o, now),
      ...containerColumns(rec(jobSpec['template'])['spec']),
      labelsText(rec(jobSpec['selector'])['matchLabels']),
    ];
  },
);

function servicePorts(o: KubeObject): string {
  const ports = list(spec(o)['ports']).map(rec);
  if (ports.length === 0) return '<none>';
  return ports.map((p) => `${String(p['port'])}${p['nodePort'] === undefined ? '' : `:${String(p['nodePort'])}`}/${str(p['protocol'], 'TCP')}`).join(',');
}

const service = set(
  [
    column('Type', 'string', 'The type of the service.'),
    column('Cluster-IP', 'string', 'The cluster IP of the service.'),
    column('External-IP', 'string', 'The external IPs of the service.'),
    column('Port(s)', 'string', 'The ports of the service.'),
    AGE,
    column('Selector', 'string', 'The selector of the service.', 1),
  ],
  (o, now) => {
    const external = list(spec(o)['externalIPs']).map(String);
    return [str(spec(o)['type'], 'ClusterIP'), str(spec(o)['clusterIP']), external.length === 0 ? '<none>' : external.join(','), servicePorts(o), age(o, now), labelsText(spec(o)['selector'])];
  },
);

const dataCount = (o: KubeObject): number => Object.keys(rec(o['data'])).length + Object.keys(rec(o['binaryData'])).length + Object.keys(rec(o['stringData'])).length;

const configMap = set([column('Data', 'integer', 'Number of entries.'), AGE], (o, now) => [dataCount(o), age(o, now)]);
const secret = set([column('Type', 'string', 'The type of the secret.'), column('Data', 'integer', 'Number of entries.'), AGE], (o, now) => [
  str(o['type'], 'Opaque'),
  dataCount(o),
  age(o, now),
]);
const namespace = set([column('Status', 'string', 'The status of the namespace.'), AGE], (o, now) => [str(status(o)['phase'], 'Active'), age(o, now)]);
const serviceAccount = set([column('Secrets', 'string', 'Number of secrets.'), AGE], (o, now) => [list(o['secrets']).length, age(o, now)]);

const ingress = set(
  [
    column('Class', 'string', 'The ingress class name.'),
    column('Hosts', 'string', 'Hosts that incoming requests are matched against.'),
    column('Address', 'string', 'Address is a list of IP addresses or hostnames of the load balancer.'),
    column('Ports', 'string', 'Ports of the load balancer.'),
    AGE,
  ],
  (o, now) => {
    const hosts = list(spec(o)['rules']).map((r) => str(rec(r)['host'], '*'));
    const tls = list(spec(o)['tls']).length > 0;
    return [str(spec(o)['ingressClassName']), hosts.length === 0 ? '*' : hosts.join(','), '', tls ? '80, 443' : '80', age(o, now)];
  },
);

const pvc = set(
  [
    column('Status', 'string', 'The phase of the claim.'),
    column('Volume', 'string', 'The bound volume.'),
    column('Capacity', 'string', 'The capacity of the bound volume.'),
    column('Access Modes', 'string', 'The access modes.'),
    column('StorageClass', 'string', 'The storage class.'),
    column('VolumeAttributesClass', 'string', 'The volume attributes class.'),
    AGE,
    column('VolumeMode', 'string', 'The volume mode.', 1),
  ],
  (o, now) => [
    str(status(o)['phase'], 'Pending'),
    str(spec(o)['volumeName'], ''),
    str(rec(status(o)['capacity'])['storage'], ''),
    list(status(o)['accessModes']).join(','),
    str(spec(o)['storageClassName'], ''),
    '<unset>',
    age(o, now),
    str(spec(o)['volumeMode'], 'Filesystem'),
  ],
);

const lease = set([column('Holder', 'string', 'The holder of the lease.'), AGE], (o, now) => [str(spec(o)['holderIdentity'], ''), age(o, now)]);
const networkPolicy = set([column('Pod-Selector', 'string', 'The pods the policy applies to.'), AGE], (o, now) => [labelsText(rec(spec(o)['podSelector'])['matchLabels']), age(o, now)]);
const createdAt = column('Created At', 'date', 'CreationTimestamp is a timestamp representing the server time when this object was created.');
const role = set([createdAt], (o) => [str(rec(o['metadata'])['creationTimestamp'], '')]);
const binding = set([column('Role', 'string', 'The role the binding refers to.'), AGE], (o, now) => [`${str(rec(o['roleRef'])['kind'], '')}/${str(rec(o['roleRef'])['name'], '')}`, age(o, now)]);

const event = {
  columns: [
    column('Last Seen', 'string', 'The time at which the most recent occurrence of this event was recorded.'),
    column('Type', 'string', 'Type of this event.'),
    column('Reason', 'string', 'The reason for this event.'),
    column('Object', 'string', 'The object this event is about.'),
    column('Message', 'string', 'A description of this event.'),
    NAME_COLUMN,
  ],
  cells: (o: KubeObject, now: number): unknown[] => {
    const involved = rec(o['involvedObject']);
    const last = o['lastTimestamp'] ?? o['eventTime'] ?? rec(o['metadata'])['creationTimestamp'];
    return [ageOf(last, now), str(o['type'], ''), str(o['reason'], ''), `${String(involved['kind'] ?? '').toLowerCase()}/${String(involved['name'] ?? '')}`, str(o['message'], ''), nameOf(o)];
  },
} satisfies ColumnSet;

const webhookConfiguration = set([column('Webhooks', 'integer', 'Webhooks indicates the number of webhooks registered in this configuration'), AGE], (o, now) => [list(o['webhooks']).length, age(o, now)]);

/** An admission policy's columns: the length of its list at `field` (validations, mutations), its paramKind, its age. */
function admissionPolicyColumns(counted: ColumnDefinition, field: string): ColumnSet {
  return set([counted, column('ParamKind', 'string', 'ParamKind specifies the kind of resources used to parameterize this policy'), AGE], (o, now) => {
    const paramKind = rec(spec(o)['paramKind']);
    return [list(spec(o)[field]).length, spec(o)['paramKind'] === undefined ? '<unset>' : `${str(paramKind['apiVersion'], '')}/${str(paramKind['kind'], '')}`, age(o, now)];
  });
}

const admissionPolicy = admissionPolicyColumns(column('Validations', 'integer', 'Validations indicates the number of validation rules defined in this configuration'), 'validations');
const mutatingPolicy = admissionPolicyColumns(column('Mutations', 'integer', 'Mutation indicates the number of mutations rules defined in this configuration'), 'mutations');

/** A label selector as its Go String() writes it (the generated protobuf text kube-apiserver's printer shows). */
function selectorText(selector: Record<string, unknown>): string {
  const labels = rec(selector['matchLabels']);
  const matchLabels = Object.keys(labels)
    .sort()
    .map((key) => `${key}: ${String(labels[key])},`)
    .join('');
  const expressions = list(selector['matchExpressions'])
    .map(rec)
    .map((e) => `LabelSelectorRequirement{Key:${str(e['key'], '')},Operator:${str(e['operator'], '')},Values:[${list(e['values']).map(String).join(' ')}],},`)
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${matchLabels}},MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`;
}

const policyBinding = set(
  [
    column('PolicyName', 'string', 'PolicyName indicates the policy definition which the policy binding binded to'),
    column('ParamRef', 'string', 'ParamRef indicates the param resource which sets the configuration param'),
    AGE,
  ],
  (o, now) => {
    const ref = spec(o)['paramRef'] === undefined ? undefined : rec(spec(o)['paramRef']);
    const name = ref === undefined ? '' : str(ref['name'], '');
    // A name without a namespace is shown in `*/`: the printer cannot tell whether the param is cluster-scoped.
    const param = ref === undefined ? '<unset>' : name !== '' ? `${str(ref['namespace'], '*')}/${name}` : ref['selector'] !== undefined ? selectorText(rec(ref['selector'])) : '<unset>';
    return [str(spec(o)['policyName'], ''), param, age(o, now)];
  },
);

/** Default of the API server for kinds without a printer: Name and Created At. */
export const DEFAULT_COLUMNS: ColumnSet = role;

const BY_KEY: Readonly<Record<string, ColumnSet>> = {
  '/pods': pod,
  '/configmaps': configMap,
  '/secrets': secret,
  '/namespaces': namespace,
  '/services': service,
  '/serviceaccounts': serviceAccount,
  '/persistentvolumeclaims': pvc,
  '/events': event,
  'apps/deployments': deployment,
  'apps/replicasets': replicaSet,
  'apps/statefulsets': statefulSet,
  'apps/daemonsets': daemonSet,
  'batch/jobs': job,
  'batch/cronjobs': cronJob,
  'networking.k8s.io/ingresses': ingress,
  'networking.k8s.io/networkpolicies': networkPolicy,
  'coordination.k8s.io/leases': lease,
  'rbac.authorization.k8s.io/roles': role,
  'rbac.authorization.k8s.io/clusterroles': role,
  'rbac.authorization.k8s.io/rolebindings': binding,
  'rbac.authorization.k8s.io/clusterrolebindings': binding,
  'admissionregistration.k8s.io/validatingwebhookconfigurations': webhookConfiguration,
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': webhookConfiguration,
  'admissionregistration.k8s.io/validatingadmissionpolicies': admissionPolicy,
  'admissionregistration.k8s.io/validatingadmissionpolicybindings': policyBinding,
  'admissionregistration.k8s.io/mutatingadmissionpolicies': mutatingPolicy,
  'admissionregistration.k8s.io/mutatingadmissionpolicybindings': policyBinding,
};

/** The columns of a built-in resource (by key), or the default ones. */
export function builtinColumns(key: string): ColumnSet {
  return BY_KEY[key] ?? DEFAULT_COLUMNS;
}
