/**
 * kube-apiserver's PodSecurity admission (k8s.io/pod-security-admission admission.go, enabled by default), driven by
 * a namespace's labels `pod-security.kubernetes.io/<mode>` (`enforce`, `warn`, `audit`: `privileged`, `baseline` or
 * `restricted`) and `<mode>-version` (`latest` or `v1.x`); without them every mode is `privileged:latest`, and a
 * `warn` level defaults to the `enforce` one when stricter. It runs with the validating admission, before the
 * ValidatingAdmissionPolicies, on CREATE and UPDATE:
 * - a Namespace: its labels must parse (422 `metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value:
 *   "x": must be one of privileged, baseline, restricted`); an update that tightens `enforce` warns of the existing
 *   pods that would violate it;
 * - a Pod (not its status, binding, eviction... subresources; an update only when an image or the number of
 *   containers changed): refused with a 403 when it violates `enforce` (`pods "p" is forbidden: violates PodSecurity
 *   "restricted:latest": ...`), else warned about when it violates `warn`;
 * - a workload with a pod template (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob,
 *   ReplicationController, PodTemplate): warned about only (`would violate PodSecurity ...`), never refused.
 * `audit` has nowhere to go (no audit log). The checks are the `latest` ones whatever the version label says
 * (pod-security/evaluate.ts): the version is only named in the messages. The Pods the simulated workload
 * controllers create are judged too (they are admitted: controllers/controller-writes.ts), as kube-controller-manager's
 * are by kube-apiserver.
 */
import type { Cluster } from '../cluster.js';
import { objectAt, objectsAt, textAt, type Json } from '../kinds/builtin/fields.js';
import { NAMESPACES_KEY, PODS_KEY } from '../resources/builtin-resources.js';
import { fieldInvalid, forbidden, invalid, StatusError, type FieldProblem } from '../status-errors.js';
import type { KubeObject } from '../store/record.js';
import type { AdmissionWrite } from './admit.js';
import { requestIdentity } from './review-object.js';
import { podSecurityReasons, podSecurityViolations, violationMessage, type PodSecurityLevel } from './pod-security/evaluate.js';

const PREFIX = 'pod-security.kubernetes.io/';
const LEVELS: readonly PodSecurityLevel[] = ['privileged', 'baseline', 'restricted'];
const VERSION = /^v1\.([0-9]|[1-9][0-9]*)$/;
/** A Pod's subresources whose writes are not judged. */
const IGNORED_POD_SUBRESOURCES = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);
/** The workloads whose pod template is judged (warn only), by resource key, with the path to the template. */
const TEMPLATES: ReadonlyMap<string, readonly string[]> = new Map([
  ['/replicationcontrollers', ['spec', 'template']],
  ['/podtemplates', ['template']],
  ['apps/replicasets', ['spec', 'template']],
  ['apps/deployments', ['spec', 'template']],
  ['apps/statefulsets', ['spec', 'template']],
  ['apps/daemonsets', ['spec', 'template']],
  ['batch/jobs', ['spec', 'template']],
  ['batch/cronjobs', ['spec', 'jobTemplate', 'spec', 'template']],
]);

interface LevelVersion {
  readonly level: PodSecurityLevel;
  readonly version: string;
}

interface Policy {
  readonly enforce: LevelVersion;
  readonly warn: LevelVersion;
}

function labelsOf(object: KubeObject | undefined): Record<string, string> {
  const labels = object === undefined ? undefined : objectAt(objectAt(object, 'metadata') ?? {}, 'labels');
  return (labels ?? {}) as Record<string, string>;
}

function hasPodSecurityLabels(labels: Readonly<Record<string, string>>): boolean {
  return Object.keys(labels).some((key) => key.startsWith(PREFIX));
}

/**
 * api.PolicyToEvaluate: the policy of a namespace's labels and the problems of the ones that do not parse (a level
 * that does not parse enforces `restricted`, and warns `privileged`).
 */
