/**
 * `operatorBox.autoscale.sources` (katalog's form of Orkestra's condition-level `source` on a
 * `cross.<crd>.metrics.<figure>` condition, `pkg/types/conditions.go` `Condition.Source`): where another process
 * serves a CRD's figures. Orkestra reads them with `ResolveCrossMetric` (`pkg/runtime/autoscaler/
 * autoscale_cross_metrics.go`): the endpoint as written, or `<host>/katalog/<crd>`, and the answer's `metrics`.
 * So a source here reads figures only: `protocol` may be `info` (Orkestra's default) or `metrics`, which name that
 * route; `health`, `cr` and `events` serve no figures and are load errors.
 */
import type { CrossSource } from './cross-types.js';
import type { Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';
import type { Loose } from './operator-box.js';
import type { AutoscaleInput } from './schema-operator-box.js';
import { normalizeCrossSource } from './cross-source.js';

type SourcesInput = NonNullable<Loose<AutoscaleInput>['sources']>;

/** The sources by CRD name in lower case; undefined when none is written (problems reported at their place). */
export function normalizeFigureSources(input: SourcesInput | undefined, origin: Origin, path: Path, problems: ProblemList): Record<string, CrossSource> | undefined {
  if (input === undefined) return undefined;
  const out: Record<string, CrossSource> = {};
  for (const [crd, written] of Object.entries(input)) {
    if (written === undefined) continue;
    const at = [...path, crd];
    const protocol = written.protocol;
    if (protocol !== undefined && protocol !== 'info' && protocol !== 'metrics') {
      problems.add(origin, [...at, 'protocol'], 'invalid-value', `an autoscale figures source reads <host>/katalog/${crd} (protocol info or metrics); protocol ${protocol} serves no figures`);
      continue;
    }
    const key = crd.toLowerCase();
    if (Object.hasOwn(out, key)) {
      problems.add(origin, at, 'invalid-value', `two autoscale sources for "${crd}" (CRD names are compared case aside); keep one`, { at: 'key' });
      continue;
    }
    const source = normalizeCrossSource(written, origin, at, problems);
    if (source !== undefined) out[key] = source;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}
