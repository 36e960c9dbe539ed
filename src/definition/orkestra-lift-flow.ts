/**
 * Orkestra's control-flow blocks into katalog's shape: `preReconcile` (gates: `or` → `anyOf`, condition
 * shorthand, `eventAware` and `failPolicy` dropped as katalog has nothing they change) and `watch` /
 * `observe.watch` (`index` dropped: Go cache indexers; `include` expanded, include-watch.ts; the entries' enqueueGate
 * lifted as preReconcile's) and `cross` (orkestra-lift-cross.ts). What katalog does not
 * run is refused by name.
 */
import type { Path } from './path.js';
import { isMap } from './schema-check.js';
import { liftConditionBlocks } from './orkestra-lift-box.js';
import { move, refuse, type Lift } from './orkestra-lift-steps.js';
import { liftConditionSource } from './orkestra-lift-condition-source.js';
import { liftPreReconcileExternal } from './orkestra-lift-external.js';
import { expandObserveInclude, expandWatchEntryIncludes } from './include-watch.js';
import { liftCrossEntry } from './orkestra-lift-cross.js';
import { observeKeyRefusal } from './orkestra-features.js';

type Map = Record<string, unknown>;

/** `operatorBox.observe: {watch, events}` (newer form) → `operatorBox.watch`; then preReconcile and watch lifted. */
export function liftFlow(lift: Lift, box: Map, path: Path): void {
  const observe = box.observe;
  if (isMap(observe)) {
    const at = [...path, 'observe'];
    expandObserveInclude(lift, observe, at);
    move(lift, observe, 'watch', at, box, 'watch', path, 'both "observe.watch" and "watch" are given; keep one');
    // observe.events stays where it is: katalog.dev/v1 writes it there too (observe-events.ts).
    if (isMap(observe.events)) liftObserveEvents(lift, observe.events, [...at, 'events']);
    for (const key of Object.keys(observe)) if (key !== 'events') refuse(lift, observe, key, at, observeKeyRefusal(key));
    if (Object.keys(observe).length === 0) delete box.observe;
  }
  if (isMap(box.preReconcile)) liftPreReconcile(lift, box.preReconcile, [...path, 'preReconcile']);
  if (isMap(box.requeue)) liftConditionBlocks(lift, box.requeue, [...path, 'requeue']);
  expandWatchEntryIncludes(lift, box, path);
  if (Array.isArray(box.watch)) box.watch.forEach((entry: unknown, index) => isMap(entry) && liftWatchEntry(lift, entry, [...path, 'watch', index]));
  if (Array.isArray(box.cross)) box.cross.forEach((entry: unknown, index) => isMap(entry) && liftCrossEntry(lift, entry, [...path, 'cross', index]));
  if (isMap(box.autoscale)) liftAutoscale(lift, box.autoscale, [...path, 'autoscale']);
}

/**
 * `autoscale`: `conditions.or` → `anyOf` and the condition shorthand. Time windows (`time`, `dayOfWeek`, `cron`
 * with `duration`) move to `autoscale.windows` under the same block (autoscale-windows.ts). Another CRD's figures
 * (`cross.<crd>.metrics.*`) stay (autoscale-cross.ts checks the CRD, or the cross entry whose source serves its
 * figures over HTTP); a condition's own `source` moves to `autoscale.sources.<crd>` (autoscale-condition-source.ts).
 */
function liftAutoscale(lift: Lift, autoscale: Map, path: Path): void {
  const conditions = autoscale.conditions;
  if (!isMap(conditions)) return;
  const at = [...path, 'conditions'];
  move(lift, conditions, 'or', at, conditions, 'anyOf', at, 'both "or" and "anyOf" are given; keep one');
  const windows: Record<string, unknown[]> = {};
  const sources: Record<string, unknown> = {};
  for (const block of ['when', 'anyOf']) {
    const list = conditions[block];
    if (!Array.isArray(list)) continue;
    // A condition with a refused part is dropped whole (the refusal is the error), so that no half condition is left;
    // a time window leaves for autoscale.windows.
    const dropped = new Set<number>();
    list.forEach((condition: unknown, index) => {
      if (!isMap(condition)) return;
      const where = [...at, block, index];
      if (['time', 'dayOfWeek', 'cron'].some((key) => Object.hasOwn(condition, key))) {
        const moved = (windows[block] ??= []);
        lift.origin.positions?.alias(where, [...path, 'windows', block, moved.length]);
        moved.push(condition);
        dropped.add(index);
        return;
      }
      const before = lift.problems.items.length;
      if (Object.hasOwn(condition, 'source')) liftConditionSource(lift, condition, where, sources, [...path, 'sources']);
      if (lift.problems.items.length > before) dropped.add(index);
    });
    if (dropped.size > 0) conditions[block] = list.filter((_item: unknown, index) => !dropped.has(index));
  }
  if (Object.keys(windows).length > 0) {
    if (Object.hasOwn(autoscale, 'windows')) lift.problems.add(lift.origin, [...path, 'windows'], 'generation-conflict', 'time windows are given both as Orkestra conditions and under windows; keep one', { at: 'key' });
    else autoscale.windows = windows;
  }
  if (Object.keys(sources).length > 0) {
    if (Object.hasOwn(autoscale, 'sources')) lift.problems.add(lift.origin, [...path, 'sources'], 'generation-conflict', "figures sources are given both on Orkestra conditions and under sources; keep one", { at: 'key' });
    else autoscale.sources = sources;
  }
  liftConditionBlocks(lift, conditions, at);
}

function liftPreReconcile(lift: Lift, pre: Map, path: Path): void {
  liftPreReconcileExternal(lift, pre, path);
  for (const key of ['enqueueGate', 'reconcileGate']) {
    const gate = pre[key];
    if (!isMap(gate)) continue;
    const at = [...path, key];
    // eventAware: katalog's queue coalesces events per key and the gate reads the sentinels of every coalesced
    // change together. failPolicy stays (what a failed external call does to the gate).
    delete gate.eventAware;
    liftConditionBlocks(lift, gate, at);
  }
}

/** Each `observe.events` entry: its enqueueGate lifted as a watch entry's; `include` (never expanded by Orkestra for an entry) refused. */
function liftObserveEvents(lift: Lift, events: Map, path: Path): void {
  for (const [name, entry] of Object.entries(events)) {
    if (!isMap(entry)) continue;
    const at = [...path, name];
    if (Object.hasOwn(entry, 'include')) {
      refuse(lift, entry, 'include', at, { feature: 'observe.events.<name>.include', reason: 'Orkestra expands no include in an event entry; put the entries in an observe.include fragment', anchor: 'events-as-triggers' });
    }
    for (const ref of ['regarding', 'related']) {
      const match = entry[ref];
      if (isMap(match) && Object.hasOwn(match, 'plural')) {
        refuse(lift, match, 'plural', [...at, ref], { feature: `observe.events.<name>.${ref}.plural`, reason: "an Event's object reference has no plural (Orkestra's match ignores it); name the kind with kind", anchor: 'events-as-triggers' });
      }
    }
    liftWatchEntry(lift, entry, at);
  }
}

function liftWatchEntry(lift: Lift, entry: Map, path: Path): void {
  // index: Go cache indexers for controller-runtime's client.MatchingFields; katalog resolves keys through its own
  // owner and label lookups, and constructors read the CRD's cache through ctx.cache.
  delete entry.index;
  const gate = entry.enqueueGate;
  if (!isMap(gate)) return;
  const at = [...path, 'enqueueGate'];
  delete gate.eventAware; // the watch gate always sees the change's old and new state
  liftConditionBlocks(lift, gate, at);
}
