/**
 * The check of autoscale conditions on another CRD's figures (`cross.<crd>.metrics.<figure>`) that needs every CRD
 * of the definition: `<crd>` names a CRD declared here (with a did-you-mean otherwise), as Orkestra's in-process
 * registry of autoscale metrics is keyed by CRD name (case aside). A CRD of another process is not readable; when
 * the entry's own `cross` block names that CRD (Orkestra's route to another process's figures), the cross entry's
 * error says so and this check adds none.
 */
import type { CrdDefinition } from './types.js';
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
        if (drafts.get(raw.name)?.some(({ entry }) => entry.crd.toLowerCase() === crd.toLowerCase()) === true) return;
        const suggestion = nearest(crd, names);
        problems.add(
          raw.origin,
          [...raw.path, 'operatorBox', 'autoscale', 'conditions', block, index, 'field'],
          'unknown-cross-crd',
          `autoscale reads the figures of "${crd}", which is not a CRD of this definition (another process's figures are not read)${didYouMean(suggestion)}`,
          suggestion === undefined ? {} : { suggestion },
        );
      });
    }
  }
}
