/**
 * The defaults kube-apiserver 1.37 fills into a pod spec wherever one is written: a Pod's, and every workload's pod
 * template (Go's SetDefaults_PodSpec and the generated walk over volumes, containers, probes and handlers), and the
 * few that only a Pod gets (requests copied from limits, `enableServiceLinks`, host ports under host networking),
 * and its quantities written as kube-apiserver stores them (quantity-fields.ts).
 * Left out, as documented: the defaults of volume plugins nobody writes by hand any more (iSCSI, RBD, Azure disk,
 * ScaleIO), pod-level resources, and the `H2CContainerProbe` alpha gate (off by default there).
 */
import { ensureObject, objectAt, objectsAt, textAt, unset, whenUnset, whenZero, type Json } from './fields.js';
import { imageTag } from './image-reference.js';
import { canonicalQuantityAt, canonicalResourceList, canonicalResources } from './quantity-fields.js';

/** The octal 0644 kube-apiserver gives secret, configMap, downwardAPI and projected volumes. */
const DEFAULT_MODE = 420;
const VOLUME_SOURCES_WITH_MODE = ['secret', 'configMap', 'downwardAPI', 'projected'];
const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'];
const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'];

function fieldRefDefaults(holder: Json | undefined): void {
  const fieldRef = holder === undefined ? undefined : objectAt(holder, 'fieldRef');
  if (fieldRef !== undefined) whenZero(fieldRef, 'apiVersion', 'v1');
}

function httpGetDefaults(handler: Json | undefined): void {
  const httpGet = handler === undefined ? undefined : objectAt(handler, 'httpGet');
  if (httpGet === undefined) return;
  whenZero(httpGet, 'path', '/');
  whenZero(httpGet, 'scheme', 'HTTP');
}

function probeDefaults(probe: Json): void {
  whenZero(probe, 'timeoutSeconds', 1);
  whenZero(probe, 'periodSeconds', 10);
  whenZero(probe, 'successThreshold', 1);
  whenZero(probe, 'failureThreshold', 3);
  httpGetDefaults(probe);
  const grpc = objectAt(probe, 'grpc');
  if (grpc !== undefined) whenUnset(grpc, 'service', '');
}

function containerDefaults(container: Json, kind: string): void {
  if (textAt(container, 'imagePullPolicy') === '') container['imagePullPolicy'] = imageTag(textAt(container, 'image')) === 'latest' ? 'Always' : 'IfNotPresent';
  whenZero(container, 'terminationMessagePath', '/dev/termination-log');
  whenZero(container, 'terminationMessagePolicy', 'File');
  // Not a default in Go, but a struct field without omitempty: it is always written, `{}` when empty.
  whenUnset(container, 'resources', {});
  canonicalResources(container, kind);
  for (const port of objectsAt(container, 'ports')) whenZero(port, 'protocol', 'TCP');
  for (const env of objectsAt(container, 'env')) {
    const from = objectAt(env, 'valueFrom');
    if (from === undefined) continue;
    fieldRefDefaults(from);
    const fileKeyRef = objectAt(from, 'fileKeyRef');
    if (fileKeyRef !== undefined) whenUnset(fileKeyRef, 'optional', false);
  }
  for (const name of PROBES) {
    const probe = objectAt(container, name);
    if (probe !== undefined) probeDefaults(probe);
  }
  const lifecycle = objectAt(container, 'lifecycle');
  if (lifecycle !== undefined) for (const hook of ['postStart', 'preStop']) httpGetDefaults(objectAt(lifecycle, hook));
}

