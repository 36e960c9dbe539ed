/**
 * Discovery documents: `/version`, `/api`, `/apis`, `/apis/{group}` and the resource lists of each group/version,
 * built from the registry on every request (so CRDs appear and disappear at once). A main resource is listed
 * before its `/status` and `/scale` subresources, which `KubernetesObjectApi` relies on; a `/scale` entry names its
 * own kind (`autoscaling/v1` Scale), which kubectl's scale client reads.
 */
import type { ResourceRegistry } from './resources/registry.js';
import { apiVersionOf } from './resources/resource-type.js';

/** The Kubernetes version the server reports. */
export const SERVER_VERSION = {
  major: '1',
  minor: '30',
  gitVersion: 'v1.30.0+katalog-testing',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2024-04-17T00:00:00Z',
  goVersion: 'go1.22.2',
  compiler: 'gc',
  platform: 'linux/amd64',
} as const;

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const STATUS_VERBS = ['get', 'patch', 'update'];
/** The POST-only subresources a built-in kind serves (http/dispatch.ts), by name, with the kind each one takes. */
const POST_SUBRESOURCES: Readonly<Record<string, readonly { name: string; kind: string; group?: string; version?: string }[]>> = {
  '/pods': [
    { name: 'binding', kind: 'Binding' },
    { name: 'eviction', group: 'policy', version: 'v1', kind: 'Eviction' },
  ],
};

/** Resources that are no registry type (nothing stored, POST only): the core group's legacy `bindings` (http/dispatch.ts). */
const CREATE_ONLY_RESOURCES: Readonly<Record<string, readonly { name: string; singularName: string; namespaced: boolean; kind: string; verbs: string[] }[]>> = {
  v1: [{ name: 'bindings', singularName: 'binding', namespaced: true, kind: 'Binding', verbs: ['create'] }],
};

/** `GET /api`. */
export function coreVersions(serverAddress: string): object {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function groupDocument(name: string, versions: readonly string[]): object {
  const entries = versions.map((version) => ({ groupVersion: `${name}/${version}`, version }));
  return { name, versions: entries, ...(entries[0] === undefined ? {} : { preferredVersion: entries[0] }) };
}

/** `GET /apis`. */
export function groupList(registry: ResourceRegistry): object {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: registry.groups().map((g) => groupDocument(g.name, g.versions)) };
}

/** `GET /apis/{group}`, or undefined when the group is not served. */
export function groupOf(registry: ResourceRegistry, group: string): object | undefined {
  const served = registry.groups().find((g) => g.name === group);
  if (served === undefined) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupDocument(served.name, served.versions) };
}

/** `GET /api/v1` or `GET /apis/{group}/{version}`, or undefined when nothing is served there. */
export function resourceList(registry: ResourceRegistry, group: string, version: string): object | undefined {
  if (!registry.servesGroupVersion(group, version)) return undefined;
  const resources: object[] = [];
  // kube-apiserver lists a built-in group's resources by name; apiextensions-apiserver a group's CRDs as they came.
  const views = registry.viewsAt(group, version);
  const ordered = views.every((view) => view.type.builtin) ? [...views].sort((a, b) => (a.type.plural < b.type.plural ? -1 : a.type.plural > b.type.plural ? 1 : 0)) : views;
  // Sorted among the built-in resources by name.
  let createOnly = CREATE_ONLY_RESOURCES[apiVersionOf(group, version)] ?? [];
  for (const view of ordered) {
    const { type } = view;
    resources.push(...createOnly.filter((entry) => entry.name < type.plural));
    createOnly = createOnly.filter((entry) => entry.name >= type.plural);
    resources.push({
      name: type.plural,
      singularName: type.singular,
      namespaced: type.namespaced,
      kind: type.kind,
      verbs: VERBS,
      ...(type.shortNames.length > 0 ? { shortNames: type.shortNames } : {}),
      ...(type.categories.length > 0 ? { categories: type.categories } : {}),
    });
    const status = view.statusSubresource ? { name: `${type.plural}/status`, singularName: '', namespaced: type.namespaced, kind: type.kind, verbs: STATUS_VERBS } : undefined;
    const scale = view.scale === undefined ? undefined : { name: `${type.plural}/scale`, singularName: '', namespaced: type.namespaced, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: STATUS_VERBS };
    const postOnly = (POST_SUBRESOURCES[type.key] ?? []).map((entry) => ({ singularName: '', namespaced: type.namespaced, ...entry, name: `${type.plural}/${entry.name}`, verbs: ['create'] }));
    // kube-apiserver lists a built-in group's subresources by name (`binding`, `eviction`, `scale`, `status`);
    // apiextensions-apiserver lists a custom resource's `status` first.
    const subresources = type.builtin ? [...postOnly, scale, status] : [status, scale];
    for (const entry of subresources) if (entry !== undefined) resources.push(entry);
  }
  resources.push(...createOnly);
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf(group, version), resources };
}
