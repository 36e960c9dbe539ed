/**
 * Taking a `profile` out of a block and merging its fields under the block's own. The merge order is katalog's
 * (docs/orkestra-compatibility.md#profiles): a field written beside the profile wins over the profile's; for the
 * maps `requests`, `limits` and `hard` key by key. Orkestra refuses most of these mixes at `ork validate`
 * ("use one or the other, not both"), so every block Orkestra accepts expands here exactly as it does there.
 */
import type { Path } from '../path.js';
import type { Origin, ProblemList } from '../problems.js';
import { isMap } from '../schema-check.js';
import type { ProfileClass, ProfileValue } from './catalog.js';
import { resolveProfile, type ProfileRegistry } from './registry.js';

type Map = Record<string, unknown>;

/** What expansion needs: the registry and where problems go. */
export interface ProfileScope {
  readonly registry: ProfileRegistry;
  readonly origin: Origin;
  readonly problems: ProblemList;
}

/**
 * Removes `holder.profile` (written at `path`) and resolves it in `profileClass`. Returns the profile's fields, or
 * undefined when there is none or the name is unknown (reported at the name, listing the known names).
 */
export function takeProfile(scope: ProfileScope, holder: Map, path: Path, profileClass: ProfileClass): ProfileValue | undefined {
  if (!Object.hasOwn(holder, 'profile')) return undefined;
  const name = holder.profile;
  delete holder.profile;
  const resolved = resolveProfile(scope.registry, profileClass, name);
  if ('error' in resolved) {
    scope.problems.add(scope.origin, [...path, 'profile'], 'unknown-profile', resolved.error);
    return undefined;
  }
  return resolved.value;
}

/** Map-valued fields merged key by key (the block's keys win); any other field is the block's when it has one. */
const KEYED: ReadonlySet<string> = new Set(['requests', 'limits', 'hard']);

/** Writes the profile's `fields` into `holder` where it has none (copies, so no two entries share a value). */
export function mergeUnder(holder: Map, fields: ProfileValue, only?: readonly string[]): void {
  for (const [key, value] of Object.entries(fields)) {
    if (only !== undefined && !only.includes(key)) continue;
    const own = holder[key];
    if (own === undefined || own === null) holder[key] = structuredClone(value);
    else if (KEYED.has(key) && isMap(own) && isMap(value)) holder[key] = { ...structuredClone(value), ...own };
  }
}

/** `"1"` → 1, `"25%"` stays: Orkestra's ParseIntOrPercent for budgets and rolling updates. */
export function intOrPercent(value: unknown): unknown {
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value.trim());
  return value;
}
