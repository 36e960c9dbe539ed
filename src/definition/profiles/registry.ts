/**
 * The profiles of one load: the user-defined ones (Orkestra's `profiles:` block of a Katalog, Komposer or Motif,
 * read here) and Orkestra's built-ins (catalog.ts). A name resolves to the user-defined profile first, then to the
 * built-in, as Orkestra's `Apply*Profile` functions do. Every document of a load adds its profiles to one
 * registry; a name already there (from a document read earlier) is kept, so a Katalog's own profiles win over
 * those of the Motifs it imports (its own are read first) and a Komposer's over its Katalogs'.
 */
import type { Path } from '../path.js';
import type { Origin, ProblemList } from '../problems.js';
import { isMap } from '../schema-check.js';
import { BUILTIN_PROFILES, builtinProfile, PROFILE_CLASSES, PROFILE_FIELDS, type ProfileClass, type ProfileValue } from './catalog.js';

/** User-defined profiles by class and name. */
export type ProfileRegistry = Map<ProfileClass, Map<string, ProfileValue>>;

const registries = new WeakMap<object, ProfileRegistry>();

/** The registry of a load (keyed by its LoadContext); made empty on first use. */
export function registryOf(context: object): ProfileRegistry {
  let registry = registries.get(context);
  if (registry === undefined) {
    registry = new Map();
    registries.set(context, registry);
  }
  return registry;
}

/** The CRD-level profiles of the CRD being lifted, by load (set only while that CRD's operatorBox is lifted). */
const crdLayers = new WeakMap<object, ProfileRegistry>();

/**
 * The registry references resolve against: the CRD's own `profiles:` (while its entries are lifted) over the
 * load's registry. A name in both resolves to the CRD's.
 */
export function resolvingRegistryOf(context: object): ProfileRegistry {
  const base = registryOf(context);
  const layer = crdLayers.get(context);
  if (layer === undefined) return base;
  const merged: ProfileRegistry = new Map();
  for (const profileClass of PROFILE_CLASSES) {
    const own = layer.get(profileClass);
    const shared = base.get(profileClass);
    if (own === undefined && shared === undefined) continue;
    const table = new Map(own ?? []);
    for (const [name, value] of shared ?? []) if (!table.has(name)) table.set(name, value);
    merged.set(profileClass, table);
  }
  return merged;
}

/** Runs `lift` with `layer` (a CRD's own profiles) resolving before the load's registry. */
export function withCrdLayer(context: object, layer: ProfileRegistry, lift: () => void): void {
  const outer = crdLayers.get(context);
  crdLayers.set(context, layer);
  try {
    lift();
  } finally {
    if (outer === undefined) crdLayers.delete(context);
    else crdLayers.set(context, outer);
  }
}

function isProfileClass(key: string): key is ProfileClass {
  return (PROFILE_CLASSES as readonly string[]).includes(key);
}

/** The names one document declares, by class: a name twice (inline, or inline and in its include) is an error. */
export type DeclaredNames = Map<ProfileClass, Set<string>>;

/**
 * Reads a `profiles:` block written at `path` and adds its profiles to `registry` (names already there are kept).
 * Problems (not a map, an unknown class or field, a profile without a name, a name twice in one class) are
 * reported; a faulty profile is left out. `include` is the caller's (orkestra-lift-profiles.ts).
 */
export function addProfiles(registry: ProfileRegistry, block: unknown, origin: Origin, path: Path, problems: ProblemList, declared: DeclaredNames = new Map()): void {
  if (block === null || block === undefined) return;
  if (!isMap(block)) {
    problems.add(origin, path, 'invalid-type', `profiles must be a map of classes (${PROFILE_CLASSES.join(', ')})`);
    return;
  }
  for (const [key, list] of Object.entries(block)) {
    const at = [...path, key];
    if (key === 'include') continue;
    if (!isProfileClass(key)) {
      problems.add(origin, at, 'unknown-field', `unknown profile class "${key}" (Orkestra's classes: ${PROFILE_CLASSES.join(', ')})`, { at: 'key' });
      continue;
    }
    if (list === null) continue;
    if (!Array.isArray(list)) {
      problems.add(origin, at, 'invalid-type', `profiles.${key} must be a list of profiles, each with a name`);
      continue;
    }
    const seen = declared.get(key) ?? new Set<string>();
    declared.set(key, seen);
    const table = registry.get(key) ?? new Map<string, ProfileValue>();
    list.forEach((item: unknown, index) => {
      const value = readProfile(key, item, origin, [...at, index], problems);
      if (value === undefined) return;
      const [name, fields] = value;
      if (seen.has(name)) {
        problems.add(origin, [...at, index, 'name'], 'duplicate-name', `profile "${name}" is declared twice in profiles.${key} (with its include)`);
        return;
      }
      seen.add(name);
      if (!table.has(name)) table.set(name, fields);
    });
    registry.set(key, table);
  }
}

