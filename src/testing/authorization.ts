/**
 * Optional RBAC authorization for the test API server: every resource request is evaluated as one configured user
 * against the Roles, ClusterRoles, RoleBindings and ClusterRoleBindings stored in the server, the way the RBAC
 * authorizer of kube-apiserver does (rules only add; no match means 403 Forbidden).
 *
 * Deliberately small, for testing an operator's least-privilege RBAC, not a complete authorizer:
 * - the identity is fixed by the server option, not read from requests (the direct methods bypass it entirely);
 * - non-resource requests (discovery, `/version`, health) are always allowed, as `system:discovery` allows them to
 *   every authenticated user;
 * - rules match apiGroups, resources (`plural` or `plural/subresource`, and `*`), verbs and resourceNames;
 *   `nonResourceURLs` and `aggregationRule` are ignored;
 * - escalation checks on writes of RBAC objects (`bind`, `escalate`) are not made.
 */
import type { KubeObject } from './store/record.js';
import { forbidden } from './status-errors.js';

/** The `authorization` option of the test API server. */
export interface AuthorizationOptions {
  /**
   * The user every HTTP request is made as, e.g. `system:serviceaccount:katalog-system:katalog` (which matches
   * RBAC subjects of kind ServiceAccount, namespace `katalog-system`, name `katalog`).
   */
  readonly user: string;
  /** Groups of the user, matched by subjects of kind Group. */
  readonly groups?: readonly string[];
}

/** What is being asked: the attributes of a resource request, as RBAC sees them. */
export interface ResourceAttributes {
  readonly verb: string;
  readonly group: string;
  /** The plural, e.g. `deployments`. */
  readonly resource: string;
  /** `status`, or '' for the main resource. */
  readonly subresource: string;
  /** '' for cluster-scoped requests and requests across all namespaces. */
  readonly namespace: string;
  /** '' for list, watch, create and deletecollection. */
  readonly name: string;
}

interface PolicyRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
  readonly resourceNames: readonly string[];
}

/** Reads stored objects of an RBAC kind: `list(plural, namespace?)` and `get(plural, namespace, name)`. */
export interface RbacObjects {
  list(plural: string, namespace?: string): readonly KubeObject[];
  get(plural: string, namespace: string, name: string): KubeObject | undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function field(object: unknown, key: string): unknown {
  return typeof object === 'object' && object !== null ? (object as Record<string, unknown>)[key] : undefined;
}

function rulesOf(role: KubeObject | undefined): PolicyRule[] {
  const rules = field(role, 'rules');
  if (!Array.isArray(rules)) return [];
  return rules.map((rule) => ({
    apiGroups: strings(field(rule, 'apiGroups')),
    resources: strings(field(rule, 'resources')),
    verbs: strings(field(rule, 'verbs')),
    resourceNames: strings(field(rule, 'resourceNames')),
  }));
}

function ruleAllows(rule: PolicyRule, request: ResourceAttributes): boolean {
  if (!rule.verbs.includes('*') && !rule.verbs.includes(request.verb)) return false;
  if (!rule.apiGroups.includes('*') && !rule.apiGroups.includes(request.group)) return false;
  const resource = request.subresource === '' ? request.resource : `${request.resource}/${request.subresource}`;
  if (!rule.resources.includes('*') && !rule.resources.includes(resource)) return false;
  if (rule.resourceNames.length === 0) return true;
  return request.name !== '' && rule.resourceNames.includes(request.name);
}

/** Evaluates requests as the configured user against the RBAC objects in the store. */
export class RbacAuthorizer {
  private readonly groups: ReadonlySet<string>;

  constructor(
    private readonly options: AuthorizationOptions,
    private readonly objects: RbacObjects,
  ) {
    this.groups = new Set(options.groups ?? []);
  }

  private matchesSubject(subject: unknown): boolean {
    const kind = field(subject, 'kind');
    const name = field(subject, 'name');
    if (kind === 'User') return name === this.options.user;
    if (kind === 'Group') return typeof name === 'string' && this.groups.has(name);
    if (kind === 'ServiceAccount') return this.options.user === `system:serviceaccount:${String(field(subject, 'namespace'))}:${String(name)}`;
    return false;
  }

  private bindsUser(binding: KubeObject): boolean {
    const subjects = field(binding, 'subjects');
    return Array.isArray(subjects) && subjects.some((subject) => this.matchesSubject(subject));
  }

  private roleOf(binding: KubeObject, namespace: string): KubeObject | undefined {
    const ref = field(binding, 'roleRef');
    const name = field(ref, 'name');
    if (typeof name !== 'string') return undefined;
    if (field(ref, 'kind') === 'ClusterRole') return this.objects.get('clusterroles', '', name);
    if (field(ref, 'kind') === 'Role' && namespace !== '') return this.objects.get('roles', namespace, name);
    return undefined;
  }

  /** Whether some binding of the user grants the request. */
  allows(request: ResourceAttributes): boolean {
    for (const binding of this.objects.list('clusterrolebindings')) {
      if (this.bindsUser(binding) && rulesOf(this.roleOf(binding, '')).some((rule) => ruleAllows(rule, request))) return true;
    }
    if (request.namespace === '') return false;
    for (const binding of this.objects.list('rolebindings', request.namespace)) {
      if (this.bindsUser(binding) && rulesOf(this.roleOf(binding, request.namespace)).some((rule) => ruleAllows(rule, request))) return true;
    }
    return false;
  }

  /** Throws 403 Forbidden, worded like kube-apiserver, when the request is not allowed. */
  check(request: ResourceAttributes): void {
    if (this.allows(request)) return;
    const resource = request.subresource === '' ? request.resource : `${request.resource}/${request.subresource}`;
    const scope = request.namespace === '' ? 'at the cluster scope' : `in the namespace "${request.namespace}"`;
    const what = `User "${this.options.user}" cannot ${request.verb} resource "${resource}" in API group "${request.group}" ${scope}`;
    throw forbidden({ group: request.group, plural: resource }, request.name, what);
  }
}
