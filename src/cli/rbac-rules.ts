/**
 * The least-privilege permissions a runtime needs for a definition, derived from what the runtime does with each
 * resource (docs/cli.md lists every rule and why):
 * - CustomResourceDefinitions: list and watch (activation when a CRD appears, deactivation when it goes);
 * - each enabled CRD's resource: get, list, watch (informer), patch (finalizers); `<plural>/status`: patch (the
 *   Ready condition and status fields); `<plural>/finalizers`: update (owner references with blockOwnerDeletion);
 * - each child kind a template of an enabled CRD can create: get, list, watch (child informers), create, patch
 *   (server-side apply), delete (prune, cleanup);
 * - each kind of an enabled CRD's `operatorBox.watch` and `operatorBox.cross`: get, list, watch (its informer);
 * - events.k8s.io Events, when an enabled CRD observes Events (`observe.events`): list, watch (the shared informer);
 * - what an enabled CRD's `enrich` targets read: list on pods (`pods`, `backingpods`, `events`), events (`events`),
 *   endpointslices (`endpoints`), replicasets (`replicasets`), jobs (`cronjob`); get on nodes (`node`),
 *   persistentvolumes (`pvc`), persistentvolumeclaims (`pv`, `pvcs`), storageclasses (`storageclass`), secrets (`ingress`);
 * - Events: create; Leases in the Lease's namespace, only with leader election: create, and get/update/list/watch on its name (standbys watch the Lease with a metadata.name field selector).
 * Pure: the same definition and options give the same rules, in a stable order.
 */
import { builtInKind, KindTable, type CrdDefinition, type Definition, type EnrichTargetName, type TemplateEntry, type TemplatePhase } from '../index.js';

/** One RBAC PolicyRule. */
export interface PolicyRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
  readonly resourceNames?: readonly string[];
}

export interface RbacRequirements {
  /** Rules of the ClusterRole (the runtime watches across all namespaces). */
  readonly cluster: readonly PolicyRule[];
  /** Rules of the Role in the Lease's namespace; empty without leader election. */
  readonly lease: readonly PolicyRule[];
  /** What the rules cannot cover, for the person applying them (printed on stderr). */
  readonly notes: readonly string[];
}

export interface RbacInput {
  /** The Lease, when leader election is on. */
  readonly lease?: { readonly namespace: string; readonly name: string } | undefined;
}

const CRD_VERBS = ['list', 'watch'];
const PARENT_VERBS = ['get', 'list', 'watch', 'patch'];
const CHILD_VERBS = ['get', 'list', 'watch', 'create', 'patch', 'delete'];
const WATCH_VERBS = ['get', 'list', 'watch'];
const RBAC_KINDS = new Set(['Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding']);

/** The (group, resource, verb) each enrich target reads with. */
const ENRICH_READS: Readonly<Record<EnrichTargetName, ReadonlyArray<readonly [string, string, string]>>> = {
  pods: [['', 'pods', 'list']],
  events: [['', 'events', 'list'], ['', 'pods', 'list']],
  endpoints: [['discovery.k8s.io', 'endpointslices', 'list']],
  backingpods: [['', 'pods', 'list']],
  replicasets: [['apps', 'replicasets', 'list']],
  owner: [],
  node: [['', 'nodes', 'get']],
  pvc: [['', 'persistentvolumes', 'get']],
  pv: [['', 'persistentvolumeclaims', 'get']],
  pvcs: [['', 'persistentvolumeclaims', 'get']],
  storageclass: [['storage.k8s.io', 'storageclasses', 'get']],
  ingress: [['', 'secrets', 'get']],
  hpa: [],
  cronjob: [['batch', 'jobs', 'list']],
};

/** Rules collected per (group, resource), merged per (group, verbs) at the end. */
class RuleSet {
  private readonly verbs = new Map<string, Set<string>>();

  add(group: string, resource: string, verbs: readonly string[]): void {
    const key = `${group}\u0000${resource}`;
    const set = this.verbs.get(key) ?? new Set<string>();
    for (const verb of verbs) set.add(verb);
    this.verbs.set(key, set);
  }

  rules(): PolicyRule[] {
    const merged = new Map<string, { group: string; verbs: string[]; resources: string[] }>();
    const keys = [...this.verbs.keys()].sort();
    for (const key of keys) {
      const [group = '', resource = ''] = key.split('\u0000');
      const verbs = [...(this.verbs.get(key) ?? [])].sort(byVerbOrder);
      const mergeKey = `${group}\u0000${verbs.join(',')}`;
      const rule = merged.get(mergeKey) ?? { group, verbs, resources: [] };
      rule.resources.push(resource);
      merged.set(mergeKey, rule);
    }
    return [...merged.values()].map((rule) => ({ apiGroups: [rule.group], resources: rule.resources, verbs: rule.verbs }));
  }
}

