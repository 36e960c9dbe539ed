/**
 * The defaults kube-apiserver 1.37 decodes the other built-in kinds with: a Secret's type, a claim's and a volume's
 * mode, phase and quantities, a quota's and a limit range's quantities (a container limit's defaults too), a NetworkPolicy's policy types and port protocols, a Namespace's name label, a role binding's API
 * groups, an HPA's minimum, metric and scaling rules, a StorageClass's and PriorityClass's policies, an
 * EndpointSlice's ports, an admission webhook's policies, selectors, timeout, rule scope and service port, and an
 * admission policy's (validating or mutating) failure policy and the match resources of a policy or binding.
 */
import { ensureObject, objectAt, objectsAt, textAt, unset, whenUnset, whenZero, type Json } from './fields.js';
import { canonicalQuantityAt, canonicalResourceList, canonicalResources } from './quantity-fields.js';

/** A Secret's type, and its `stringData` written into `data` in base64 (the v1 conversion; stringData is never stored). */
export function secretDefaults(object: Json): void {
  whenZero(object, 'type', 'Opaque');
  const stringData = objectAt(object, 'stringData');
  delete object['stringData'];
  if (stringData === undefined || Object.keys(stringData).length === 0) return;
  const data = ensureObject(object, 'data');
  for (const [key, value] of Object.entries(stringData)) data[key] = Buffer.from(String(value), 'utf8').toString('base64');
  delete object['stringData'];
}

export function persistentVolumeClaimDefaults(object: Json, kind: string): void {
  const spec = ensureObject(object, 'spec');
  whenUnset(spec, 'volumeMode', 'Filesystem');
  canonicalResources(spec, kind);
  const status = ensureObject(object, 'status');
  whenZero(status, 'phase', 'Pending');
  canonicalResourceList(status, 'capacity', kind);
}

export function persistentVolumeDefaults(object: Json, kind: string): void {
  const spec = ensureObject(object, 'spec');
  whenZero(spec, 'persistentVolumeReclaimPolicy', 'Retain');
  whenUnset(spec, 'volumeMode', 'Filesystem');
  canonicalResourceList(spec, 'capacity', kind);
  whenZero(ensureObject(object, 'status'), 'phase', 'Pending');
}

export function resourceQuotaDefaults(object: Json, kind: string): void {
  canonicalResourceList(objectAt(object, 'spec'), 'hard', kind);
  for (const list of ['hard', 'used']) canonicalResourceList(objectAt(object, 'status'), list, kind);
}

/** A container limit's default from its max and its default request from its default or min (Go's SetDefaults_LimitRangeItem). */
export function limitRangeDefaults(object: Json, kind: string): void {
  for (const item of objectsAt(objectAt(object, 'spec') ?? {}, 'limits')) {
    if (item['type'] === 'Container') {
      const fill = (target: string, from: string): void => {
        const into = ensureObject(item, target);
        for (const [name, value] of Object.entries(objectAt(item, from) ?? {})) if (!Object.hasOwn(into, name)) into[name] = value;
      };
      fill('default', 'max');
      fill('defaultRequest', 'default');
      fill('defaultRequest', 'min');
      for (const list of ['default', 'defaultRequest']) if (Object.keys(objectAt(item, list) ?? {}).length === 0) delete item[list];
    }
    for (const list of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio']) canonicalResourceList(item, list, kind);
  }
}

export function networkPolicyDefaults(object: Json): void {
  const spec = ensureObject(object, 'spec');
  if (unset(spec, 'policyTypes')) spec['policyTypes'] = unset(spec, 'egress') ? ['Ingress'] : ['Ingress', 'Egress'];
  for (const direction of ['ingress', 'egress']) {
    for (const rule of objectsAt(spec, direction)) for (const port of objectsAt(rule, 'ports')) whenUnset(port, 'protocol', 'TCP');
  }
}

/** Every named Namespace carries its name in the `kubernetes.io/metadata.name` label. */
export function namespaceDefaults(object: Json): void {
  const metadata = ensureObject(object, 'metadata');
  const name = textAt(metadata, 'name');
  if (name === '') return;
  ensureObject(metadata, 'labels')['kubernetes.io/metadata.name'] = name;
}

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** A RoleBinding's or ClusterRoleBinding's role reference group, and its subjects' groups by kind. */
export function roleBindingDefaults(object: Json): void {
  whenZero(ensureObject(object, 'roleRef'), 'apiGroup', RBAC_GROUP);
  for (const subject of objectsAt(object, 'subjects')) {
    if (textAt(subject, 'apiGroup') !== '') continue;
    if (subject['kind'] === 'User' || subject['kind'] === 'Group') subject['apiGroup'] = RBAC_GROUP;
  }
}

/** The HPA's scale-up rules when behavior is given: 4 pods or 100 % per 15 s, the larger, no stabilization. */
function scaleUpRules(): Json {
  return { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] };
}

