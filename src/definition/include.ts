/**
 * Orkestra's `include` (fragments from other files), expanded at load as Orkestra expands it
 * (`pkg/types/includes.go`): the path is relative to the file that names it; a list block (`status.include`,
 * `validation.include`, `mutation.include`) reads the fragment's own list (`fields:` or `rules:`) and puts it
 * before the inline entries; a reconciler block (`reconciler.include` / `reconcile.include`) reads the fragment's
 * `reconciler:` map and fills in the fields the block does not write itself (inline wins).
 *
 * The spliced values keep their place in the fragment: their positions are planted into the document's index
 * tagged with the fragment's file, so a problem found later (schema, templates, conditions) says the fragment's
 * file:line:column. A fragment holds only its block (an unknown key is an error there, as Orkestra's strict
 * decoder refuses it) and cannot include another file: Orkestra expands one level, so an include inside a
 * fragment is an error naming the chain of files — which also means an include cycle cannot form.
 */
import type { Path } from './path.js';
import type { Origin } from './problems.js';
import { readDocument, type ReadDocument } from './documents.js';
import { describeValue, isMap } from './schema-check.js';
import type { Lift } from './orkestra-lift-steps.js';
import type { NodePosition } from './positions.js';

type Map = Record<string, unknown>;

/**
 * Expands `holder.include` of a list block: the fragment's `listKey` list, then the inline one. `block` names the
 * block in messages (`status`, `validation`...).
 */
export function expandListInclude(lift: Lift, holder: Map, path: Path, block: string, listKey: string): void {
  const fragment = readFragment(lift, holder, path, block, listKey);
  if (fragment !== undefined) placeListInclude(lift, holder, path, block, listKey, fragment);
}

/** Puts the `listKey` list of a fragment already read before `holder`'s inline one, positions included. */
export function placeListInclude(lift: Lift, holder: Map, path: Path, block: string, listKey: string, fragment: { value: Map; document: ReadDocument }): void {
  const { value, document } = fragment;
  const included = value[listKey];
  if (included === undefined || included === null) return;
  if (!Array.isArray(included)) {
    lift.problems.add(document.origin, [listKey], 'invalid-type', `${listKey} in an included ${block} fragment must be a list, got ${describeValue(included)}`);
    return;
  }
  const inline = holder[listKey];
  const inlineList = Array.isArray(inline) ? inline : [];
  if (inline !== undefined && inline !== null && !Array.isArray(inline)) return; // the schema check reports the inline value
  holder[listKey] = [...included, ...inlineList];
  const index = lift.origin.positions;
  if (index === undefined) return;
  const at = [...path, listKey];
  const inlinePositions = index.subtree(at);
  index.clear(at);
  const fromFragment = document.origin.positions?.subtree([listKey]) ?? new globalThis.Map<string, NodePosition>();
  if (inlineList.length > 0) fromFragment.delete(''); // the list itself stays where the document writes it
  index.plant(at, fromFragment, document.origin.file);
  const shifted = new globalThis.Map<string, NodePosition>();
  for (const [rest, position] of inlinePositions) {
    if (rest === '' && inlineList.length === 0) continue;
    shifted.set(rest.replace(/^\[(\d+)\]/, (_all, i: string) => `[${Number(i) + included.length}]`), position);
  }
  index.plant(at, shifted);
}

/** Expands `holder.include` of a reconciler block: the fragment's `reconciler:` fields the block does not write. */
export function expandMergeInclude(lift: Lift, holder: Map, path: Path, block: string): void {
  const fragment = readFragment(lift, holder, path, block, 'reconciler');
  if (fragment === undefined) return;
  const { value, document } = fragment;
  const included = value.reconciler;
  if (included === undefined || included === null) return;
  if (!isMap(included)) {
    lift.problems.add(document.origin, ['reconciler'], 'invalid-type', `reconciler in an included fragment must be a map, got ${describeValue(included)}`);
    return;
  }
  if (Object.hasOwn(included, 'include')) {
    nested(lift, document.origin, ['reconciler', 'include'], included.include);
    delete included.include;
  }
  for (const [key, field] of Object.entries(included)) {
    if (Object.hasOwn(holder, key) && holder[key] !== undefined && holder[key] !== null) continue; // inline wins
    holder[key] = field;
    const subtree = document.origin.positions?.subtree(['reconciler', key]);
    if (subtree !== undefined) lift.origin.positions?.plant([...path, key], subtree, document.origin.file);
  }
}

/** Reads the fragment named by `holder.include` (removed from the holder); `undefined` with problems when it cannot. */
export function readFragment(lift: Lift, holder: Map, path: Path, block: string, key: string, also: readonly string[] = []): { value: Map; document: ReadDocument } | undefined {
  if (!Object.hasOwn(holder, 'include')) return undefined;
  const written = holder.include;
  delete holder.include;
  const at = [...path, 'include'];
  if (typeof written !== 'string' || written.trim() === '') {
    lift.problems.add(lift.origin, at, 'invalid-type', `include must be the path of a YAML file (relative to this file), got ${describeValue(written)}`);
    return undefined;
  }
  const document = readDocument(written, lift.origin, at, lift.context);
  if (document === undefined) return undefined;
  const value = document.value;
  if (!isMap(value)) {
    lift.problems.add(document.origin, [], 'invalid-type', `an included ${block} fragment must be a map with "${key}:", got ${describeValue(value)}`);
    return undefined;
  }
  for (const other of Object.keys(value)) {
    if (other === key || also.includes(other)) continue;
    const holds = [key, ...also].map((name) => `"${name}:"`).join(' and ');
    if (other === 'include') nested(lift, document.origin, ['include'], value.include);
    else lift.problems.add(document.origin, [other], 'unknown-field', `unknown field "${other}" in an included ${block} fragment (it holds ${holds} only, as in Orkestra)`, { at: 'key' });
  }
  return { value, document };
}

/** An include inside a fragment: refused with the chain of files (Orkestra expands one level). */
export function nested(lift: Lift, fragment: Origin, path: Path, written: unknown): void {
  const chain = [lift.origin.file ?? 'the definition', fragment.file ?? 'the fragment', typeof written === 'string' ? written : describeValue(written)];
  lift.problems.add(
    fragment,
    path,
    'include-nested',
    `an included file cannot include another (Orkestra expands one level of include): ${chain.join(' → ')}; put the entries in one fragment`,
    { at: 'key' },
  );
}
