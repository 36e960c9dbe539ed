/**
 * `katalog rbac <file>`: the ServiceAccount, ClusterRole and ClusterRoleBinding (plus a Role and RoleBinding for
 * the Lease with `--leader-elect`) that the runtime needs to run this definition, as multi-document YAML for
 * `kubectl apply -f -`. What the rules cannot cover (code, templated kinds) is said on stderr.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Document, isScalar, visit } from 'yaml';
import { COMMON_OPTIONS, FILE_OPTIONS, parse, UsageError } from './args.js';
import { EXIT } from './exit-codes.js';
import type { CommandIo } from './io.js';
import { loadOne } from './load.js';
import { rbacRequirements, type PolicyRule } from './rbac-rules.js';
import { displayPath } from './show-problems.js';

const RBAC_API = 'rbac.authorization.k8s.io/v1';
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Where the operator runs and what its RBAC objects are called. */
export interface RbacNames {
  /** Name of the ServiceAccount, ClusterRole and ClusterRoleBinding. */
  readonly name: string;
  readonly namespace: string;
  readonly serviceAccount: string;
  readonly lease: { readonly namespace: string; readonly name: string } | undefined;
}

function rule(r: PolicyRule): Record<string, unknown> {
  return r.resourceNames === undefined
    ? { apiGroups: r.apiGroups, resources: r.resources, verbs: r.verbs }
    : { apiGroups: r.apiGroups, resources: r.resources, resourceNames: r.resourceNames, verbs: r.verbs };
}

/** The RBAC objects, in the order they can be applied. */
export function rbacManifests(names: RbacNames, cluster: readonly PolicyRule[], lease: readonly PolicyRule[]): Record<string, unknown>[] {
  const subject = { kind: 'ServiceAccount', name: names.serviceAccount, namespace: names.namespace };
  const docs: Record<string, unknown>[] = [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: names.serviceAccount, namespace: names.namespace } },
    { apiVersion: RBAC_API, kind: 'ClusterRole', metadata: { name: names.name }, rules: cluster.map(rule) },
    {
      apiVersion: RBAC_API,
      kind: 'ClusterRoleBinding',
      metadata: { name: names.name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: names.name },
      subjects: [subject],
    },
  ];
  if (names.lease !== undefined && lease.length > 0) {
    const roleName = `${names.name}-leader-election`;
    docs.push(
      { apiVersion: RBAC_API, kind: 'Role', metadata: { name: roleName, namespace: names.lease.namespace }, rules: lease.map(rule) },
      {
        apiVersion: RBAC_API,
        kind: 'RoleBinding',
        metadata: { name: roleName, namespace: names.lease.namespace },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: roleName },
        subjects: [subject],
      },
    );
  }
  return docs;
}

/** YAML with lists of plain values on one line (`verbs: [get, list, watch]`), as RBAC rules are usually written. */
function toYaml(object: Record<string, unknown>): string {
  const doc = new Document(object);
  visit(doc, {
    Seq(_key, node) {
      if (node.items.every((item) => isScalar(item))) node.flow = true;
    },
  });
  return doc.toString({ flowCollectionPadding: false });
}

function checkName(option: string, value: string, pattern: RegExp): string {
  if (!pattern.test(value) || value.length > 253) throw new UsageError(`${option}: "${value}" is not a valid Kubernetes name`);
  return value;
}

export async function rbacCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parse({
    args: [...argv],
    options: {
      ...COMMON_OPTIONS,
      ...FILE_OPTIONS,
      name: { type: 'string' },
      namespace: { type: 'string', short: 'n', default: 'katalog-system' },
      'service-account': { type: 'string' },
      'leader-elect': { type: 'boolean' },
      'lease-namespace': { type: 'string' },
      'lease-name': { type: 'string' },
      output: { type: 'string', short: 'o' },
    },
  });
  const { file, definition } = await loadOne(positionals, values.katalog, io);
  const name = checkName('--name', values.name ?? definition.name, DNS_SUBDOMAIN);
  const namespace = checkName('--namespace', values.namespace, DNS_LABEL);
  const leaderElect = values['leader-elect'] === true;
  if (!leaderElect && (values['lease-name'] !== undefined || values['lease-namespace'] !== undefined)) {
    throw new UsageError('--lease-name and --lease-namespace need --leader-elect');
  }
  const lease = leaderElect
    ? { namespace: checkName('--lease-namespace', values['lease-namespace'] ?? namespace, DNS_LABEL), name: checkName('--lease-name', values['lease-name'] ?? name, DNS_SUBDOMAIN) }
    : undefined;
  const names: RbacNames = { name, namespace, serviceAccount: checkName('--service-account', values['service-account'] ?? name, DNS_SUBDOMAIN), lease };
  const needs = rbacRequirements(definition, { lease });
  const header = `# RBAC for the katalog runtime of ${definition.kind} ${definition.name} (${displayPath(file, io.cwd)}), generated by \`katalog rbac\`.\n`;
  const yaml = header + rbacManifests(names, needs.cluster, needs.lease).map(toYaml).join('---\n');
  for (const note of needs.notes) io.err(`note: ${note}\n`);
  if (values.output === undefined) io.out(yaml);
  else {
    await writeFile(resolve(io.cwd, values.output), yaml);
    io.err(`wrote ${values.output}\n`);
  }
  return EXIT.ok;
}