function policyOf(labels: Readonly<Record<string, string>>): { readonly policy: Policy; readonly problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const label = (mode: string): string | undefined => labels[`${PREFIX}${mode}`];
  const level = (mode: string, onError: PodSecurityLevel): PodSecurityLevel | undefined => {
    const value = label(mode);
    if (value === undefined) return undefined;
    if ((LEVELS as readonly string[]).includes(value)) return value as PodSecurityLevel;
    problems.push(fieldInvalid(`metadata.labels[${PREFIX}${mode}]`, value, `must be one of ${LEVELS.join(', ')}`));
    return onError;
  };
  const version = (mode: string): string | undefined => {
    const value = label(`${mode}-version`);
    if (value === undefined) return undefined;
    if (value === 'latest' || VERSION.test(value)) return value === 'latest' ? value : `v1.${Number(VERSION.exec(value)?.[1])}`;
    problems.push(fieldInvalid(`metadata.labels[${PREFIX}${mode}-version]`, value, 'must be "latest" or "v1.x"'));
    return 'latest';
  };
  const enforceLevel = level('enforce', 'restricted');
  const enforce = { level: enforceLevel ?? 'privileged', version: version('enforce') ?? 'latest' };
  level('audit', 'privileged');
  version('audit');
  const warnLevel = level('warn', 'privileged');
  const warnVersion = version('warn');
  let warn: LevelVersion = { level: warnLevel ?? 'privileged', version: warnVersion ?? 'latest' };
  // Without its own level, warn takes enforce's when that is stricter (and its version, without its own).
  const enforceParsed = enforceLevel !== undefined && !problems.some((problem) => problem.field.endsWith(`${PREFIX}enforce]`));
  if (warnLevel === undefined && enforceParsed && LEVELS.indexOf(enforce.level) > LEVELS.indexOf(warn.level)) {
    warn = { level: enforce.level, version: warnVersion ?? enforce.version };
  }
  return { policy: { enforce, warn }, problems };
}

/** The namespace's policy (a Namespace request: none; its labels are the object's). */
function namespacePolicy(cluster: Cluster, namespace: string): Policy | undefined {
  const labels = labelsOf(cluster.store.get(NAMESPACES_KEY, '', namespace)?.object);
  return hasPodSecurityLabels(labels) ? policyOf(labels).policy : undefined;
}

/** Whether PodSecurity may judge a write of `view` in `namespace` (the admission fast path's question). */
export function podSecurityMayApply(cluster: Cluster, key: string, namespace: string): boolean {
  if (key === NAMESPACES_KEY) return true;
  if (key !== PODS_KEY && !TEMPLATES.has(key)) return false;
  return namespacePolicy(cluster, namespace) !== undefined;
}

/** A pod's metadata and spec. */
function podParts(object: Json): { readonly metadata: Json; readonly spec: Json } {
  return { metadata: objectAt(object, 'metadata') ?? {}, spec: objectAt(object, 'spec') ?? {} };
}

function violations(level: LevelVersion, pod: { readonly metadata: Json; readonly spec: Json }): string[] {
  return level.level === 'privileged' ? [] : podSecurityViolations(level.level, pod.metadata, pod.spec);
}

function text({ level, version }: LevelVersion): string {
  return `${level}:${version}`;
}

/** isSignificantPodUpdate: an image changed, or a container was added or removed (an ephemeral one added). */
function significantPodUpdate(pod: Json, old: Json): boolean {
  const { spec } = podParts(pod);
  const oldSpec = podParts(old).spec;
  for (const key of ['containers', 'initContainers']) {
    const now = objectsAt(spec, key);
    const before = objectsAt(oldSpec, key);
    if (now.length !== before.length || now.some((container, i) => container['image'] !== before[i]?.['image'])) return true;
  }
  const before = objectsAt(oldSpec, 'ephemeralContainers');
  return objectsAt(spec, 'ephemeralContainers').some((container) => {
    const match = before.find((candidate) => candidate['name'] === container['name']);
    return match === undefined || match['image'] !== container['image'];
  });
}

/**
 * PodSecurity's verdict on `request`, whose checked object (defaulted, as it would be stored) is `object`: throws
 * its refusal; adds its warnings to `warnings`.
 */
