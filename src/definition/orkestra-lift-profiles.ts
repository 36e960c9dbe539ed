/**
 * Orkestra's profiles in the lift (docs/orkestra-compatibility.md#profiles): the `profiles:` block of each document
 * goes into the load's registry (profiles/registry.ts), and every `profile` reference — an entry's, a workload's
 * `resources`/`securityContext`/`podSecurity`/`probes`/`rollingUpdate`, an HPA's or PDB's `behavior`, the
 * reconciler block's — is expanded in place into the fields it stands for. Nothing after the lift knows a profile
 * existed: the frozen model holds the expanded fields, whatever the generation.
 */
import type { Path } from './path.js';
import { isMap } from './schema-check.js';
import type { Lift } from './orkestra-lift-steps.js';
import { addProfiles, registryOf, resolvingRegistryOf, withCrdLayer, type DeclaredNames, type ProfileRegistry } from './profiles/registry.js';
import { readFragment } from './include.js';
import { mergeUnder, takeProfile, type ProfileScope } from './profiles/apply.js';
import { expandEntryProfile, expandHpaProfile, expandPdbProfile } from './profiles/expand-policy.js';
import { expandWorkload, WORKLOAD_KINDS } from './profiles/expand-workload.js';
import { expandChoosing } from './profiles/templated.js';

type Map = Record<string, unknown>;

function scopeOf(lift: Lift): ProfileScope {
  return { registry: resolvingRegistryOf(lift.context), origin: lift.origin, problems: lift.problems };
}

/**
 * Takes the document's `profiles:` (at the top, as Orkestra's Katalog, Komposer and Motif files have it, or under
 * `spec`) into the load's registry. Called before the document's imports are read, so its own profiles win.
 */
export function takeDocumentProfiles(lift: Lift, doc: Map): void {
  const spec = isMap(doc.spec) ? doc.spec : undefined;
  if (Object.hasOwn(doc, 'profiles') && spec !== undefined && Object.hasOwn(spec, 'profiles')) {
    lift.problems.add(lift.origin, ['spec', 'profiles'], 'generation-conflict', 'profiles are given both at the top of the document and under spec; keep one', { at: 'key' });
  }
  for (const [holder, path] of [[doc, []], [spec, ['spec']]] as Array<[Map | undefined, Path]>) {
    if (holder !== undefined && Object.hasOwn(holder, 'profiles')) readBlock(lift, holder, path, registryOf(lift.context));
  }
}

/**
 * CRD-level `profiles:` (a block of the same shape on a CRD entry): read into a registry of that CRD alone, which
 * resolves before the document's and the built-ins while the CRD's reconciler block and entries are lifted
 * (`lift`). Another CRD never sees them (docs/orkestra-compatibility.md#crd-level-profiles).
 */
export function liftWithCrdProfiles(lift: Lift, entry: Map, path: Path, liftEntry: () => void): void {
  if (!Object.hasOwn(entry, 'profiles')) {
    liftEntry();
    return;
  }
  const layer: ProfileRegistry = new Map();
  readBlock(lift, entry, path, layer);
  withCrdLayer(lift.context, layer, liftEntry);
}

/** Reads `holder.profiles` (written at `path`) with its `include` into `registry`, and removes it. */
function readBlock(lift: Lift, holder: Map, path: Path, registry: ProfileRegistry): void {
  const block = holder.profiles;
  const at = [...path, 'profiles'];
  const declared: DeclaredNames = new Map();
  addProfiles(registry, block, lift.origin, at, lift.problems, declared);
  // `profiles.include` (Orkestra's ExpandProfileInclude): a fragment's profiles: block, beside this file.
  if (isMap(block) && Object.hasOwn(block, 'include')) {
    const fragment = readFragment(lift, block, at, 'profiles', 'profiles');
    const inner = fragment?.value.profiles;
    if (fragment !== undefined && isMap(inner) && Object.hasOwn(inner, 'include')) {
      const message = 'an included file cannot include another (Orkestra expands one level of include); put the profiles in one fragment';
      lift.problems.add(fragment.document.origin, ['profiles', 'include'], 'include-nested', message, { at: 'key' });
    }
    if (fragment !== undefined) addProfiles(registry, inner, fragment.document.origin, ['profiles'], lift.problems, declared);
  }
  delete holder.profiles;
}

/** Expands the profiles of every entry of a phase (`onCreate`...) or a Motif's `resources`. */
export function liftPhaseProfiles(lift: Lift, phase: Map, path: Path): void {
  const scope = scopeOf(lift);
  for (const [kind, list] of Object.entries(phase)) {
    if (!Array.isArray(list)) continue;
    list.forEach((entry: unknown, index) => {
      if (!isMap(entry)) return;
      const at = [...path, kind, index];
      // A profile named by a template: every name it can take, expanded as the literal name (profiles/templated.ts).
      expandChoosing(scope, kind, entry, at, (target, targetScope) => {
        expandEntryProfile(targetScope, kind, target, at);
        if (WORKLOAD_KINDS.has(kind)) expandWorkload(targetScope, kind, target, at);
        else if (kind === 'horizontalPodAutoscalers') expandHpaProfile(targetScope, target, at);
        else if (kind === 'podDisruptionBudgets') expandPdbProfile(targetScope, target, at);
      });
    });
  }
}

/**
 * `profile` of the reconciler block (`operatorBox.reconciler`/`reconcile`, or early Orkestra's `reconciler:`):
 * `workers`, `resync` and `queue.maxDepth` where neither the block nor the CRD entry writes them.
 */
export function liftReconcilerProfile(lift: Lift, block: Map, path: Path, entry: Map): void {
  const fields = takeProfile(scopeOf(lift), block, path, 'reconciler');
  if (fields === undefined) return;
  for (const key of ['workers', 'resync']) {
    if (fields[key] !== undefined && block[key] === undefined && entry[key] === undefined) block[key] = fields[key];
  }
  const depth = isMap(fields.queue) ? fields.queue.maxDepth : undefined;
  if (depth === undefined) return;
  const queue = isMap(block.queue) ? block.queue : isMap(entry.queue) ? entry.queue : (block.queue = {});
  mergeUnder(queue as Map, { maxDepth: depth });
}
