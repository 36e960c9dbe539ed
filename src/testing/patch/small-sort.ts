/**
 * Sorting the few elements of one level of a field set or one object's managedFields: an insertion sort in place
 * for short arrays (V8's `Array.prototype.sort` allocates its work state on every call, several hundred bytes for
 * an array of three), `Array.prototype.sort` for longer ones. Stable, as `Array.prototype.sort` is.
 */
const SHORT = 16;

/** Sorts `items` in place by `compare` and returns it. */
export function sortSmall<T>(items: T[], compare: (a: T, b: T) => number): T[] {
  if (items.length > SHORT) return items.sort(compare);
  for (let i = 1; i < items.length; i++) {
    const item = items[i] as T;
    let j = i - 1;
    while (j >= 0 && compare(items[j] as T, item) > 0) {
      items[j + 1] = items[j] as T;
      j--;
    }
    items[j + 1] = item;
  }
  return items;
}
