/**
 * The check of `operatorBox.cross` that needs every CRD of the definition: an entry naming a CRD declared here gets
 * that CRD's apiVersion and kind, which the runtime watches (a `source` beside it is Orkestra's fallback for a CRD
 * of another process and is not used: the informer answers, as in Orkestra). An entry naming another CRD must have a
 * `source` (read over HTTP, by name only); otherwise it is a problem with a did-you-mean. An entry written with
 * Orkestra's `labelSelector` gets its CRD here (cross-label-selector.ts), then is checked as one naming it.
 */
import type { CrdDefinition, CrossEntry } from './types.js';
import type { ProblemList } from './problems.js';
import type { CrossDraft } from './box-flow.js';
import { didYouMean, nearest } from './suggest.js';
import { crdByLabelSelector } from './cross-label-selector.js';

/** The CRDs with their cross entries resolved; an entry naming no CRD of the definition is a problem. */
export function resolveCross(crds: ReadonlyArray<[string, CrdDefinition]>, drafts: ReadonlyMap<string, readonly CrossDraft[]>, problems: ProblemList): Array<[string, CrdDefinition]> {
  const byName = new Map(crds);
  const names = [...byName.keys()];
  return crds.map(([name, crd]) => {
    const list = drafts.get(name) ?? [];
    if (list.length === 0) return [name, crd];
    const cross = list.flatMap(({ entry: written, origin, path, labelSelector }): CrossEntry[] => {
      let entry = written;
      if (labelSelector !== undefined) {
        const found = crdByLabelSelector(crds, labelSelector, origin, [...path, 'labelSelector'], problems);
        if (found === undefined) return [];
        entry = { ...written, crd: found };
      }
      const target = byName.get(entry.crd);
      if (target !== undefined) {
        if (entry.name === undefined && entry.matchLabels === undefined) {
          problems.add(origin, path, 'invalid-value', `cross reads "${entry.crd}" of this definition from its informer, which needs exactly one of selector.name and selector.matchLabels`);
          return [];
        }
        const { group, version, kind } = target.apiTypes;
        const { source: _fallback, ...informer } = entry;
        return [{ ...informer, apiVersion: group === '' ? version : `${group}/${version}`, kind }];
      }
      if (Object.hasOwn(entry, 'source')) return overHttp(entry, origin, path, problems);
      const suggestion = nearest(entry.crd, names);
      problems.add(origin, [...path, 'crd'], 'unknown-cross-crd', `cross reads "${entry.crd}", which is not a CRD of this definition; give a source to read it from another process${didYouMean(suggestion)}`, suggestion === undefined ? {} : { suggestion });
      return [];
    });
    return [name, { ...crd, operatorBox: { ...crd.operatorBox, cross } }];
  });
}

/** An entry read from another process: by name only, one answer; undefined source = already reported. */
function overHttp(entry: CrossDraft['entry'], origin: CrossDraft['origin'], path: CrossDraft['path'], problems: ProblemList): CrossEntry[] {
  const source = entry.source;
  if (source === undefined) return [];
  const before = problems.items.length;
  if (entry.matchLabels !== undefined) problems.add(origin, [...path, 'selector', 'matchLabels'], 'invalid-value', 'a cross read over HTTP (source) selects by selector.name: another process answers for one custom resource');
  if (entry.strategy === 'all') problems.add(origin, [...path, 'strategy'], 'invalid-value', 'strategy: all cannot be read over HTTP (source): another process answers for one custom resource');
  const perObject = source.protocol === 'cr' || source.protocol === 'events';
  if (source.host !== undefined && perObject && entry.name === undefined) {
    problems.add(origin, [...path, 'selector'], 'invalid-value', `cross source protocol ${source.protocol} reads one custom resource: give selector.name`);
  }
  return problems.items.length > before ? [] : [{ ...entry, apiVersion: '', kind: '' }];
}
