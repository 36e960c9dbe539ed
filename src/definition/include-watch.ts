/**
 * `include` in watch lists, expanded at load as Orkestra expands it (`pkg/types/types_observe.go`,
 * `includes.go`): a `watch[]` entry `{include: path}` is replaced in place by the fragment's `watch:` list (the
 * entry's other fields are ignored, as Orkestra ignores them; katalog says so in an error instead, so that nothing
 * written is silently dropped); `observe.include` puts the fragment's `watch:` list before the inline entries.
 * One level, positions in the fragment's file, errors with the chain: the rules of include.ts.
 */
import type { Path } from './path.js';
import { describeValue, isMap } from './schema-check.js';
import type { Lift } from './orkestra-lift-steps.js';
import { placeListInclude, readFragment } from './include.js';
import type { NodePosition } from './positions.js';

type Map = Record<string, unknown>;

/**
 * `observe.include`: the fragment's `watch:` list, then the inline one (call before `observe.watch` moves); the
 * fragment's `events:` entries join the inline ones, an inline entry of the same name winning (Orkestra's
 * `ExpandObserveInclude`).
 */
export function expandObserveInclude(lift: Lift, observe: Map, path: Path): void {
  const fragment = readFragment(lift, observe, path, 'observe', 'watch', ['events']);
  if (fragment === undefined) return;
  placeListInclude(lift, observe, path, 'observe', 'watch', fragment);
  const included = fragment.value.events;
  if (included === undefined || included === null) return;
  const { origin } = fragment.document;
  if (!isMap(included)) {
    lift.problems.add(origin, ['events'], 'invalid-type', `events in an included observe fragment must be a map of named entries, got ${describeValue(included)}`);
    return;
  }
  const inline = observe.events;
  if (inline !== undefined && inline !== null && !isMap(inline)) return; // the schema check reports the inline value
  const events: Map = isMap(inline) ? inline : {};
  const index = lift.origin.positions;
  if (!isMap(inline)) {
    const root = origin.positions?.subtree(['events']).get('');
    if (root !== undefined) index?.plant([...path, 'events'], new globalThis.Map([['', root]]), origin.file);
  }
  for (const [name, entry] of Object.entries(included)) {
    if (Object.hasOwn(events, name)) continue; // inline wins
    events[name] = entry;
    index?.plant([...path, 'events', name], origin.positions?.subtree(['events', name]) ?? new globalThis.Map<string, NodePosition>(), origin.file);
  }
  observe.events = events;
}

/** Replaces each `{include: path}` entry of `box.watch` by the fragment's `watch:` list, in place. */
export function expandWatchEntryIncludes(lift: Lift, box: Map, path: Path): void {
  const list = box.watch;
  if (!Array.isArray(list) || !list.some((entry) => isMap(entry) && Object.hasOwn(entry, 'include'))) return;
  const at = [...path, 'watch'];
  const index = lift.origin.positions;
  const expanded: unknown[] = [];
  // Where each entry of the new list is written: [file, its subtree] (the document's, or the fragment's).
  const placed: { subtree: ReadonlyMap<string, NodePosition>; file: string | undefined }[] = [];
  list.forEach((entry: unknown, i) => {
    const own = index?.subtree([...at, i]) ?? new globalThis.Map<string, NodePosition>();
    if (!isMap(entry) || !Object.hasOwn(entry, 'include')) {
      expanded.push(entry);
      placed.push({ subtree: own, file: undefined });
      return;
    }
    for (const other of Object.keys(entry)) {
      if (other !== 'include') lift.problems.add(lift.origin, [...at, i, other], 'invalid-value', `a watch entry with include is replaced by the fragment's watch list (as in Orkestra); "${other}" would be ignored, so write it in the fragment`, { at: 'key' });
    }
    const fragment = readFragment(lift, entry, [...at, i], 'watch', 'watch');
    if (fragment === undefined) return;
    const included = fragment.value.watch;
    if (included === undefined || included === null) return;
    if (!Array.isArray(included)) {
      lift.problems.add(fragment.document.origin, ['watch'], 'invalid-type', `watch in an included watch fragment must be a list, got ${describeValue(included)}`);
      return;
    }
    included.forEach((item: unknown, j) => {
      expanded.push(item);
      placed.push({ subtree: fragment.document.origin.positions?.subtree(['watch', j]) ?? new globalThis.Map<string, NodePosition>(), file: fragment.document.origin.file });
    });
  });
  box.watch = expanded;
  if (index === undefined) return;
  const listPosition = index.subtree(at).get('');
  index.clear(at);
  if (listPosition !== undefined) index.plant(at, new globalThis.Map([['', listPosition]]));
  placed.forEach(({ subtree, file }, i) => index.plant([...at, i], subtree, file));
}
