/**
 * The table of template kinds: which builder turns each short form into a manifest, in what order children are
 * applied, and under which name observed children appear in `.children`. One table per runtime; code adds or
 * replaces kinds with {@link KindTable.registerKind} before the CRDs that use them activate.
 */
import { RuntimeError } from '../errors.js';
import { cronJobsBuilder, jobsBuilder } from './builders-batch.js';
import { configMapsBuilder, namespacesBuilder, secretsBuilder, serviceAccountsBuilder } from './builders-config.js';
import { resourcesBuilder } from './builders-manifest.js';
import { ingressesBuilder, servicesBuilder } from './builders-network.js';
import { clusterRoleBindingsBuilder, clusterRolesBuilder, roleBindingsBuilder, rolesBuilder } from './builders-rbac.js';
import { horizontalPodAutoscalersBuilder } from './builders-autoscaling.js';
import { customResourceBuilder } from './builders-custom.js';
import { limitRangesBuilder, networkPoliciesBuilder, podDisruptionBudgetsBuilder, priorityClassesBuilder, resourceQuotasBuilder } from './builders-policy.js';
import { persistentVolumeClaimsBuilder, persistentVolumesBuilder } from './builders-storage.js';
import { daemonSetsBuilder, deploymentsBuilder, podsBuilder, replicaSetsBuilder, statefulSetsBuilder } from './builders-workloads.js';
import type { KindBuilder } from './kind-builder.js';

/**
 * Application order inside a phase (SPEC §4.1), by the child's Kubernetes kind: namespaces, secrets, configMaps,
 * namespace policies (network policies, quotas, limit ranges), serviceAccounts, priority classes, RBAC, custom
 * resources, volumes and claims, workloads (pods too), services, jobs, cronJobs, ingresses, then autoscalers and
 * disruption budgets (which point at workloads). Kinds not listed
 * (custom resources and other built-ins) take the custom-resources slot. Children of one rank keep their
 * declaration order.
 */
const APPLY_RANK: Readonly<Record<string, number>> = Object.freeze({
  Namespace: 0,
  Secret: 1,
  ConfigMap: 2,
  NetworkPolicy: 2.5,
  ResourceQuota: 2.5,
  LimitRange: 2.5,
  ServiceAccount: 3,
  PriorityClass: 3.5,
  ClusterRole: 4,
  ClusterRoleBinding: 4,
  Role: 4,
  RoleBinding: 4,
  PersistentVolume: 5.5,
  PersistentVolumeClaim: 5.6,
  Deployment: 6,
  StatefulSet: 6,
  DaemonSet: 6,
  ReplicaSet: 6,
  Pod: 6,
  Service: 7,
  Job: 8,
  CronJob: 9,
  Ingress: 10,
  HorizontalPodAutoscaler: 11,
  PodDisruptionBudget: 11,
});
const CUSTOM_RESOURCE_RANK = 5;

/** The rank of a Kubernetes kind in the application order (lower first). */
export function applyRank(kind: string): number {
  return Object.hasOwn(APPLY_RANK, kind) ? (APPLY_RANK[kind] ?? CUSTOM_RESOURCE_RANK) : CUSTOM_RESOURCE_RANK;
}

const TEMPLATE_KIND_NAME = /^[a-z][A-Za-z0-9]*$/;

export class KindTable {
  private readonly builders = new Map<string, KindBuilder>();

  /** A table holding the built-in template kinds of SPEC §4.1. */
  constructor() {
    const builtIn: Record<string, KindBuilder> = {
      namespaces: namespacesBuilder,
      secrets: secretsBuilder,
      configMaps: configMapsBuilder,
      serviceAccounts: serviceAccountsBuilder,
      roles: rolesBuilder,
      roleBindings: roleBindingsBuilder,
      clusterRoles: clusterRolesBuilder,
      clusterRoleBindings: clusterRoleBindingsBuilder,
      deployments: deploymentsBuilder,
      statefulSets: statefulSetsBuilder,
      replicaSets: replicaSetsBuilder,
      daemonSets: daemonSetsBuilder,
      services: servicesBuilder,
      jobs: jobsBuilder,
      cronJobs: cronJobsBuilder,
      ingresses: ingressesBuilder,
      pods: podsBuilder,
      persistentVolumes: persistentVolumesBuilder,
      persistentVolumeClaims: persistentVolumeClaimsBuilder,
      networkPolicies: networkPoliciesBuilder,
      podDisruptionBudgets: podDisruptionBudgetsBuilder,
      limitRanges: limitRangesBuilder,
      resourceQuotas: resourceQuotasBuilder,
      priorityClasses: priorityClassesBuilder,
      horizontalPodAutoscalers: horizontalPodAutoscalersBuilder,
      customResource: customResourceBuilder,
      resources: resourcesBuilder,
    };
    for (const [name, builder] of Object.entries(builtIn)) this.builders.set(name, builder);
  }

  /**
   * Adds a template kind, or replaces a built-in one (`deployments` with a house style, for example). `name` is the
   * key used in a phase (`onCreate: { <name>: [...] }`): camelCase letters and digits. Takes effect for CRDs that
   * activate afterwards.
   */
  registerKind(name: string, builder: KindBuilder): void {
    if (!TEMPLATE_KIND_NAME.test(name)) throw new RuntimeError('E_REGISTRATION', `template kind "${name}": names are camelCase letters and digits (like "deployments")`);
    if (typeof builder?.build !== 'function') throw new RuntimeError('E_REGISTRATION', `template kind ${name}: expected an object with a build() method`);
    this.builders.set(name, builder);
  }

  get(name: string): KindBuilder | undefined {
    return this.builders.get(name);
  }

  names(): string[] {
    return [...this.builders.keys()];
  }

  /**
   * The name under which children of a Kubernetes kind appear in `.children` and in a hook's `children`: the
   * template kind that produces it (`Deployment` → `deployments`), else the resource's plural (`certificates`).
   */
  childrenKey(apiVersion: string, kind: string, plural: string): string {
    for (const [name, builder] of this.builders) {
      if (builder.produces?.kind === kind && builder.produces.apiVersion === apiVersion) return name;
    }
    return plural;
  }
}
