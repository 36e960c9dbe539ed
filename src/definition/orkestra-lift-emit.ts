/**
 * Orkestra's `operatorBox.emit` (current Orkestra, `pkg/types/types_emit.go`) into katalog's shape: `emit.status`
 * is the operatorBox's `status` (documented Orkestra writes it there), `emit.events` becomes `operatorBox.events`
 * (named Kubernetes Events after each reconcile; `or` read as `anyOf`, the condition shorthand lifted).
 */
import type { Path } from './path.js';
import { describeValue, isMap } from './schema-check.js';
import { liftConditionBlocks } from './orkestra-lift-box.js';
import { move, type Lift } from './orkestra-lift-steps.js';

type Map = Record<string, unknown>;

/** Lifts `emit` of one operatorBox (in place); an `include` on the operatorBox itself is pointed to its blocks. */
export function liftEmit(lift: Lift, box: Map, path: Path): void {
  if (Object.hasOwn(box, 'include')) {
    lift.problems.add(
      lift.origin,
      [...path, 'include'],
      'invalid-field',
      'include is read inside a block (status, emit.status, validation, mutation, reconciler / reconcile), as in Orkestra, not on the operatorBox itself',
      { at: 'key' },
    );
    delete box.include;
  }
  if (!Object.hasOwn(box, 'emit')) return;
  const emit = box.emit;
  delete box.emit;
  const at = [...path, 'emit'];
  if (!isMap(emit)) {
    if (emit !== null) lift.problems.add(lift.origin, at, 'invalid-type', `emit must be a map with status and events, got ${describeValue(emit)}`);
    return;
  }
  move(lift, emit, 'status', at, box, 'status', path, 'status is given both in operatorBox.emit (current Orkestra) and in operatorBox (documented Orkestra); keep one');
  move(lift, emit, 'events', at, box, 'events', path, 'events are given both in operatorBox.emit and in operatorBox; keep one');
  for (const key of Object.keys(emit)) {
    lift.problems.add(lift.origin, [...at, key], 'unknown-field', `unknown field "${key}" in emit (Orkestra has status and events there)`, { at: 'key' });
  }
  const events = box.events;
  if (!isMap(events)) return;
  for (const [name, entry] of Object.entries(events)) if (isMap(entry)) liftConditionBlocks(lift, entry, [...path, 'events', name]);
}
