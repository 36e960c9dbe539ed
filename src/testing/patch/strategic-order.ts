/**
 * The order of a merged list after a strategic merge patch, as apimachinery's strategicpatch leaves it: the items
 * the patch (or its `$setElementOrder`) names keep the patch's order, the items only the server has keep the
 * server's order, and the two are interleaved by where the server had them. A new item goes before the server-only
 * items that follow it: patching `env: [{name: Z}]` into `[X, Y]` gives `[Z, X, Y]`; `[{name: Y}, {name: Z}]` into
 * `[X, Y, W]` gives `[X, Y, Z, W]`.
 */
import { goMapValue } from '../go/go-values.js';
import { hasOwn, isJsonObject, jsonEqual } from './json-value.js';
import { PatchError } from './patch-error.js';

/** How an item is identified: by its merge key's value in a list of maps, by itself in a list of primitives. */
function identity(item: unknown, mergeKey: string | undefined): unknown {
  if (mergeKey === undefined) return item;
  return isJsonObject(item) && hasOwn(item, mergeKey) ? item[mergeKey] : undefined;
}

/** The position of `item` in `list` by identity, or -1 (strategicpatch's `index`). */
function indexIn(list: readonly unknown[], item: unknown, mergeKey: string | undefined): number {
  const id = identity(item, mergeKey);
  return list.findIndex((entry) => jsonEqual(identity(entry, mergeKey), id));
}

/** kube-apiserver's error for a list item without its merge key (a 500: it is not a Status error there). */
export function noMergeKey(item: unknown, mergeKey: string): PatchError {
  return new PatchError(`map: ${goMapValue(item)} does not contain declared merge key: ${mergeKey}`, { internal: true });
}

/** Every item of a list of maps must have its merge key (strategicpatch's validateMergeKeyInLists). */
function checkMergeKeys(mergeKey: string, ...lists: (readonly unknown[])[]): void {
  for (const list of lists) for (const item of list) if (!isJsonObject(item) || !hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
}

/**
 * `toSort` ordered by `order`, with Go's `sort.SliceStable` on strategicpatch's comparison (an item `order` does not
 * name compares as less than anything): an insertion sort, which is what Go runs for the short lists patches hold.
 */
function sortedBy(toSort: readonly unknown[], order: readonly unknown[], mergeKey: string | undefined): unknown[] {
  const items = [...toSort];
  const less = (a: unknown, b: unknown): boolean => {
    const ia = indexIn(order, a, mergeKey);
    if (ia >= 0) {
      const ib = indexIn(order, b, mergeKey);
      if (ib >= 0) return ia < ib;
    }
    return true;
  };
  for (let i = 1; i < items.length; i++) {
    for (let j = i; j > 0 && less(items[j], items[j - 1]); j--) [items[j - 1], items[j]] = [items[j], items[j - 1]];
  }
  return items;
}

/** Inserts the server-only items (`left`) into the patch's (`right`) by their places in the server's list. */
function mergeSorted(left: readonly unknown[], right: readonly unknown[], serverOrder: readonly unknown[], mergeKey: string | undefined): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey);
      const ri = indexIn(serverOrder, right[j], mergeKey);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

/**
 * A merged list in kube-apiserver's order (strategicpatch's partition and normalizeElementOrder): the items
 * `patchOrder` names in its order, the others in `serverOrder`'s, interleaved.
 */
export function orderMerged(merged: readonly unknown[], patchOrder: readonly unknown[], serverOrder: readonly unknown[], mergeKey: string | undefined): unknown[] {
  const named: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const item of merged) (indexIn(patchOrder, item, mergeKey) >= 0 ? named : serverOnly).push(item);
  if (mergeKey !== undefined) checkMergeKeys(mergeKey, named, patchOrder);
  return mergeSorted(sortedBy(serverOnly, serverOrder, mergeKey), sortedBy(named, patchOrder, mergeKey), serverOrder, mergeKey);
}

/**
 * Refuses a `$setElementOrder` list that leaves out an item the patch list has, or names them in another order
 * (strategicpatch's validatePatchWithSetOrderList; `$patch: delete` items aside). A 500 there.
 */
export function checkElementOrder(patchList: readonly unknown[], order: readonly unknown[], mergeKey: string | undefined): void {
  if (order.length === 0 || patchList.length === 0) return;
  const kept = mergeKey === undefined ? patchList : patchList.filter((item) => !(isJsonObject(item) && item['$patch'] === 'delete'));
  let p = 0;
  let o = 0;
  while (p < kept.length && o < order.length) {
    const item = kept[p];
    if (isJsonObject(item) && hasOwn(item, '$patch')) {
      p++;
      continue;
    }
    if (mergeKey !== undefined) checkMergeKeys(mergeKey, [item], [order[o]]);
    if (jsonEqual(identity(item, mergeKey), identity(order[o], mergeKey))) p++;
    o++;
  }
  if (p < kept.length) {
    throw new PatchError(`The order in patch list:\n${goMapValue(patchList)}\n doesn't match $setElementOrder list:\n${goMapValue(order)}\n`, { internal: true });
  }
}
