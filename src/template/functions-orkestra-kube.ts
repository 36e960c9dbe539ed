/**
 * Orkestra's Kubernetes helpers: read observed children (`.children.deployment`) safely. A missing object or
 * field gives Orkestra's zero value (0, "", false), never an error, so they can sit in status fields that are
 * evaluated before the child exists.
 */
import { fixed, type TemplateFunction } from './function-type.js';
import { getKey, isMap } from './values.js';

/** The value at `keys` inside `object`, or undefined when a step is not a map. */
export function at(object: unknown, ...keys: string[]): unknown {
  let current = object;
  for (const key of keys) {
    if (!isMap(current)) return undefined;
    current = getKey(current, key);
  }
  return current;
}

function int(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  return 0;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** spec.replicas, 1 when absent (the Kubernetes default), 0 when scaled to zero. */
function desired(object: unknown): number {
  const replicas = at(object, 'spec', 'replicas');
  return replicas === undefined || replicas === null ? 1 : int(replicas);
}

function containers(object: unknown): readonly unknown[] {
  const list = at(object, 'spec', 'template', 'spec', 'containers');
  return Array.isArray(list) ? list : [];
}

function container(object: unknown, index: unknown): unknown {
  const list = containers(object);
  const i = int(index);
  return i >= 0 && i < list.length ? list[i] : undefined;
}

function map(value: unknown): Readonly<Record<string, unknown>> {
  return isMap(value) ? value : {};
}

export const ORKESTRA_KUBE_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  allReplicasReady: fixed(1, ([o]) => int(at(o, 'status', 'readyReplicas')) === desired(o)),
  rolloutComplete: fixed(1, ([o]) => int(at(o, 'status', 'updatedReplicas')) === desired(o)),
  desiredReplicas: fixed(1, ([o]) => desired(o)),
  readyReplicas: fixed(1, ([o]) => int(at(o, 'status', 'readyReplicas'))),
  availableReplicas: fixed(1, ([o]) => int(at(o, 'status', 'availableReplicas'))),
  updatedReplicas: fixed(1, ([o]) => int(at(o, 'status', 'updatedReplicas'))),
  /** Whether the argument is an observed object (a map with metadata). */
  resourceExists: fixed(1, ([o]) => isMap(at(o, 'metadata'))),
  resourceName: fixed(1, ([o]) => text(at(o, 'metadata', 'name'))),
  resourceNamespace: fixed(1, ([o]) => text(at(o, 'metadata', 'namespace'))),
  resourceUID: fixed(1, ([o]) => text(at(o, 'metadata', 'uid'))),
  resourceVersion: fixed(1, ([o]) => text(at(o, 'metadata', 'resourceVersion'))),
  creationTimestamp: fixed(1, ([o]) => text(at(o, 'metadata', 'creationTimestamp'))),
  meta: fixed(1, ([o]) => map(at(o, 'metadata'))),
  labels: fixed(1, ([o]) => map(at(o, 'metadata', 'labels'))),
  annotations: fixed(1, ([o]) => map(at(o, 'metadata', 'annotations'))),
  spec: fixed(1, ([o]) => map(at(o, 'spec'))),
  status: fixed(1, ([o]) => map(at(o, 'status'))),
  ownerKind: fixed(1, ([o]) => text(at(firstOwner(o), 'kind'))),
  ownerName: fixed(1, ([o]) => text(at(firstOwner(o), 'name'))),
  /** Whether status.conditions has one of this type with status "True". */
  hasCondition: fixed(2, ([o, type]) => {
    const list = at(o, 'status', 'conditions');
    return Array.isArray(list) && list.some((c) => at(c, 'type') === type && at(c, 'status') === 'True');
  }),
  containerImage: fixed(2, ([o, index]) => text(at(container(o, index), 'image'))),
  containerEnv: fixed(3, ([o, index, key]) => {
    const env = at(container(o, index), 'env');
    if (!Array.isArray(env)) return '';
    const found = env.find((item) => at(item, 'name') === key);
    return text(at(found, 'value'));
  }),
  containerCount: fixed(1, ([o]) => containers(o).length),
  containerPorts: fixed(2, ([o, index]) => {
    const ports = at(container(o, index), 'ports');
    return Array.isArray(ports) ? ports.map((p) => String(int(at(p, 'containerPort')))).join(',') : '';
  }),
  serviceClusterIP: fixed(1, ([o]) => text(at(o, 'spec', 'clusterIP'))),
  jobSucceeded: fixed(1, ([o]) => int(at(o, 'status', 'succeeded')) > 0),
  jobFailed: fixed(1, ([o]) => int(at(o, 'status', 'failed')) > 0),
};

function firstOwner(object: unknown): unknown {
  const owners = at(object, 'metadata', 'ownerReferences');
  return Array.isArray(owners) ? owners[0] : undefined;
}
