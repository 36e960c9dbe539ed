/**
 * Profiles of the policy kinds (orkspace/orkestra `pkg/profiles/{networkpolicy,resourcequota,hpa,pdb}.go`): an
 * entry `profile` on networkPolicies, resourceQuotas and limitRanges, and `behavior.profile` on
 * horizontalPodAutoscalers and podDisruptionBudgets. Expanded into the fields the short forms read.
 */
import type { Path } from '../path.js';
import { isMap } from '../schema-check.js';
import { intOrPercent, mergeUnder, takeProfile, type ProfileScope } from './apply.js';
import type { ProfileClass } from './catalog.js';

type Map = Record<string, unknown>;

/** The kinds whose entries take a `profile` of their own, with its class. */
export const ENTRY_PROFILE_CLASSES: Readonly<Record<string, ProfileClass>> = {
  networkPolicies: 'networkPolicies',
  resourceQuotas: 'resourceQuotas',
  limitRanges: 'limitRanges',
};

/** An entry's own `profile` (networkPolicies, resourceQuotas, limitRanges). */
export function expandEntryProfile(scope: ProfileScope, kind: string, entry: Map, path: Path): void {
  if (!Object.hasOwn(entry, 'profile')) return;
  const profileClass = ENTRY_PROFILE_CLASSES[kind];
  if (profileClass === undefined) {
    scope.problems.add(
      scope.origin,
      [...path, 'profile'],
      'invalid-field',
      `a ${kind} entry has no profile (entry profiles are for ${Object.keys(ENTRY_PROFILE_CLASSES).join(', ')}; workloads take resources.profile, probes, securityContext.profile, podSecurity.profile, rollingUpdate.profile)`,
      { at: 'key' },
    );
    delete entry.profile;
    return;
  }
  const fields = takeProfile(scope, entry, path, profileClass);
  if (fields !== undefined) mergeUnder(entry, fields);
}

/** `behavior.profile` of an HPA: behavior rules, and the CPU target when the entry gives neither it nor metrics. */
export function expandHpaProfile(scope: ProfileScope, entry: Map, path: Path): void {
  const behavior = entry.behavior;
  if (!isMap(behavior)) return;
  const fields = takeProfile(scope, behavior, [...path, 'behavior'], 'hpa');
  if (fields === undefined) return;
  if (isMap(fields.behavior)) mergeUnder(behavior, fields.behavior);
  if (entry.metrics === undefined) mergeUnder(entry, fields, ['targetCPUUtilizationPercentage']);
  mergeUnder(entry, fields, ['minReplicas', 'maxReplicas']);
  if (Object.keys(behavior).length === 0) delete entry.behavior;
}

/** `behavior.profile` of a PDB: its budget, unless the entry writes one (minAvailable or maxUnavailable). */
export function expandPdbProfile(scope: ProfileScope, entry: Map, path: Path): void {
  const behavior = entry.behavior;
  if (!isMap(behavior)) return;
  const fields = takeProfile(scope, behavior, [...path, 'behavior'], 'pdb');
  if (fields !== undefined) {
    const budgets = ['minAvailable', 'maxUnavailable'];
    const written = budgets.some((key) => (behavior[key] ?? entry[key]) !== undefined);
    if (!written) for (const key of budgets) if (fields[key] !== undefined) behavior[key] = intOrPercent(fields[key]);
  }
  if (Object.keys(behavior).length === 0) delete entry.behavior;
}