/** The HPA's scale-down rules: 100 % per 15 s; the stabilization window is left to the controller's flag. */
function scaleDownRules(): Json {
  return { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };
}

function scalingRules(given: Json | undefined, defaults: Json): Json {
  if (given === undefined) return defaults;
  const out = { ...defaults };
  for (const key of ['selectPolicy', 'stabilizationWindowSeconds', 'policies', 'tolerance']) if (given[key] !== undefined && given[key] !== null) out[key] = given[key];
  return out;
}

export function horizontalPodAutoscalerDefaults(object: Json, kind: string): void {
  const spec = ensureObject(object, 'spec');
  for (const metric of objectsAt(spec, 'metrics')) {
    for (const source of ['resource', 'containerResource', 'pods', 'object', 'external']) {
      const target = objectAt(objectAt(metric, source) ?? {}, 'target');
      for (const key of ['value', 'averageValue']) canonicalQuantityAt(target, key, kind);
    }
  }
  whenUnset(spec, 'minReplicas', 1);
  if (unset(spec, 'metrics')) spec['metrics'] = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  const behavior = objectAt(spec, 'behavior');
  if (behavior === undefined) return;
  behavior['scaleUp'] = scalingRules(objectAt(behavior, 'scaleUp'), scaleUpRules());
  behavior['scaleDown'] = scalingRules(objectAt(behavior, 'scaleDown'), scaleDownRules());
}

export function storageClassDefaults(object: Json): void {
  whenUnset(object, 'reclaimPolicy', 'Delete');
  whenUnset(object, 'volumeBindingMode', 'Immediate');
}

export function priorityClassDefaults(object: Json): void {
  whenUnset(object, 'preemptionPolicy', 'PreemptLowerPriority');
}

export function endpointSliceDefaults(object: Json): void {
  for (const port of objectsAt(object, 'ports')) {
    whenUnset(port, 'name', '');
    whenUnset(port, 'protocol', 'TCP');
  }
}

/** Each webhook of a Validating- or MutatingWebhookConfiguration: failure and match policy, selectors, timeout, rule scope, service port. */
export function webhookConfigurationDefaults(object: Json, mutating: boolean): void {
  for (const webhook of objectsAt(object, 'webhooks')) {
    whenUnset(webhook, 'failurePolicy', 'Fail');
    whenUnset(webhook, 'matchPolicy', 'Equivalent');
    whenUnset(webhook, 'namespaceSelector', {});
    whenUnset(webhook, 'objectSelector', {});
    whenUnset(webhook, 'timeoutSeconds', 10);
    if (mutating) whenUnset(webhook, 'reinvocationPolicy', 'Never');
    for (const rule of objectsAt(webhook, 'rules')) whenUnset(rule, 'scope', '*');
    const service = objectAt(objectAt(webhook, 'clientConfig') ?? {}, 'service');
    if (service !== undefined) whenUnset(service, 'port', 443);
  }
}

/** A policy's matchConstraints or a binding's matchResources (Go's SetDefaults_MatchResources, then each rule's scope). */
function matchResourcesDefaults(match: Json | undefined): void {
  if (match === undefined) return;
  whenUnset(match, 'matchPolicy', 'Equivalent');
  whenUnset(match, 'namespaceSelector', {});
  whenUnset(match, 'objectSelector', {});
  for (const list of ['resourceRules', 'excludeResourceRules']) for (const rule of objectsAt(match, list)) whenUnset(rule, 'scope', '*');
}

/** A Validating- or MutatingAdmissionPolicy: its failure policy, and its matchConstraints when it has them. */
export function admissionPolicyDefaults(object: Json): void {
  const spec = ensureObject(object, 'spec');
  whenUnset(spec, 'failurePolicy', 'Fail');
  matchResourcesDefaults(objectAt(spec, 'matchConstraints'));
}

/** A Validating- or MutatingAdmissionPolicyBinding: its matchResources when it has them (a paramRef's parameterNotFoundAction has no default). */
export function policyBindingDefaults(object: Json): void {
  matchResourcesDefaults(objectAt(objectAt(object, 'spec') ?? {}, 'matchResources'));
}
