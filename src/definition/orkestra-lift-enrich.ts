/**
 * Orkestra's `enrich` in katalog's input shape: the struct form's conditions (`- pods: {when: [...], or: [...]}`)
 * take `anyOf` for `or` and the condition shorthand, like every other condition block. Which targets katalog
 * fetches is checked when the entry is normalised (enrich-targets.ts), for both dialects.
 */
import type { Path } from './path.js';
import { isMap } from './schema-check.js';
import { liftConditionBlocks } from './orkestra-lift-box.js';
import type { Lift } from './orkestra-lift-steps.js';

export function liftEnrich(lift: Lift, entry: Record<string, unknown>, path: Path): void {
  const list = entry['enrich'];
  if (!Array.isArray(list)) return;
  list.forEach((item: unknown, index) => {
    if (!isMap(item)) return;
    for (const [name, conditions] of Object.entries(item)) {
      if (isMap(conditions)) liftConditionBlocks(lift, conditions, [...path, 'enrich', index, name]);
    }
  });
}
