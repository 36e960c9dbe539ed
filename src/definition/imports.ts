/**
 * Katalog-level `spec.imports` (current Orkestra): Motifs whose `notes` become notes of the whole definition.
 * As in Orkestra, only the notes are taken at this level; a Motif's resources and status are applied by CRD-level
 * `imports`. Their profiles (Orkestra's other Katalog-wide import) join the load's profile registry when each Motif is
 * lifted (orkestra-lift-profiles.ts).
 */
import { resolve } from 'node:path';
import type { Path } from './path.js';
import { documentKind, readDocument, type LoadContext } from './documents.js';
import { isMap } from './schema-check.js';
import type { DeclaredNote } from './notes.js';
import type { Origin } from './problems.js';
import { refusalMessage } from './orkestra-features.js';

type Map = Record<string, unknown>;
/** Lifts a Motif document and returns its notes (injected: orkestra-lift.ts calls back into itself). */
export type LiftMotifNotes = (value: unknown, origin: Origin, context: LoadContext) => DeclaredNote[];

const IMPORT_FIELDS = ['motif', 'with', 'oci', 'version'];

/** Reads and removes `spec.imports` of a lifted Katalog; one group of notes per imported Motif, in order. */
export function takeKatalogImports(spec: Map, origin: Origin, context: LoadContext, liftMotif: LiftMotifNotes): DeclaredNote[][] {
  if (!Object.hasOwn(spec, 'imports')) return [];
  const list = spec.imports;
  delete spec.imports;
  const { problems } = context;
  if (list === null || list === undefined) return [];
  if (!Array.isArray(list)) {
    problems.add(origin, ['spec', 'imports'], 'invalid-type', 'spec.imports must be a list of {motif: ./file.yaml}');
    return [];
  }
  const groups: DeclaredNote[][] = [];
  list.forEach((item: unknown, index) => {
    const path: Path = ['spec', 'imports', index];
    if (!isMap(item) || typeof item.motif !== 'string') {
      problems.add(origin, path, 'invalid-type', 'an import must be a map with motif: <file of a Motif>');
      return;
    }
    for (const key of Object.keys(item)) {
      if (!IMPORT_FIELDS.includes(key)) problems.add(origin, [...path, key], 'unknown-field', `unknown field "${key}" in an import (motif, with)`, { at: 'key' });
    }
    if (item.oci === true || item.motif.includes('://')) {
      const refusal = { feature: 'OCI and remote Motif imports', reason: "they need Orkestra's registry client (ork pull)", anchor: 'komposer-sources' };
      problems.add(origin, [...path, item.oci === true ? 'oci' : 'motif'], 'orkestra-unsupported', refusalMessage(refusal, item.motif));
      return;
    }
    groups.push(motifNotes(item.motif, origin, [...path, 'motif'], context, liftMotif));
  });
  return groups;
}

/** The notes of one Motif file, read once per load however often it is imported at this level. */
function motifNotes(written: string, from: Origin, path: Path, context: LoadContext, liftMotif: LiftMotifNotes): DeclaredNote[] {
  const key = `notes:${resolve(from.baseDir, written)}`;
  if (context.motifs.has(key)) return (context.motifs.get(key) as DeclaredNote[] | undefined) ?? [];
  const document = readDocument(written, from, path, context);
  let notes: DeclaredNote[] = [];
  if (document !== undefined) {
    const kind = documentKind(document.value, document.origin, context.problems);
    if (kind !== undefined && kind !== 'Motif') context.problems.add(from, path, 'wrong-kind', `"${written}" is a ${kind}, not a Motif`);
    else if (kind === 'Motif') notes = liftMotif(document.value, document.origin, context).map((declared) => ({ ...declared, from: `Motif "${written}"` }));
  }
  context.motifs.set(key, notes);
  return notes;
}
