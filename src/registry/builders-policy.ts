/**
 * Short forms of the policy kinds, as Orkestra defines them (`pkg/types/types_networkpolicy.go`, `types_pdb.go`,
 * `types_limitrange.go`, `types_resourcequota.go`): `networkPolicies`, `podDisruptionBudgets`, `limitRanges`,
 * `resourceQuotas`, and `priorityClasses` (a placeholder in Orkestra; here Kubernetes' own fields).
 *
 * Selectors are written as label maps (`podSelector: { app: web }`) and become `matchLabels`; a map that already
 * holds `matchLabels` or `matchExpressions` is kept as written.
 */
import type { KindBuilder } from './kind-builder.js';
import { OWNER_LABEL } from './ownership.js';
import { compact, deepMerge, defaultClusterName, defaultName, describeKind, isPlainMap, manifestError, metadataOf, scalarText, ShortForm } from './short-form.js';

/** A label selector from a label map, or a Kubernetes LabelSelector as written. `{}` selects everything. */
export function selectorOf(value: unknown, field: string): Record<string, unknown> {
  if (!isPlainMap(value)) throw manifestError(`"${field}" must be a map of labels, got ${describeKind(value)}`);
  if (Object.hasOwn(value, 'matchLabels') || Object.hasOwn(value, 'matchExpressions')) return value;
  if (Object.keys(value).length === 0) return {};
  const labels: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) labels[key] = scalarText(item, `${field}.${key}`);
  return { matchLabels: labels };
}

function withOverride(spec: Record<string, unknown>, form: ShortForm): Record<string, unknown> {
  const override = form.map('spec');
  return override === undefined ? spec : deepMerge(spec, override);
}

/** An integer, or a percentage (`"50%"`): PDB budgets. Integer strings become numbers. */
function intOrPercent(form: ShortForm, field: string): number | string | undefined {
  const value = form.raw(field);
  if (typeof value === 'string' && /^\d+%$/.test(value.trim())) return value.trim();
  const number = form.integer(field);
  if (number !== undefined && number < 0) throw manifestError(`"${field}" must not be negative`);
  return number;
}

function peerOf(peer: unknown, field: string): Record<string, unknown> {
  if (!isPlainMap(peer)) throw manifestError(`"${field}" must be a map, got ${describeKind(peer)}`);
  const out: Record<string, unknown> = { ...peer };
  if (peer['podSelector'] !== undefined) out['podSelector'] = selectorOf(peer['podSelector'], `${field}.podSelector`);
  if (peer['namespaceSelector'] !== undefined) out['namespaceSelector'] = selectorOf(peer['namespaceSelector'], `${field}.namespaceSelector`);
  return out;
}

function portOf(port: unknown, field: string): Record<string, unknown> {
  if (!isPlainMap(port)) throw manifestError(`"${field}" must be a map, got ${describeKind(port)}`);
  const value = port['port'];
  const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
  return compact({ ...port, protocol: port['protocol'] ?? 'TCP', port: number === '' ? undefined : number });
}

/** Ingress (`from`) or egress (`to`) rules: peers' label maps become selectors, numeric ports numbers. */
function rulesOf(form: ShortForm, field: 'ingress' | 'egress'): Record<string, unknown>[] | undefined {
  const peersKey = field === 'ingress' ? 'from' : 'to';
  return form.list(field)?.map((rule, index) => {
    const at = `${field}[${index}]`;
    if (!isPlainMap(rule)) throw manifestError(`"${at}" must be a map, got ${describeKind(rule)}`);
    const peers = rule[peersKey];
    const ports = rule['ports'];
    if (peers !== undefined && !Array.isArray(peers)) throw manifestError(`"${at}.${peersKey}" must be a list`);
    if (ports !== undefined && !Array.isArray(ports)) throw manifestError(`"${at}.ports" must be a list`);
    return compact({
      ...rule,
      [peersKey]: peers?.map((peer: unknown, i: number) => peerOf(peer, `${at}.${peersKey}[${i}]`)),
      ports: ports?.map((port: unknown, i: number) => portOf(port, `${at}.ports[${i}]`)),
    });
  });
}

