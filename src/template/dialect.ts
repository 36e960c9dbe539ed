/**
 * Template dialects: which function table a template is compiled against. Chosen once per document when it is
 * compiled (the definition's apiVersion decides), never tested while rendering.
 * - `katalog` (katalog.dev/v1): Sprig-style functions (functions.ts).
 * - `orkestra` (Orkestra apiVersions): Orkestra's functions (functions-orkestra.ts) over the same base table,
 *   so that every katalog function Orkestra does not redefine stays available.
 */
import type { TemplateFunction } from './function-type.js';
import { ORKESTRA_FUNCTIONS } from './functions-orkestra.js';

export type TemplateDialect = 'katalog' | 'orkestra';

const ORKESTRA: Readonly<Record<string, TemplateFunction>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, TemplateFunction>, ORKESTRA_FUNCTIONS),
);

/** Names Orkestra defines on top of (or instead of) the katalog table, sorted. */
export const ORKESTRA_FUNCTION_NAMES: readonly string[] = Object.freeze(Object.keys(ORKESTRA).sort());

/** The function `name` as the dialect defines it, or `undefined` to fall back to the base table. */
export function dialectFunction(name: string, dialect: TemplateDialect | undefined): TemplateFunction | undefined {
  return dialect === 'orkestra' && Object.hasOwn(ORKESTRA, name) ? ORKESTRA[name] : undefined;
}
