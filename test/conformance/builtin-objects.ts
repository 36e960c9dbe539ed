// The built-in objects the conformance tests of built-in kinds start from (builtin-validation.ts, builtin-updates.ts):
// each kind's minimal valid object in namespace default, the edits the tests make to it, and kube-apiserver's 422
// for a kind (a core kind is named without a group, and its details have none).
import assert from 'node:assert/strict';
import { invalidAnswer, type Answered, type Cause } from './invalid-answer.js';

export type Obj = Record<string, unknown>;
export type Edit = (object: Obj) => void;

export interface Kind {
  readonly group: string;
  readonly kind: string;
  /** The collection's path in namespace default. */
  readonly path: string;
  /** A minimal valid object named `name`. */
  readonly base: (name: string) => Obj;
}

export const NS = 'default';

export const MISMATCH = '`selector` does not match template `labels`';
/**
 * The first line of the refusal of a Pod update that changes more than kube-apiserver allows. kube-apiserver goes on
 * with a unified diff of its internal Go PodSpec, which the in-process server does not print (docs/testing.md).
 */
export const POD_UPDATE_FORBIDDEN =
  'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';
const podSpec = (): Obj => ({ containers: [{ name: 'web', image: 'nginx' }] });
const template = (): Obj => ({ metadata: { labels: { app: 'web' } }, spec: podSpec() });
const selector = (): Obj => ({ matchLabels: { app: 'web' } });
const meta = (name: string): Obj => ({ name, namespace: NS });
const apps = (kind: string, plural: string, spec: Obj = {}): Kind => ({
  group: 'apps',
  kind,
  path: `/apis/apps/v1/namespaces/${NS}/${plural}`,
  base: (name) => ({ apiVersion: 'apps/v1', kind, metadata: meta(name), spec: { ...spec, selector: selector(), template: template() } }),
});

export const DEPLOYMENT = apps('Deployment', 'deployments');
export const STATEFULSET = apps('StatefulSet', 'statefulsets', { serviceName: 'web' });
export const DAEMONSET = apps('DaemonSet', 'daemonsets');
export const REPLICASET = apps('ReplicaSet', 'replicasets');
export const JOB: Kind = {
  group: 'batch',
  kind: 'Job',
  path: `/apis/batch/v1/namespaces/${NS}/jobs`,
  base: (name) => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: meta(name), spec: { template: { spec: { ...podSpec(), restartPolicy: 'Never' } } } }),
};
export const CRONJOB: Kind = {
  group: 'batch',
  kind: 'CronJob',
  path: `/apis/batch/v1/namespaces/${NS}/cronjobs`,
  base: (name) => ({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: meta(name),
    spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { ...podSpec(), restartPolicy: 'OnFailure' } } } } },
  }),
};
export const POD: Kind = { group: '', kind: 'Pod', path: `/api/v1/namespaces/${NS}/pods`, base: (name) => ({ apiVersion: 'v1', kind: 'Pod', metadata: meta(name), spec: podSpec() }) };
export const SERVICE: Kind = {
  group: '',
  kind: 'Service',
  path: `/api/v1/namespaces/${NS}/services`,
  base: (name) => ({ apiVersion: 'v1', kind: 'Service', metadata: meta(name), spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } }),
};
export const CONFIGMAP: Kind = { group: '', kind: 'ConfigMap', path: `/api/v1/namespaces/${NS}/configmaps`, base: (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(name), data: { a: '1' } }) };
export const SECRET: Kind = { group: '', kind: 'Secret', path: `/api/v1/namespaces/${NS}/secrets`, base: (name) => ({ apiVersion: 'v1', kind: 'Secret', metadata: meta(name), stringData: { a: '1' } }) };
export const INGRESS: Kind = {
  group: 'networking.k8s.io',
  kind: 'Ingress',
  path: `/apis/networking.k8s.io/v1/namespaces/${NS}/ingresses`,
  base: (name) => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: meta(name),
    spec: { rules: [{ http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }] },
  }),
};
export const RBAC = 'rbac.authorization.k8s.io';
export const ROLE: Kind = {
  group: RBAC,
  kind: 'Role',
  path: `/apis/${RBAC}/v1/namespaces/${NS}/roles`,
  base: (name) => ({ apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: meta(name), rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }),
};
export const ROLEBINDING: Kind = {
  group: RBAC,
  kind: 'RoleBinding',
  path: `/apis/${RBAC}/v1/namespaces/${NS}/rolebindings`,
  base: (name) => ({
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: meta(name),
    roleRef: { apiGroup: RBAC, kind: 'Role', name: 'r' },
    subjects: [{ kind: 'User', apiGroup: RBAC, name: 'alice' }],
  }),
};
export const PVC: Kind = {
  group: '',
  kind: 'PersistentVolumeClaim',
  path: `/api/v1/namespaces/${NS}/persistentvolumeclaims`,
  base: (name) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: meta(name),
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  }),
};

/** The keys of a path such as `spec.containers[0].image` (array indexes as strings, which JavaScript arrays take). */
export function keys(path: string): string[] {
  return path.match(/[^.[\]]+/g) ?? [];
}

/** Sets the value at `path` (the parents must exist); undefined deletes it. */
export function set(path: string, value: unknown): Edit {
  return (object) => {
    const all = keys(path);
    const last = all.pop();
    assert.ok(last !== undefined);
    let node = object;
    for (const key of all) node = node[key] as Obj;
    if (value === undefined) delete node[last];
    else node[last] = structuredClone(value);
  };
}

export const drop = (path: string): Edit => set(path, undefined);
export const both =
  (...edits: Edit[]): Edit =>
  (object) => {
    for (const edit of edits) edit(object);
  };

/** The 422 of kube-apiserver for `name` of `kind`: a core kind is named without a group, and its details have none. */
export function invalid(kind: Kind, name: string, causes: readonly Cause[]): Answered {
  if (kind.group !== '') return invalidAnswer(kind.group, kind.kind, name, causes);
  const listed = causes.map(([, field, message]) => `${field}: ${message}`);
  return {
    status: 422,
    reason: 'Invalid',
    message: `${kind.kind} "${name}" is invalid: ${listed.length === 1 ? String(listed[0]) : `[${listed.join(', ')}]`}`,
    details: { name, kind: kind.kind, causes: causes.map(([reason, field, message]) => ({ reason, message, field })) },
  };
}

/** The value at `path`, or undefined. */
export function at(object: unknown, path: string): unknown {
  let node = object;
  for (const key of keys(path)) node = node !== null && typeof node === 'object' ? (node as Obj)[key] : undefined;
  return node;
}

export const none: Edit = () => undefined;
