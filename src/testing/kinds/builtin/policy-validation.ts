/**
 * kube-apiserver's validation of the kinds that shape how workloads run, as operators write them: an HPA's replica
 * bounds, target and metric targets; a PodDisruptionBudget's minAvailable and maxUnavailable; a NetworkPolicy's policy
 * types, ports and IP blocks; a ResourceQuota's and a LimitRange's values and types. Messages and order as there.
 */
import { fieldInvalid, fieldNotSupported, fieldRequired, type FieldProblem } from '../../status-errors.js';
import { quantityValueProblems } from './container-validation.js';
import { atMost100Percent, intOrPercentProblems, portNumOrNameProblems, qualifiedNameProblems } from './field-rules.js';
import { objectAt, objectsAt, textAt, type Json } from './fields.js';

const MIN_REPLICAS = 'must be greater than or equal to `minReplicas`';
const TARGET_TYPES = 'must be either Utilization, Value, or AverageValue';

function metricTargetProblems(target: Json | undefined, path: string, utilization: boolean): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const type = target === undefined ? '' : textAt(target, 'type');
  if (type === '') problems.push(fieldRequired(`${path}.type`, 'must specify a metric target type'));
  if (!['Utilization', 'Value', 'AverageValue'].includes(type)) problems.push(fieldInvalid(`${path}.type`, type, TARGET_TYPES));
  const set = (key: string): boolean => target !== undefined && target[key] !== undefined && target[key] !== null;
  if (utilization && !set('value') && !set('averageValue') && !set('averageUtilization')) {
    problems.push(fieldRequired(`${path}.averageUtilization`, 'must set either a target raw value or a target utilization'));
  }
  return problems;
}

export function horizontalPodAutoscalerProblems(object: Json): FieldProblem[] {
  const spec = objectAt(object, 'spec') ?? {};
  const problems: FieldProblem[] = [];
  const ref = objectAt(spec, 'scaleTargetRef') ?? {};
  if (textAt(ref, 'kind') === '') problems.push(fieldRequired('spec.scaleTargetRef.kind'));
  if (textAt(ref, 'name') === '') problems.push(fieldRequired('spec.scaleTargetRef.name'));
  const min = typeof spec['minReplicas'] === 'number' ? spec['minReplicas'] : 1;
  const max = typeof spec['maxReplicas'] === 'number' ? spec['maxReplicas'] : 0;
  if (max < min) problems.push(fieldInvalid('spec.maxReplicas', max, MIN_REPLICAS));
  if (max <= 0) problems.push(fieldRequired('spec.maxReplicas'));
  objectsAt(spec, 'metrics').forEach((metric, i) => {
    for (const source of ['resource', 'containerResource']) {
      const holder = objectAt(metric, source);
      if (holder !== undefined) problems.push(...metricTargetProblems(objectAt(holder, 'target'), `spec.metrics[${i}].${source}.target`, true));
    }
  });
  return problems;
}

/** An int-or-percent of a PodDisruptionBudget: a count not below zero, or a percent of at most 100. */
function budgetProblems(value: unknown, field: string): FieldProblem[] {
  return [...intOrPercentProblems(value, field), ...atMost100Percent(value, field)];
}

export function podDisruptionBudgetProblems(object: Json): FieldProblem[] {
  const spec = objectAt(object, 'spec') ?? {};
  const has = (key: string): boolean => spec[key] !== undefined && spec[key] !== null;
  if (has('minAvailable') && has('maxUnavailable')) {
    // The spec printed as kube-apiserver's internal Go struct (its field names), the selector as the API's JSON.
    const internal = { MinAvailable: spec['minAvailable'], Selector: spec['selector'] ?? null, MaxUnavailable: spec['maxUnavailable'], UnhealthyPodEvictionPolicy: spec['unhealthyPodEvictionPolicy'] ?? null };
    return [{ field: 'spec', reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(internal)}: minAvailable and maxUnavailable cannot be both set` }];
  }
  return [...budgetProblems(spec['minAvailable'], 'spec.minAvailable'), ...budgetProblems(spec['maxUnavailable'], 'spec.maxUnavailable')];
}

const CIDR = /^(?:(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\/(3[0-2]|[12]?\d)$|^[0-9a-fA-F:]+\/(12[0-8]|1[01]\d|[1-9]?\d)$/;

function peerProblems(peers: Json[], path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  peers.forEach((peer, i) => {
    const block = objectAt(peer, 'ipBlock');
    if (block === undefined) return;
    const cidr = textAt(block, 'cidr');
    if (cidr === '') problems.push(fieldRequired(`${path}[${i}].ipBlock.cidr`));
    else if (!CIDR.test(cidr)) problems.push(fieldInvalid(`${path}[${i}].ipBlock.cidr`, cidr, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'));
  });
  return problems;
}

function policyPortProblems(ports: Json[], path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  ports.forEach((port, i) => {
    const at = `${path}[${i}]`;
    const protocol = textAt(port, 'protocol');
    if (protocol !== '' && !['TCP', 'UDP', 'SCTP'].includes(protocol)) problems.push(fieldNotSupported(`${at}.protocol`, protocol, ['TCP', 'UDP', 'SCTP']));
    if (port['port'] !== undefined && port['port'] !== null) problems.push(...portNumOrNameProblems(port['port'], `${at}.port`));
  });
  return problems;
}

export function networkPolicyProblems(object: Json): FieldProblem[] {
  const spec = objectAt(object, 'spec') ?? {};
  const problems: FieldProblem[] = [];
  for (const [direction, peers] of [['ingress', 'from'], ['egress', 'to']] as const) {
    objectsAt(spec, direction).forEach((rule, i) => {
      problems.push(...policyPortProblems(objectsAt(rule, 'ports'), `spec.${direction}[${i}].ports`), ...peerProblems(objectsAt(rule, peers), `spec.${direction}[${i}].${peers}`));
    });
  }
  const types = Array.isArray(spec['policyTypes']) ? spec['policyTypes'].map(String) : [];
  types.forEach((type, i) => {
    if (type !== 'Ingress' && type !== 'Egress') problems.push(fieldNotSupported(`spec.policyTypes[${i}]`, type, ['Ingress', 'Egress']));
  });
  return problems;
}

export function resourceQuotaProblems(object: Json): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const [name, value] of Object.entries(objectAt(objectAt(object, 'spec') ?? {}, 'hard') ?? {})) problems.push(...quantityValueProblems(name, value, `spec.hard[${name}]`));
  return problems;
}

export function limitRangeProblems(object: Json): FieldProblem[] {
  const problems: FieldProblem[] = [];
  objectsAt(objectAt(object, 'spec') ?? {}, 'limits').forEach((item, i) => {
    const type = textAt(item, 'type');
    if (!['Pod', 'Container', 'PersistentVolumeClaim'].includes(type) && (!type.includes('/') || qualifiedNameProblems(type).length > 0)) {
      problems.push(fieldInvalid(`spec.limits[${i}].type`, type, 'must be a standard limit type or fully qualified'));
    }
  });
  return problems;
}
