/**
 * A Komposer override in Orkestra's sense (docs/orkestra-compatibility.md#komposer-overrides): an inline CRD entry
 * of an Orkestra Komposer is merged into the imported Katalog's entry by nesting, not only field by field.
 *
 * Rules (Orkestra's merger, `mergeCRDEntry` in pkg/merger/merger.go; where it silently drops an override key, the
 * key is merged here instead):
 * - entry fields replace the imported ones one by one (as {@link mergeCrd}); `allowedNamespaces` and
 *   `restrictedNamespaces` are unions (Orkestra adds, never removes);
 * - `operatorBox` merges key by key: the template phases (`onCreate`, `onReconcile`, `onDelete`), `hooks` and
 *   `constructor` replace the imported block whole; `finalizers` is a union; every other map (`status`,
 *   `autoscale`, `preReconcile`...) merges key by key, recursively; lists and scalars replace.
 *
 * The merged box is one Field whose origin is the imported Katalog's with a copy of its position index, into
 * which every part taken from the Komposer is planted with the Komposer's file: a problem found later in the
 * merged box points at the file, line and column where that part is written.
 */
import { mergeCrd, type Field, type RawCrd } from './crd-entries.js';
import type { Path } from './path.js';
import { PositionIndex } from './positions.js';
import { isMap } from './schema-check.js';

type Map = Record<string, unknown>;

/** Box blocks that an override declaring them replaces whole (Orkestra: "the override's onCreate replaces the base onCreate"). */
const WHOLE_BLOCKS: ReadonlySet<string> = new Set(['onCreate', 'onReconcile', 'onDelete', 'hooks', 'constructor']);
/** Box lists that an override adds to (Orkestra: finalizers are additive). */
const UNION_LISTS: ReadonlySet<string> = new Set(['finalizers']);
/** Entry lists that an override adds to (Orkestra: namespace allowances and restrictions are additive). */
const UNION_FIELDS: ReadonlySet<string> = new Set(['allowedNamespaces', 'restrictedNamespaces']);

/** Whether a Komposer override of `base` merges by nesting: both documents are Orkestra's. */
export function mergesNested(base: RawCrd, override: RawCrd): boolean {
  return base.origin.dialect === 'orkestra' && override.origin.dialect === 'orkestra';
}

/** An Orkestra Komposer override merged into the imported entry (see the module comment). */
export function mergeOrkestraCrd(base: RawCrd, override: RawCrd): RawCrd {
  const merged = mergeCrd(base, override);
  const fields = new Map(merged.fields);
  for (const [key, field] of override.fields) {
    const prior = base.fields.get(key);
    if (prior === undefined) continue;
    if (key === 'operatorBox' && isMap(prior.value) && isMap(field.value)) fields.set(key, mergeBox(prior, field));
    else if (UNION_FIELDS.has(key) && Array.isArray(prior.value) && Array.isArray(field.value)) fields.set(key, { ...field, value: union(prior.value, field.value) });
  }
  return { ...merged, fields };
}

/** The imported box with the override's parts merged in; positions of the override's parts planted with its file. */
function mergeBox(base: Field, override: Field): Field {
  const basePositions = base.origin.positions;
  const overridePositions = override.origin.positions;
  const index = basePositions === undefined && overridePositions === undefined ? undefined : new PositionIndex();
  if (index !== undefined && basePositions !== undefined) index.plant([], basePositions.subtree([]));
  const graft = (at: Path, from: Path): void => {
    if (index === undefined) return;
    index.clear(at);
    const written = overridePositions?.subtree(from);
    if (written !== undefined) index.plant(at, written, override.origin.file);
  };
  const value = mergeMaps(base.value as Map, override.value as Map, base.path, override.path, graft, true);
  return { value, origin: { ...base.origin, positions: index }, path: base.path };
}

function mergeMaps(base: Map, override: Map, at: Path, from: Path, graft: (at: Path, from: Path) => void, top: boolean): Map {
  const result: Map = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const prior = result[key];
    const here = [...at, key];
    const there = [...from, key];
    if (top && UNION_LISTS.has(key) && Array.isArray(prior) && Array.isArray(value)) {
      const added = value.filter((item: unknown) => !prior.includes(item));
      added.forEach((item: unknown, offset) => graft([...here, prior.length + offset], [...there, value.indexOf(item)]));
      result[key] = [...prior, ...added];
    } else if ((top && WHOLE_BLOCKS.has(key)) || !isMap(prior) || !isMap(value)) {
      graft(here, there);
      result[key] = value;
    } else {
      result[key] = mergeMaps(prior, value, here, there, graft, false);
    }
  }
  return result;
}

function union(base: readonly unknown[], added: readonly unknown[]): unknown[] {
  return [...base, ...added.filter((item) => !base.includes(item))];
}
