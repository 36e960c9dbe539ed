/**
 * Komposer (SPEC §2.3): `spec.imports.files` (Orkestra's `spec.sources.files` is accepted as an alias) names
 * Katalogs relative to the Komposer; inline `spec.crds` entries override imported entries field by field (an
 * Orkestra Komposer over an Orkestra Katalog: nested, komposer-merge.ts) or add CRDs. The same CRD in two
 * imported files is an error naming both; a Komposer may not import a Komposer.
 */
import type { Path } from './path.js';
import type { Origin } from './problems.js';
import { collectCrds, mergeCrd, type RawCrd } from './crd-entries.js';
import { mergeOrkestraCrd, mergesNested } from './komposer-merge.js';
import { documentKind, readDocument, type LoadContext } from './documents.js';
import { checkSchema, isMap } from './schema-check.js';
import { KatalogSchema, type KatalogInput, type KomposerInput } from './schema.js';
import type { Loose } from './operator-box.js';
import { resolve } from 'node:path';
import { liftDocument } from './orkestra-lift.js';
import type { DeclaredNote } from './notes.js';

/** The raw CRD entries of a checked Komposer, imports first (file order), then CRDs added inline. */
export function composeCrds(komposer: Loose<KomposerInput>, origin: Origin, context: LoadContext, noteGroups: DeclaredNote[][] = []): RawCrd[] {
  const { problems } = context;
  const spec = komposer.spec ?? {};
  if (spec.imports !== undefined && spec.sources !== undefined) {
    problems.add(origin, ['spec', 'sources'], 'alias-conflict', 'spec.sources is an alias of spec.imports; set only one of them', { at: 'key' });
  }
  const listKey = spec.imports !== undefined ? 'imports' : 'sources';
  const files = (spec.imports ?? spec.sources)?.files ?? [];
  const crds: RawCrd[] = [];
  const declaredIn = new Map<string, string>();
  const seenFiles = new Map<string, string>();
  files.forEach((written, index) => {
    if (written === undefined) return;
    const path: Path = ['spec', listKey, 'files', index];
    const absolute = resolve(origin.baseDir, written);
    const earlier = seenFiles.get(absolute);
    if (earlier !== undefined) {
      problems.add(origin, path, 'duplicate-import', `"${written}" is imported twice (also as "${earlier}")`);
      return;
    }
    seenFiles.set(absolute, written);
    for (const raw of importKatalog(written, origin, path, context, noteGroups)) {
      const other = declaredIn.get(raw.name);
      if (other !== undefined) {
        problems.add(raw.origin, [...raw.path], 'duplicate-crd', `CRD "${raw.name}" is declared in both "${other}" and "${written}"; each CRD must come from exactly one imported file (override it inline instead)`, { at: 'key' });
        continue;
      }
      declaredIn.set(raw.name, written);
      crds.push(raw);
    }
  });
  const inline = collectCrds(spec.crds, { ...origin, source: 'komposer' }, ['spec', 'crds'], { problems, fileFinalizers: [], complete: false });
  for (const override of inline) {
    const at = crds.findIndex((raw) => raw.name === override.name);
    const base = crds[at];
    if (base === undefined) crds.push(override);
    else crds[at] = mergesNested(base, override) ? mergeOrkestraCrd(base, override) : mergeCrd(base, override);
  }
  return crds;
}

/** Reads one imported file, which must be a Katalog, and returns its entries. */
function importKatalog(written: string, from: Origin, path: Path, context: LoadContext, noteGroups: DeclaredNote[][]): RawCrd[] {
  const { problems } = context;
  const document = readDocument(written, from, path, context);
  if (document === undefined) return [];
  const kind = documentKind(document.value, document.origin, problems);
  if (kind === 'Komposer') {
    problems.add(from, path, 'komposer-imports-komposer', `"${written}" is a Komposer; a Komposer can import only Katalogs`);
    return [];
  }
  if (kind === 'Motif') {
    problems.add(from, path, 'wrong-kind', `"${written}" is a Motif; a Komposer imports Katalogs (Motifs are imported by CRD entries)`);
    return [];
  }
  if (kind !== 'Katalog') return [];
  const lifted = liftDocument(document.value, kind, document.origin, context);
  if (lifted.notes.length > 0) noteGroups.push(lifted.notes.map((declared) => ({ ...declared, from: `"${written}"` })));
  const katalog = checkSchema(KatalogSchema, lifted.value, [], problems, lifted.origin) as Loose<KatalogInput> | undefined;
  if (!isMap(katalog)) return [];
  const fileFinalizers = (katalog.spec?.finalizers ?? []).filter((f): f is string => f !== undefined);
  return collectCrds(katalog.spec?.crds, lifted.origin, ['spec', 'crds'], { problems, fileFinalizers, complete: true });
}
