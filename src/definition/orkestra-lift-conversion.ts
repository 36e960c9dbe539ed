/**
 * A CRD entry's `conversion` as Orkestra writes it (`pkg/types/conversion.go`: `storageVersion`, `paths`,
 * `participant`, `updateCRD`, `include`): `include` is expanded (the fragment's `paths:` before the inline ones, as
 * Orkestra's loader does); the early single-direction form (`from`/`to` with `mapping`, `defaults`, `drop`,
 * `transforms`) is refused by name. Everything else is katalog's own `conversion` block.
 */
import type { Path } from './path.js';
import { expandListInclude } from './include.js';
import { isMap } from './schema-check.js';
import { refuse, type Lift } from './orkestra-lift-steps.js';

const EARLY_FORM = ['from', 'to', 'mapping', 'defaults', 'drop', 'transforms'] as const;

export function liftConversion(lift: Lift, entry: Record<string, unknown>, path: Path): void {
  const conversion = entry['conversion'];
  if (!isMap(conversion)) return;
  const at = [...path, 'conversion'];
  expandListInclude(lift, conversion, at, 'conversion', 'paths');
  for (const key of EARLY_FORM) {
    if (!Object.hasOwn(conversion, key)) continue;
    refuse(lift, conversion, key, at, {
      feature: `conversion.${key} (the early single-direction mapping form)`,
      reason: 'the API server asks for both directions; declare conversion.paths with from, to and the target spec',
      anchor: 'conversion',
    });
  }
}