const VERB_ORDER = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

function byVerbOrder(a: string, b: string): number {
  return VERB_ORDER.indexOf(a) - VERB_ORDER.indexOf(b);
}

function phases(crd: CrdDefinition): TemplatePhase[] {
  const box = crd.operatorBox;
  return [box.onCreate, box.onReconcile, box.onDelete];
}

function entries(phase: TemplatePhase): TemplateEntry[] {
  return Object.values(phase).flatMap((list) => list ?? []);
}

function apiGroupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** The (group, plural) a child of `apiVersion`/`kind` is served as, or a note when it cannot be known offline. */
function childResource(apiVersion: unknown, kind: unknown, definition: Definition): { group: string; plural: string; note?: string } | string {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return 'has no literal apiVersion and kind';
  if (apiVersion.includes('{{') || kind.includes('{{')) return `computes its apiVersion or kind (${apiVersion} ${kind}) from a template`;
  const group = apiGroupOf(apiVersion);
  const builtIn = builtInKind(kind);
  if (builtIn !== undefined && builtIn.group === group) return { group, plural: builtIn.plural };
  for (const crd of definition.crds.values()) {
    if (crd.apiTypes.group === group && crd.apiTypes.kind === kind) return { group, plural: crd.apiTypes.plural };
  }
  const plural = `${kind.toLowerCase()}s`;
  return { group, plural, note: `the plural of ${kind} in ${apiVersion} is not known offline; the rules guess "${plural}" (check it against the CRD)` };
}

/** Derives the permissions of the runtime for `definition` (enabled CRDs only). */
export function rbacRequirements(definition: Definition, input: RbacInput = {}): RbacRequirements {
  const rules = new RuleSet();
  const notes: string[] = [];
  const kinds = new KindTable();
  rules.add('apiextensions.k8s.io', 'customresourcedefinitions', CRD_VERBS);
  rules.add('', 'events', ['create']);
  for (const name of definition.order) {
    const crd = definition.crds.get(name);
    if (crd === undefined) continue;
    const { group, plural } = crd.apiTypes;
    rules.add(group, plural, PARENT_VERBS);
    if (crd.operatorBox.events !== undefined) rules.add('', 'events', ['patch']); // a repeated Event's count (emit-box.ts)
    if (!crd.apiTypes.builtIn) {
      rules.add(group, `${plural}/status`, ['patch']);
      rules.add(group, `${plural}/finalizers`, ['update']);
    }
    const code = [crd.operatorBox.hooks?.function, crd.operatorBox.constructor?.function].filter((fn) => fn !== undefined);
    if (code.length > 0 || !crd.operatorBox.default) {
      notes.push(`CRD ${name} runs code (${code.join(', ') || 'a constructor'}): add the permissions of whatever it calls through ctx.client`);
    }
    // Orkestra's enrich: the reads each target makes (operatorbox/enrich-targets.ts), and nothing for `owner`/`hpa`.
    for (const target of crd.enrich?.targets ?? []) for (const [group, resource, verb] of ENRICH_READS[target.name]) rules.add(group, resource, [verb]);
    if ((crd.operatorBox.observeEvents ?? []).length > 0) rules.add('events.k8s.io', 'events', ['list', 'watch']);
    for (const watch of [...(crd.operatorBox.watch ?? []), ...(crd.operatorBox.cross ?? [])]) {
      const found = childResource(watch.apiVersion, watch.kind, definition);
      if (typeof found === 'string') {
        notes.push(`${watch.path} ${found}: add a rule for it by hand`);
        continue;
      }
      if (found.note !== undefined) notes.push(`${watch.path}: ${found.note}`);
      rules.add(found.group, found.plural, WATCH_VERBS);
    }
    for (const entry of phases(crd).flatMap(entries)) {
      const produced = kinds.get(entry.kind)?.produces;
      const found = produced === undefined ? childResource(entry.body['apiVersion'], entry.body['kind'], definition) : childResource(produced.apiVersion, produced.kind, definition);
      if (typeof found === 'string') {
        notes.push(`${entry.path} ${found}: add a rule for it by hand`);
        continue;
      }
      if (found.note !== undefined) notes.push(`${entry.path}: ${found.note}`);
      rules.add(found.group, found.plural, CHILD_VERBS);
      const kind = produced?.kind ?? entry.body['kind'];
      if (typeof kind === 'string' && RBAC_KINDS.has(kind)) {
        notes.push(`${entry.path} creates a ${kind}: Kubernetes lets the operator grant only permissions it holds itself (or add the "bind"/"escalate" verbs)`);
      }
    }
  }
  const lease: PolicyRule[] =
    input.lease === undefined
      ? []
      : [
          { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
          { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: [input.lease.name], verbs: ['get', 'update', 'list', 'watch'] },
        ];
  return { cluster: rules.rules(), lease, notes: [...new Set(notes)] };
}
