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

/**
 * The CRDs with each autoscale rule's own sources (`autoscale.sources.<crd>`, Orkestra's condition-level `source`)
 * for CRDs **of this definition** left out: the runtime holds those figures in process (its board), which Orkestra
 * reads first too, so the source would only be fetched to be ignored. As a `cross` entry's source beside a CRD of
 * the definition (cross-targets.ts), it is Orkestra's fallback for another process and is not used here.
 */
export function withoutInProcessSources(crds: ReadonlyArray<[string, CrdDefinition]>): Array<[string, CrdDefinition]> {
  const declared = new Set(crds.map(([name]) => name.toLowerCase()));
  return crds.map(([name, crd]) => {
    const rule = crd.operatorBox.autoscale;
    const sources = rule?.sources;
    if (rule === undefined || sources === undefined || !Object.keys(sources).some((key) => declared.has(key))) return [name, crd];
    const remote = Object.fromEntries(Object.entries(sources).filter(([key]) => !declared.has(key)));
    const { sources: _inProcess, ...rest } = rule;
    const autoscale = Object.keys(remote).length === 0 ? rest : { ...rest, sources: remote };
    return [name, { ...crd, operatorBox: { ...crd.operatorBox, autoscale } }];
  });
}