function volumeDefaults(volume: Json, kind: string): void {
  const sources = Object.keys(volume).filter((key) => key !== 'name' && volume[key] !== undefined && volume[key] !== null);
  if (sources.length === 0) volume['emptyDir'] = {};
  for (const source of VOLUME_SOURCES_WITH_MODE) {
    const spec = objectAt(volume, source);
    if (spec !== undefined) whenUnset(spec, 'defaultMode', DEFAULT_MODE);
  }
  for (const item of objectsAt(objectAt(volume, 'downwardAPI') ?? {}, 'items')) fieldRefDefaults(item);
  for (const projection of objectsAt(objectAt(volume, 'projected') ?? {}, 'sources')) {
    for (const item of objectsAt(objectAt(projection, 'downwardAPI') ?? {}, 'items')) fieldRefDefaults(item);
    const token = objectAt(projection, 'serviceAccountToken');
    if (token !== undefined) whenUnset(token, 'expirationSeconds', 3600);
  }
  canonicalQuantityAt(objectAt(volume, 'emptyDir'), 'sizeLimit', kind);
  canonicalResources(objectAt(objectAt(objectAt(volume, 'ephemeral') ?? {}, 'volumeClaimTemplate') ?? {}, 'spec'), kind);
  const image = objectAt(volume, 'image');
  if (image !== undefined && textAt(image, 'pullPolicy') === '') image['pullPolicy'] = imageTag(textAt(image, 'reference')) === 'latest' ? 'Always' : 'IfNotPresent';
}

/** Fills in the defaults of a pod spec (a Pod's or a template's, in an object of `kind`), in place. */
export function podSpecDefaults(spec: Json, kind: string): void {
  // serviceAccount is the deprecated alias of serviceAccountName; the two are kept equal, the newer one winning.
  if (textAt(spec, 'serviceAccountName') === '' && textAt(spec, 'serviceAccount') !== '') spec['serviceAccountName'] = spec['serviceAccount'];
  if (textAt(spec, 'serviceAccountName') !== '') spec['serviceAccount'] = spec['serviceAccountName'];
  whenZero(spec, 'dnsPolicy', 'ClusterFirst');
  whenZero(spec, 'restartPolicy', 'Always');
  whenUnset(spec, 'securityContext', {});
  whenUnset(spec, 'terminationGracePeriodSeconds', 30);
  whenZero(spec, 'schedulerName', 'default-scheduler');
  for (const volume of objectsAt(spec, 'volumes')) volumeDefaults(volume, kind);
  for (const list of CONTAINER_LISTS) for (const container of objectsAt(spec, list)) containerDefaults(container, kind);
  canonicalResourceList(spec, 'overhead', kind);
  canonicalResources(spec, kind);
}

/** Fills in the defaults of a pod template (`{metadata, spec}`) when there is one, in place. */
export function podTemplateDefaults(template: Json | undefined, kind: string): void {
  if (template === undefined) return;
  // The template's metadata is a struct field, always written.
  ensureObject(template, 'metadata');
  podSpecDefaults(ensureObject(template, 'spec'), kind);
}

/** The defaults only a Pod gets, after its spec's: requests from limits, service links on, host ports under host networking. */
export function podDefaults(pod: Json, kind: string): void {
  const spec = ensureObject(pod, 'spec');
  const grace = spec['terminationGracePeriodSeconds'];
  if (typeof grace === 'number' && grace < 0) spec['terminationGracePeriodSeconds'] = 1;
  podSpecDefaults(spec, kind);
  for (const list of ['containers', 'initContainers']) {
    for (const container of objectsAt(spec, list)) {
      const resources = objectAt(container, 'resources');
      const limits = resources === undefined ? undefined : objectAt(resources, 'limits');
      if (resources === undefined || limits === undefined || unset(resources, 'limits')) continue;
      const requests = ensureObject(resources, 'requests');
      for (const [name, value] of Object.entries(limits)) if (!Object.hasOwn(requests, name)) requests[name] = value;
    }
  }
  whenUnset(spec, 'enableServiceLinks', true);
  if (spec['hostNetwork'] === true) {
    for (const list of ['containers', 'initContainers']) {
      for (const container of objectsAt(spec, list)) for (const port of objectsAt(container, 'ports')) whenZero(port, 'hostPort', port['containerPort']);
    }
  }
}
