/**
 * The check of autoscale conditions on another CRD's figures (`cross.<crd>.metrics.<figure>`) that needs every CRD
 * of the definition: `<crd>` names a CRD declared here (with a did-you-mean otherwise), as Orkestra's in-process
 * registry of autoscale metrics is keyed by CRD name (case aside), or is read from another process: the entry's
 * own `cross` block has an entry for it (by `crd` or `as`, case aside) whose `source` has an `endpoint` or
 * `protocol: metrics`, as Orkestra's autoscaler falls back to (`pkg/runtime/autoscaler/autoscaler.go`), or the
 * rule has a source of its own for it (`autoscale.sources`, Orkestra's condition-level `source`).
 */
import type { CrdDefinition, CrossEntry } from './types.js';
import type { RawCrd } from './crd-entries.js';
import type { ProblemList } from './problems.js';
import type { CrossDraft } from './box-flow.js';
import { didYouMean, nearest } from './suggest.js';

/** Adds a problem for each autoscale condition that reads the figures of a CRD the definition does not declare. */
export function checkAutoscaleCross(raws: readonly RawCrd[], crds: ReadonlyMap<string, CrdDefinition>, drafts: ReadonlyMap<string, readonly CrossDraft[]>, problems: ProblemList): void {
  const names = [...crds.keys()];
  for (const raw of raws) {
    const rule = crds.get(raw.name)?.operatorBox.autoscale;
    if (rule === undefined) continue;
    for (const block of ['when', 'anyOf'] as const) {
      rule[block].forEach((condition, index) => {
        const crd = /^cross\.([^.]+)\.metrics\./.exec(condition.field)?.[1];
        if (crd === undefined || crds.has(crd.toLowerCase())) return;
        if (rule.sources !== undefined && Object.hasOwn(rule.sources, crd.toLowerCase())) return;
        if (remoteFiguresSource(drafts.get(raw.name) ?? [], crd) !== undefined) return;
        const suggestion = nearest(crd, names);
        problems.add(
          raw.origin,
          [...raw.path, 'operatorBox', 'autoscale', 'conditions', block, index, 'field'],
          'unknown-cross-crd',
          `autoscale reads the figures of "${crd}", which is not a CRD of this definition; to read another process's figures, give the condition a source, or a cross entry for it a source with protocol: metrics (or an endpoint)${didYouMean(suggestion)}`,
          suggestion === undefined ? {} : { suggestion },
        );
      });
    }
  }
}

/** The cross entry whose source serves `crd`'s figures (Orkestra's fallback for a condition without its own source). */
export function remoteFiguresSource<T extends { readonly entry: Pick<CrossEntry, 'crd' | 'as' | 'source'> }>(drafts: readonly T[], crd: string): T | undefined {
  const name = crd.toLowerCase();
  return drafts.find(({ entry }) => {
    if (entry.source === undefined) return false;
    if (entry.crd.toLowerCase() !== name && entry.as.toLowerCase() !== name) return false;
    return entry.source.endpoint !== undefined || entry.source.protocol === 'metrics';
  });
}
