/**
 * Orkestra's status switches, lifted into katalog's `operatorBox.status` block. They are written on the CRD entry
 * (documented form) or in `operatorBox.runtime` (current Orkestra's `RuntimeConfig`, read by
 * `SkipStatusSubresource` / `SkipObservedGeneration`); both forms mean the same:
 * - `ignoreObservedGeneration: true` → `status.observedGeneration: false` (neither `status.observedGeneration` nor
 *   the Ready condition's `observedGeneration` is written, as Orkestra's status patch does for such a CRD);
 * - `ignoreStatusPatch: true` → `status.write: false` (the runtime writes no status at all for the CRD).
 * `false` is Orkestra's default and leaves the block as it is. A value that is not a boolean is reported where it
 * was written.
 */
import type { Path } from './path.js';
import { isMap } from './schema-check.js';
import { move, refuse, type Lift } from './orkestra-lift-steps.js';

type Map = Record<string, unknown>;

/** Orkestra field → the `operatorBox.status` switch it turns off. */
const TOGGLES: Readonly<Record<string, string>> = {
  ignoreObservedGeneration: 'observedGeneration',
  ignoreStatusPatch: 'write',
};

/** The switches written on the CRD entry `entry` at `path`. */
export function liftStatusToggles(lift: Lift, entry: Map, path: Path): void {
  liftToggles(lift, entry, path, () => (isMap(entry.operatorBox) ? entry.operatorBox : (entry.operatorBox = {})) as Map, [...path, 'operatorBox']);
}

/**
 * `operatorBox.runtime` (current Orkestra): the two switches go to `operatorBox.status`, `autoscale` to
 * `operatorBox.autoscale`; any other key is refused by name (Orkestra defines no other).
 */
export function liftBoxRuntime(lift: Lift, box: Map, path: Path): void {
  if (!Object.hasOwn(box, 'runtime')) return;
  const runtime = box.runtime;
  const at = [...path, 'runtime'];
  delete box.runtime;
  if (!isMap(runtime)) {
    lift.problems.add(lift.origin, at, 'invalid-type', 'must be a map (ignoreStatusPatch, ignoreObservedGeneration, autoscale)');
    return;
  }
  liftToggles(lift, runtime, at, () => box, path);
  move(lift, runtime, 'autoscale', at, box, 'autoscale', path, 'autoscale is given both in operatorBox and in operatorBox.runtime; keep one');
  for (const key of Object.keys(runtime)) refuse(lift, runtime, key, at, { feature: `operatorBox.runtime.${key}`, reason: 'Orkestra\'s runtime block has no such setting', anchor: 'status-switches' });
}

function liftToggles(lift: Lift, holder: Map, path: Path, boxOf: () => Map, boxPath: Path): void {
  for (const [key, target] of Object.entries(TOGGLES)) {
    if (!Object.hasOwn(holder, key)) continue;
    const value = holder[key];
    delete holder[key];
    if (typeof value !== 'boolean') {
      lift.problems.add(lift.origin, [...path, key], 'invalid-type', 'must be true or false');
      continue;
    }
    if (!value) continue;
    const box = boxOf();
    const status = (isMap(box.status) ? box.status : (box.status = {})) as Map;
    status[target] = false;
    lift.origin.positions?.alias([...path, key], [...boxPath, 'status', target]);
  }
}
