/**
 * A whole document (Katalog or Komposer) → the normalised {@link Definition}, with every problem collected.
 * Steps: kind → schema check → CRD entries (map or list; Komposer imports and overrides) → each CRD normalised
 * (Motifs merged, templates checked) → cross targets resolved → dependency checks and start order.
 */
import type { CrdDefinition, Definition } from './types.js';
import type { Origin } from './problems.js';
import { collectCrds, type RawCrd } from './crd-entries.js';
import { documentKind, type LoadContext } from './documents.js';
import { checkSchema } from './schema-check.js';
import { KatalogSchema, KomposerSchema, type KatalogInput, type KomposerInput } from './schema.js';
import { composeCrds } from './komposer.js';
import { normalizeCrd } from './normalize-crd.js';
import { checkGraph, type GraphNode } from './dependencies.js';
import { unique, type Loose } from './operator-box.js';
import { liftDocument } from './orkestra-lift.js';
import { resolveCross } from './cross-targets.js';
import { checkAutoscaleCross, withoutInProcessSources } from './autoscale-cross.js';
import type { CrossDraft } from './box-flow.js';
import { mergeNotes, settleNotes, type DeclaredNote } from './notes.js';
import { normalizeNotification } from './notification.js';

/** Normalises a document; the result is meaningful only when `context.problems` stayed empty. */
export function normalizeDocument(input: unknown, written: Origin, context: LoadContext): Definition | undefined {
  const { problems } = context;
  const kind = documentKind(input, written, problems);
  if (kind === undefined) return undefined;
  const { value, origin, notes } = liftDocument(input, kind, written, context);
  if (kind === 'Motif') {
    problems.add(origin, ['kind'], 'motif-not-importable', 'a Motif is only valid as an import (imports: [{motif: ./file.yaml}] in a CRD entry); load a Katalog or a Komposer');
    return undefined;
  }
  const schema = kind === 'Katalog' ? KatalogSchema : KomposerSchema;
  const checked = checkSchema(schema, value, [], problems, origin) as Loose<KatalogInput | KomposerInput> | undefined;
  if (checked === undefined) return undefined;
  const finalizers = unique((checked.spec?.finalizers ?? []).filter((f): f is string => f !== undefined));
  const noteGroups: DeclaredNote[][] = [];
  const raws: RawCrd[] =
    kind === 'Katalog'
      ? collectCrds(checked.spec?.crds, origin, ['spec', 'crds'], { problems, fileFinalizers: finalizers, complete: true })
      : composeCrds(checked as Loose<KomposerInput>, origin, context, noteGroups);
  if (context.notes !== undefined) settleNotes(mergeNotes(notes, noteGroups, problems), context.notes, problems);
  const normalized: Array<[string, CrdDefinition]> = [];
  const nodes: GraphNode[] = [];
  const drafts = new Map<string, readonly CrossDraft[]>();
  for (const raw of raws) {
    const { crd, node, cross } = normalizeCrd(raw, finalizers, context);
    normalized.push([crd.name, crd]);
    nodes.push(node);
    drafts.set(crd.name, cross);
  }
  const crds = withoutInProcessSources(resolveCross(normalized, drafts, problems));
  checkAutoscaleCross(raws, new Map(crds), drafts, problems);
  const order = checkGraph(nodes, problems) ?? [];
  const notification = normalizeNotification(checked.spec?.notification, origin, ['spec', 'notification'], problems);
  const apiVersion = checked.apiVersion === 'orkestra.orkspace.io/v1' ? 'orkestra.orkspace.io/v1' : 'katalog.dev/v1';
  return {
    apiVersion,
    kind,
    name: checked.metadata?.name ?? '',
    description: checked.metadata?.description,
    crds: new Map(crds),
    order,
    finalizers,
    files: [...context.files],
    ...(notification === undefined ? {} : { notification }),
  };
}
