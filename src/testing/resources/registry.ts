/**
 * The resource registry: which resources are served at which group/version, looked up by path (plural) or by
 * kind. Built-in types are registered once; CRDs add, replace and remove theirs synchronously, so a resource is
 * servable the moment its CRD is stored and gone the moment it is removed.
 */
import { apiVersionOf, compareKubeVersions, viewOf, type ResourceType, type ResourceView } from './resource-type.js';

/** A group as discovery shows it: versions in priority order (the first is preferred). */
export interface ServedGroup {
  readonly name: string;
  readonly versions: readonly string[];
}

export class ResourceRegistry {
  private readonly types = new Map<string, ResourceType>();
  private byPath = new Map<string, Map<string, ResourceView>>();
  private byKindKey = new Map<string, ResourceView>();
  private groupList: ServedGroup[] = [];

  constructor(builtins: readonly ResourceType[]) {
    for (const type of builtins) this.types.set(type.key, type);
    this.reindex();
  }

  /** Adds or replaces the type stored under `type.key`. */
  put(type: ResourceType): void {
    this.types.set(type.key, type);
    this.reindex();
  }

  /** Removes a type; returns it, or undefined when it was not registered. */
  remove(key: string): ResourceType | undefined {
    const type = this.types.get(key);
    if (type === undefined) return undefined;
    this.types.delete(key);
    this.reindex();
    return type;
  }

  /** The type stored under `group/plural`. */
  byKey(key: string): ResourceType | undefined {
    return this.types.get(key);
  }

  /** The served view for a path's group, version and plural. */
  resolve(group: string, version: string, plural: string): ResourceView | undefined {
    return this.byPath.get(apiVersionOf(group, version))?.get(plural);
  }

  /** The served view for an object's apiVersion and kind. */
  byKind(apiVersion: string, kind: string): ResourceView | undefined {
    return this.byKindKey.get(`${apiVersion}\u0000${kind}`);
  }

  /** Whether anything is served at this apiVersion. */
  servesGroupVersion(group: string, version: string): boolean {
    return this.byPath.has(apiVersionOf(group, version));
  }

  /** The resources served at one group/version, in registration order. */
  viewsAt(group: string, version: string): ResourceView[] {
    return [...(this.byPath.get(apiVersionOf(group, version))?.values() ?? [])];
  }

  /** Every API group but the core one, built-ins first, then custom groups by name. */
  groups(): readonly ServedGroup[] {
    return this.groupList;
  }

  /** Every registered type. */
  all(): ResourceType[] {
    return [...this.types.values()];
  }

  private reindex(): void {
    const byPath = new Map<string, Map<string, ResourceView>>();
    const byKindKey = new Map<string, ResourceView>();
    const versionsOfGroup = new Map<string, Set<string>>();
    const builtinGroups: string[] = [];
    const customGroups: string[] = [];
    for (const type of this.types.values()) {
      for (const served of type.versions) {
        const view = viewOf(type, served.name);
        if (view === undefined) continue;
        let resources = byPath.get(view.apiVersion);
        if (resources === undefined) {
          resources = new Map();
          byPath.set(view.apiVersion, resources);
        }
        resources.set(type.plural, view);
        byKindKey.set(`${view.apiVersion}\u0000${type.kind}`, view);
        if (type.group === '') continue;
        let versions = versionsOfGroup.get(type.group);
        if (versions === undefined) {
          versions = new Set();
          versionsOfGroup.set(type.group, versions);
          (type.builtin ? builtinGroups : customGroups).push(type.group);
        }
        versions.add(served.name);
      }
    }
    customGroups.sort();
    this.groupList = [...builtinGroups, ...customGroups].map((name) => ({
      name,
      versions: [...(versionsOfGroup.get(name) ?? [])].sort(compareKubeVersions),
    }));
    this.byPath = byPath;
    this.byKindKey = byKindKey;
  }
}