function readProfile(profileClass: ProfileClass, item: unknown, origin: Origin, path: Path, problems: ProblemList): [string, ProfileValue] | undefined {
  if (!isMap(item)) {
    problems.add(origin, path, 'invalid-type', `a profile of profiles.${profileClass} must be a map with a name`);
    return undefined;
  }
  const name = item.name;
  if (typeof name !== 'string' || name === '') {
    problems.add(origin, path, 'missing-field', `a profile of profiles.${profileClass} needs a name`);
    return undefined;
  }
  const allowed = PROFILE_FIELDS[profileClass];
  let faulty = false;
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) {
    if (key === 'name' || key === 'description') continue;
    if (!allowed.includes(key)) {
      problems.add(origin, [...path, key], 'unknown-field', `unknown field "${key}" in a ${profileClass} profile (${allowed.join(', ')})`, { at: 'key' });
      faulty = true;
      continue;
    }
    fields[key] = value;
  }
  if (profileClass === 'reconciler' && fields.queue !== undefined) {
    // Orkestra takes only maxDepth from a reconciler profile's queue (pkg/profiles/reconciler.go).
    const queue = fields.queue;
    const extra = isMap(queue) ? Object.keys(queue).filter((key) => key !== 'maxDepth') : [];
    if (!isMap(queue) || extra.length > 0) {
      problems.add(origin, [...path, 'queue'], 'invalid-value', 'a reconciler profile\'s queue takes maxDepth only (as in Orkestra)');
      faulty = true;
    }
  }
  return faulty ? undefined : [name, Object.freeze(fields)];
}

/** The result of resolving a profile name: its fields, or the message of an unknown name. */
export type Resolution = { readonly value: ProfileValue } | { readonly error: string };

/** Human names of the classes, for messages. */
export const CLASS_LABELS: Readonly<Record<ProfileClass, string>> = {
  networkPolicies: 'NetworkPolicy',
  resourceQuotas: 'ResourceQuota',
  limitRanges: 'LimitRange',
  hpa: 'HPA behavior',
  pdb: 'PDB behavior',
  rollingUpdate: 'rolling update',
  reconciler: 'reconciler',
  resources: 'resource',
  probes: 'probe',
  containerSecurity: 'container security',
  podSecurity: 'pod security',
};

/** Resolves `name` in `profileClass`: the user-defined profile first, then Orkestra's built-in. */
export function resolveProfile(registry: ProfileRegistry, profileClass: ProfileClass, name: unknown): Resolution {
  const label = CLASS_LABELS[profileClass];
  if (typeof name !== 'string' || name === '') return { error: `a ${label} profile must be a name` };
  if (name.includes('{{')) {
    // Entries' templated names are expanded per name before this (templated.ts); the reconciler's settings are the
    // CRD's, fixed when it starts, so there is no custom resource to render its name with. Orkestra looks the written
    // name up unrendered when it prepares its CRDs (profiles.ApplyReconcilerProfile), so it fails there as unknown.
    return {
      error: `a ${label} profile named by a template ("${name}") is not supported: the ${label} settings are the CRD's, chosen once and not per custom resource (Orkestra does not render it either: it looks the written name up when it prepares the CRD and fails on it as unknown); name the profile; see docs/orkestra-compatibility.md#profiles-named-by-a-template`,
    };
  }
  const own = registry.get(profileClass)?.get(name);
  if (own !== undefined) return { value: own };
  const builtin = builtinProfile(profileClass, name);
  if (builtin !== undefined) return { value: builtin };
  return { error: `unknown ${label} profile "${name}" (profiles.${profileClass}); known: ${knownNames(registry, profileClass)}` };
}

function knownNames(registry: ProfileRegistry, profileClass: ProfileClass): string {
  const user = [...(registry.get(profileClass)?.keys() ?? [])];
  const builtins = Object.keys(BUILTIN_PROFILES[profileClass]);
  const parts = [];
  if (user.length > 0) parts.push(`declared ${user.join(', ')}`);
  parts.push(builtins.length > 0 ? `built-in ${builtins.join(', ')}` : 'no built-ins (Orkestra has none in this class)');
  return parts.join('; ');
}
