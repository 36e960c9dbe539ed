/**
 * Orkestra's CRD-level status switches, lifted into katalog's `operatorBox.status` block:
 * - `ignoreObservedGeneration: true` → `status.observedGeneration: false` (neither `status.observedGeneration` nor
 *   the Ready condition's `observedGeneration` is written, as Orkestra's status patch does for such a CRD);
 * - `ignoreStatusPatch: true` → `status.write: false` (the runtime writes no status at all for the CRD).
 * `false` is Orkestra's default and leaves the block as it is. A value that is not a boolean is reported where it
 * was written.
 */
import type { Path } from './path.js';
import { isMap } from './schema-check.js';
import type { Lift } from './orkestra-lift-steps.js';

type Map = Record<string, unknown>;

/** Orkestra field → the `operatorBox.status` switch it turns off. */
const TOGGLES: Readonly<Record<string, string>> = {
  ignoreObservedGeneration: 'observedGeneration',
  ignoreStatusPatch: 'write',
};

export function liftStatusToggles(lift: Lift, entry: Map, path: Path): void {
  for (const [key, target] of Object.entries(TOGGLES)) {
    if (!Object.hasOwn(entry, key)) continue;
    const value = entry[key];
    delete entry[key];
    if (typeof value !== 'boolean') {
      lift.problems.add(lift.origin, [...path, key], 'invalid-type', 'must be true or false');
      continue;
    }
    if (!value) continue;
    const box = (isMap(entry.operatorBox) ? entry.operatorBox : (entry.operatorBox = {})) as Map;
    const status = (isMap(box.status) ? box.status : (box.status = {})) as Map;
    status[target] = false;
    lift.origin.positions?.alias([...path, key], [...path, 'operatorBox', 'status', target]);
  }
}