export function admitPodSecurity(cluster: Cluster, request: AdmissionWrite, object: KubeObject | undefined, warnings: string[]): void {
  if (object === undefined || request.operation === 'DELETE') return;
  const key = request.view.type.key;
  if (key === NAMESPACES_KEY) {
    if (request.subresource === undefined) namespaceVerdict(cluster, request, object, warnings);
    return;
  }
  const policy = namespacePolicy(cluster, request.namespace);
  if (policy === undefined) return;
  if (key === PODS_KEY) {
    if (IGNORED_POD_SUBRESOURCES.has(request.subresource ?? '')) return;
    if (request.operation === 'UPDATE' && request.oldObject !== undefined && !significantPodUpdate(object, request.oldObject)) return;
    const pod = podParts(object);
    const enforced = violations(policy.enforce, pod);
    if (enforced.length > 0) throw forbidden({ group: '', plural: 'pods' }, requestIdentity(request, object).name, violationMessage(policy.enforce.level, policy.enforce.version, enforced));
    warn(policy.warn, pod, warnings);
    return;
  }
  const path = TEMPLATES.get(key);
  if (path === undefined || request.subresource !== undefined) return;
  let template: Json | undefined = object;
  for (const step of path) template = template === undefined ? undefined : objectAt(template, step);
  if (template !== undefined) warn(policy.warn, podParts(template), warnings);
}

function warn(level: LevelVersion, pod: { readonly metadata: Json; readonly spec: Json }, warnings: string[]): void {
  const found = violations(level, pod);
  if (found.length > 0) warnings.push(violationMessage(level.level, level.version, found, 'warn'));
}

/**
 * ValidateNamespace: labels that do not parse refuse a create, and an update unless the stored namespace had the
 * same problems; an update that tightens `enforce` warns of the existing pods that would violate it, one warning per
 * distinct violation, naming the first pod by name and how many others.
 */
function namespaceVerdict(cluster: Cluster, request: AdmissionWrite, object: KubeObject, warnings: string[]): void {
  const { policy, problems } = policyOf(labelsOf(object));
  const name = requestIdentity(request, object).name;
  const refused = (): StatusError => invalid({ group: '', kind: 'Namespace' }, name, problems);
  if (request.operation === 'CREATE') {
    if (problems.length > 0) throw refused();
    return;
  }
  const old = policyOf(labelsOf(request.oldObject));
  if (problems.length > 0 && (old.problems.length === 0 || JSON.stringify(old.problems) !== JSON.stringify(problems))) throw refused();
  const [now, before] = [policy.enforce, old.policy.enforce];
  if (now.level === before.level && now.version === before.version) return;
  if (now.level === 'privileged') return;
  if (now.version === before.version && LEVELS.indexOf(now.level) <= LEVELS.indexOf(before.level)) return;
  warnings.push(...existingPodWarnings(cluster, name, now));
}

/** EvaluatePodsInNamespace: what the namespace's pods would violate under `enforce` (one pod per controller). */
function existingPodWarnings(cluster: Cluster, namespace: string, enforce: LevelVersion): string[] {
  const seenControllers = new Set<string>();
  const byReason = new Map<string, { first: string; count: number }>();
  const order: string[] = [];
  for (const record of cluster.store.list(PODS_KEY, namespace)) {
    const controller = objectsAt(objectAt(record.object, 'metadata') ?? {}, 'ownerReferences').find((owner) => owner['controller'] === true);
    if (controller !== undefined) {
      const uid = textAt(controller, 'uid');
      if (seenControllers.has(uid)) continue;
      seenControllers.add(uid);
    }
    const pod = podParts(record.object);
    const found = enforce.level === 'privileged' ? [] : podSecurityReasons(enforce.level, pod.metadata, pod.spec);
    if (found.length === 0) continue;
    const reason = found.join(', ');
    const entry = byReason.get(reason);
    if (entry === undefined) {
      byReason.set(reason, { first: record.name, count: 1 });
      order.push(reason);
    } else {
      entry.count++;
      if (record.name < entry.first) entry.first = record.name;
    }
  }
  if (order.length === 0) return [];
  const decorated = order.map((reason) => {
    const { first, count } = byReason.get(reason) ?? { first: '', count: 1 };
    const others = count === 1 ? '' : count === 2 ? ' (and 1 other pod)' : ` (and ${count - 1} other pods)`;
    return `${first}${others}: ${reason}`;
  });
  return [`existing pods in namespace "${namespace}" violate the new PodSecurity enforce level "${text(enforce)}"`, ...decorated.sort()];
}