export const networkPoliciesBuilder: KindBuilder = {
  produces: { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy' },
  fields: ['podSelector', 'ingress', 'egress', 'policyTypes', 'spec'],
  build(body, context) {
    const form = new ShortForm(body);
    const ingress = rulesOf(form, 'ingress');
    const egress = rulesOf(form, 'egress');
    // Orkestra derives policyTypes from the rules declared (an empty ingress list still counts: deny all).
    const derived = [...(ingress !== undefined ? ['Ingress'] : []), ...(egress !== undefined ? ['Egress'] : [])];
    const spec = compact({
      podSelector: form.raw('podSelector') === undefined ? {} : selectorOf(form.raw('podSelector'), 'podSelector'),
      ingress,
      egress,
      policyTypes: form.stringList('policyTypes') ?? (derived.length > 0 ? derived : undefined),
    });
    return { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: metadataOf(form, defaultName(context, 'netpol')), spec: withOverride(spec, form) };
  },
};

export const podDisruptionBudgetsBuilder: KindBuilder = {
  produces: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget' },
  fields: ['selector', 'minAvailable', 'maxUnavailable', 'behavior', 'unhealthyPodEvictionPolicy', 'spec'],
  build(body, context) {
    const form = new ShortForm(body);
    // Orkestra's `behavior` holds the two budget fields; its preset (`profile`) is expanded at load in Orkestra documents.
    const behavior = form.map('behavior');
    if (behavior !== undefined && Object.hasOwn(behavior, 'profile')) throw manifestError('"behavior.profile" (an Orkestra preset) is expanded only in documents with an Orkestra apiVersion; write minAvailable or maxUnavailable');
    const budgets = new ShortForm({ ...behavior, ...body });
    const minAvailable = intOrPercent(budgets, 'minAvailable');
    const maxUnavailable = intOrPercent(budgets, 'maxUnavailable');
    if (minAvailable !== undefined && maxUnavailable !== undefined) throw manifestError('"minAvailable" and "maxUnavailable" exclude each other');
    const selector = form.raw('selector');
    const spec = compact({
      // Default: the pods of this custom resource's workloads (the label every workload's pods carry).
      selector: selector === undefined ? { matchLabels: { [OWNER_LABEL]: context.ownerLabel } } : selectorOf(selector, 'selector'),
      minAvailable,
      maxUnavailable,
      unhealthyPodEvictionPolicy: form.string('unhealthyPodEvictionPolicy'),
    });
    return { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: metadataOf(form, defaultName(context, 'pdb')), spec: withOverride(spec, form) };
  },
};

const LIMIT_TYPES = new Set(['Container', 'Pod', 'PersistentVolumeClaim']);

export const limitRangesBuilder: KindBuilder = {
  produces: { apiVersion: 'v1', kind: 'LimitRange' },
  fields: ['limits', 'spec'],
  build(body, context) {
    const form = new ShortForm(body);
    const limits = form.list('limits');
    if ((limits === undefined || limits.length === 0) && form.map('spec') === undefined) throw manifestError('limitRanges need "limits" (a list of items with a "type")');
    const items = (limits ?? []).map((item, index) => {
      if (!isPlainMap(item)) throw manifestError(`"limits[${index}]" must be a map, got ${describeKind(item)}`);
      const type = item['type'];
      if (typeof type !== 'string' || !LIMIT_TYPES.has(type)) throw manifestError(`"limits[${index}].type" must be Container, Pod or PersistentVolumeClaim`);
      const out: Record<string, unknown> = { type };
      for (const key of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio']) {
        const value = item[key];
        if (value === undefined || value === null) continue;
        out[key] = new ShortForm({ [key]: value }).stringMap(key);
      }
      return out;
    });
    return { apiVersion: 'v1', kind: 'LimitRange', metadata: metadataOf(form, defaultName(context, 'limits')), spec: withOverride({ limits: items }, form) };
  },
};

export const resourceQuotasBuilder: KindBuilder = {
  produces: { apiVersion: 'v1', kind: 'ResourceQuota' },
  fields: ['hard', 'scopes', 'scopeSelector', 'spec'],
  build(body, context) {
    const form = new ShortForm(body);
    const hard = form.stringMap('hard');
    if (hard === undefined && form.map('spec') === undefined) throw manifestError('resourceQuotas need "hard" (resource name → quantity)');
    const spec = compact({ hard, scopes: form.stringList('scopes'), scopeSelector: form.map('scopeSelector') });
    return { apiVersion: 'v1', kind: 'ResourceQuota', metadata: metadataOf(form, defaultName(context, 'quota')), spec: withOverride(spec, form) };
  },
};

export const priorityClassesBuilder: KindBuilder = {
  produces: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass' },
  fields: ['value', 'globalDefault', 'preemptionPolicy', 'description'],
  build(body, context) {
    const form = new ShortForm(body);
    const value = form.integer('value');
    if (value === undefined) throw manifestError('priorityClasses need "value" (an integer)');
    const metadata = metadataOf(form, defaultClusterName(context, 'priority'));
    delete metadata.namespace; // cluster-scoped
    return compact({
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata,
      value,
      globalDefault: form.boolean('globalDefault'),
      preemptionPolicy: form.string('preemptionPolicy'),
      description: form.string('description'),
    });
  },
};
