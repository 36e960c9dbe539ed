/**
 * Orkestra's condition-level `source` on an autoscale condition (`pkg/types/conditions.go` `Condition.Source`): the
 * HTTP fallback for a `cross.<crd>.metrics.<figure>` field, used before a `cross` entry's source for that CRD
 * (`pkg/runtime/autoscaler/autoscaler.go` `buildConditionData`). It moves to `autoscale.sources.<crd>` (one source
 * per CRD; problems inside it still point at the condition), lifted as a cross entry's source is (`type:` →
 * `protocol:`, written tokens refused). Orkestra ignores it on any other field; katalog says so at load instead.
 */
import type { Path } from './path.js';
import type { Lift } from './orkestra-lift-steps.js';
import { liftCrossEntry } from './orkestra-lift-cross.js';

type Map = Record<string, unknown>;

/** Moves `condition.source` into `sources` (keyed by the CRD as written), or reports why it cannot. */
export function liftConditionSource(lift: Lift, condition: Map, path: Path, sources: Map, sourcesPath: Path): void {
  const field = typeof condition.field === 'string' ? condition.field : '';
  const crd = /^cross\.([^.]+)\.metrics\./.exec(field)?.[1];
  const at = [...path, 'source'];
  if (crd === undefined) {
    lift.problems.add(lift.origin, at, 'invalid-value', `a condition's source is read only for a cross.<crd>.metrics.<figure> field (another process's figures); this condition reads "${field}"`, { at: 'key' });
    delete condition.source;
    return;
  }
  liftCrossEntry(lift, { source: condition.source }, path);
  const source = condition.source;
  delete condition.source;
  const same = Object.keys(sources).find((key) => key.toLowerCase() === crd.toLowerCase());
  if (same !== undefined) {
    if (JSON.stringify(sources[same]) !== JSON.stringify(source)) {
      lift.problems.add(lift.origin, at, 'invalid-value', `two conditions read the figures of "${crd}" from different sources; give every condition on it the same source (katalog reads one per CRD)`, { at: 'key' });
    }
    return;
  }
  sources[crd] = source;
  lift.origin.positions?.alias(at, [...sourcesPath, crd]);
}
