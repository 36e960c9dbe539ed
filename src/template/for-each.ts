/**
 * forEach items (Orkestra's `pkg/children/foreach.go` and the resolver's WithItem / WithItemAndValue): the
 * data one child of a forEach entry renders against. Pure.
 *
 * - A list gives one item per element, in order: `.item` (and `.<as>`) is the element, `.index` its position.
 * - A map gives one item per key, keys sorted: `.item` (and `.<as>`) is the key, `.value` the value, `.index`
 *   the position in that order.
 * - Anything else (missing, a text, a number) gives no item.
 */
import { parseFieldPath, resolvePath } from './condition-path.js';

/** What a forEach entry iterates over (the model's EntryForEach). */
export interface ForEachSpec {
  readonly field: string;
  readonly as: string;
}

/** The keys one item adds to the template data. */
export type ForEachScope = Readonly<Record<string, unknown>>;

/** The items of `spec.field` in `data`, each as the keys it adds to the data (see the module comment). */
export function forEachScopes(data: unknown, spec: ForEachSpec): ForEachScope[] {
  const segments = parseFieldPath(spec.field);
  const found = segments === undefined ? undefined : resolvePath(data, segments);
  const named = (item: unknown): Record<string, unknown> => (spec.as === 'item' ? { item } : { item, [spec.as]: item });
  if (Array.isArray(found)) return found.map((item: unknown, index) => ({ ...named(item), index }));
  if (typeof found === 'object' && found !== null) {
    const map = found as Readonly<Record<string, unknown>>;
    return Object.keys(map)
      .sort(compareKeys)
      .map((key, index) => ({ ...named(key), value: map[key], index }));
  }
  return [];
}

/** Go's sort.Strings: by UTF-8 bytes (for keys of one plane, by code units). */
function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
