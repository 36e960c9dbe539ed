/**
 * The check of `operatorBox.cross` that needs every CRD of the definition: each entry names a CRD declared here
 * (with a did-you-mean otherwise), and gets that CRD's apiVersion and kind, which the runtime watches.
 */
import type { CrdDefinition } from './types.js';
import type { ProblemList } from './problems.js';
import type { CrossDraft } from './box-flow.js';
import { didYouMean, nearest } from './suggest.js';

/** The CRDs with their cross entries resolved; an entry naming no CRD of the definition is a problem. */
export function resolveCross(crds: ReadonlyArray<[string, CrdDefinition]>, drafts: ReadonlyMap<string, readonly CrossDraft[]>, problems: ProblemList): Array<[string, CrdDefinition]> {
  const byName = new Map(crds);
  const names = [...byName.keys()];
  return crds.map(([name, crd]) => {
    const list = drafts.get(name) ?? [];
    if (list.length === 0) return [name, crd];
    const cross = list.flatMap(({ entry, origin, path }) => {
      const target = byName.get(entry.crd);
      if (target === undefined) {
        const suggestion = nearest(entry.crd, names);
        problems.add(origin, [...path, 'crd'], 'unknown-cross-crd', `cross reads "${entry.crd}", which is not a CRD of this definition${didYouMean(suggestion)}`, suggestion === undefined ? {} : { suggestion });
        return [];
      }
      const { group, version, kind } = target.apiTypes;
      return [{ ...entry, apiVersion: group === '' ? version : `${group}/${version}`, kind }];
    });
    return [name, { ...crd, operatorBox: { ...crd.operatorBox, cross } }];
  });
}
