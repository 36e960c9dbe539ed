/**
 * `include` in external call lists, expanded at load as Orkestra expands it (`pkg/types/includes_external.go`,
 * `ExpandExternalCalls`): an entry `{include: path}` is replaced in place by the fragment's `calls:` list, the path
 * relative to the file that names it. Every list where katalog makes calls takes it (`operatorBox.external`,
 * `hooks.external`, `preReconcile.external`, each gate's `external`). The rules of include.ts hold: positions in
 * the fragment's file, a fragment holding only `calls:`, one level (an include inside a fragment is an error with
 * the chain of files, so a cycle cannot form), and the entry's other fields are an error (Orkestra ignores them).
 *
 * A definition parsed from text with neither `source` nor `baseDir` has no directory to read from: an include
 * there is an error that says so, rather than a read relative to wherever the process happens to run.
 */
import type { Path } from './path.js';
import { describeValue, isMap } from './schema-check.js';
import type { Lift } from './orkestra-lift-steps.js';
import { nested, readFragment } from './include.js';
import type { NodePosition } from './positions.js';

/** Replaces each `{include: path}` entry of `list` (at `path`) by the fragment's `calls:` list, in place. */
export function expandExternalIncludes(lift: Lift, list: unknown[], path: Path): void {
  if (!list.some((entry) => isMap(entry) && Object.hasOwn(entry, 'include'))) return;
  const index = lift.origin.positions;
  const expanded: unknown[] = [];
  // Where each entry of the new list is written: its subtree, and the fragment's file (undefined: this document).
  const placed: { subtree: ReadonlyMap<string, NodePosition>; file: string | undefined }[] = [];
  list.forEach((entry: unknown, i) => {
    const at = [...path, i];
    const own = index?.subtree(at) ?? new globalThis.Map<string, NodePosition>();
    if (!isMap(entry) || !Object.hasOwn(entry, 'include')) {
      expanded.push(entry);
      placed.push({ subtree: own, file: undefined });
      return;
    }
    for (const other of Object.keys(entry)) {
      if (other !== 'include') lift.problems.add(lift.origin, [...at, other], 'invalid-value', `an external entry with include is replaced by the fragment's calls list (as in Orkestra); "${other}" would be ignored, so write it in the fragment`, { at: 'key' });
    }
    if (lift.context.baseDirGiven === false) {
      lift.problems.add(lift.origin, [...at, 'include'], 'unreadable-file', `include "${String(entry.include)}" names a file relative to the definition, but this text was parsed without a file: use loadDefinition(file), or pass parseDefinition(text, { source }) or { baseDir }`);
      return;
    }
    const fragment = readFragment(lift, entry, at, 'external', 'calls');
    if (fragment === undefined) return;
    const { origin } = fragment.document;
    const calls = fragment.value.calls;
    if (calls === undefined || calls === null) return;
    if (!Array.isArray(calls)) {
      lift.problems.add(origin, ['calls'], 'invalid-type', `calls in an included external fragment must be a list, got ${describeValue(calls)}`);
      return;
    }
    calls.forEach((call: unknown, j) => {
      if (isMap(call) && Object.hasOwn(call, 'include')) {
        nested(lift, origin, ['calls', j, 'include'], call.include);
        delete call.include;
        if (Object.keys(call).length === 0) return;
      }
      expanded.push(call);
      placed.push({ subtree: origin.positions?.subtree(['calls', j]) ?? new globalThis.Map<string, NodePosition>(), file: origin.file });
    });
  });
  list.splice(0, list.length, ...expanded);
  if (index === undefined) return;
  const listPosition = index.subtree(path).get('');
  index.clear(path);
  if (listPosition !== undefined) index.plant(path, new globalThis.Map([['', listPosition]]));
  placed.forEach(({ subtree, file }, i) => index.plant([...path, i], subtree, file));
}

