/**
 * Another process's load figures for an autoscale rule (`cross.<crd>.metrics.<figure>` of a CRD this definition
 * does not declare), read over HTTP as Orkestra's autoscaler reads them (`pkg/runtime/autoscaler/
 * autoscale_cross_metrics.go`): through the CRD entry's `cross` entry for that CRD (by `crd` or `as`) whose source
 * has an `endpoint` or `protocol: metrics`, or the rule's own source for it (`autoscale.sources`, Orkestra's
 * condition-level `source`, which comes first as in Orkestra); `GET <host>/katalog/<crd>` (or the endpoint as written), and the answer's
 * `metrics` object. Values are numbers or numeric text; others are left out (the condition on them is false).
 *
 * A CRD this runtime runs is read from the runtime's board first, as Orkestra's registry comes first (the loader
 * keeps a source only on entries naming a CRD the definition does not declare).
 * {@link RemoteFigures.refresh} reads them before each evaluation (with the source's `cacheFor`, the external
 * calls' cache); a failed read leaves the CRD without figures, so its conditions are false (Orkestra reads ""),
 * and is reported through `onFailure` (a warning and a metric), never silently.
 */
import { remoteFiguresSource } from '../definition/autoscale-cross.js';
import type { CrdDefinition, CrossEntry, CrossSource } from '../definition/types.js';
import { crossFigureCrds } from '../controller/autoscaler.js';
import type { ExternalCalls, HttpResult, SecretReader } from '../operatorbox/external-calls.js';
import type { ExternalHttpRequest, ExternalHttpResponse } from '../operatorbox/external-http.js';
import { routeOf, sourceGet } from '../operatorbox/cross-source.js';

export interface RemoteFiguresOptions {
  readonly crd: CrdDefinition;
  readonly readSecret: SecretReader;
  readonly now: () => number;
  readonly onFailure: (entry: CrossEntry, reason: string) => void;
  readonly request?: ((input: ExternalHttpRequest) => Promise<ExternalHttpResponse>) | undefined;
}

interface Remote {
  readonly entry: CrossEntry;
  readonly call: ExternalCalls;
}

export class RemoteFigures {
  private readonly remotes = new Map<string, Remote>();
  private readonly figures = new Map<string, Readonly<Record<string, number>>>();

  constructor(private readonly options: RemoteFiguresOptions) {
    const { crd } = options;
    const rule = crd.operatorBox.autoscale;
    if (rule === undefined) return;
    const drafts = (crd.operatorBox.cross ?? []).map((entry) => ({ entry }));
    for (const name of crossFigureCrds(rule)) {
      const own = rule.sources?.[name.toLowerCase()];
      const entry = own === undefined ? remoteFiguresSource(drafts, name)?.entry : ownEntry(crd.name, name, own);
      const source = entry?.source;
      if (entry === undefined || source === undefined) continue;
      const url = source.endpoint ?? routeOf(source.host ?? '', entry.crd, 'metrics', '', '');
      // No custom resource here: a Secret without a namespace of its own is not readable (the read fails).
      const call = sourceGet(`spec.crds.${crd.name}.operatorBox.cross.${entry.as}`, entry, url, { ...options, dialect: crd.templateDialect, notes: crd.notes });
      this.remotes.set(name.toLowerCase(), { entry, call });
    }
  }

  /** Whether the rule reads any CRD over HTTP. */
  get size(): number {
    return this.remotes.size;
  }

  /** The figures of the last read of `crd` (lower case); undefined when it is not remote or the read failed. */
  read(crd: string): Readonly<Record<string, number>> | undefined {
    return this.figures.get(crd);
  }

  /** Reads every remote CRD's figures now (or from the cache); never rejects for an HTTP failure. */
  async refresh(signal: AbortSignal): Promise<void> {
    for (const [name, { entry, call }] of this.remotes) {
      const results = await call.run({ metadata: {} }, {}, signal);
      const figures = figuresOf(results['read'] as HttpResult | undefined);
      if (typeof figures === 'string') {
        this.figures.delete(name);
        if (!signal.aborted) this.options.onFailure(entry, figures);
      } else this.figures.set(name, figures);
    }
  }
}

/** A rule's own source for `crd` (Orkestra's condition-level source) as the cross entry the reads and messages name. */
function ownEntry(reader: string, crd: string, source: CrossSource): CrossEntry {
  return { crd, apiVersion: '', kind: '', as: crd, name: undefined, namespace: undefined, matchLabels: undefined, strategy: 'first', source, path: `spec.crds.${reader}.operatorBox.autoscale.sources.${crd}` };
}

/** The answer's `metrics` as numbers, or the reason there are none. */
function figuresOf(result: HttpResult | undefined): Record<string, number> | string {
  if (result === undefined) return 'no answer';
  if (result.error !== '') return result.error;
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.body);
  } catch {
    return 'the answer is not JSON';
  }
  const metrics = (parsed as { metrics?: unknown } | null)?.metrics;
  if (metrics === null || typeof metrics !== 'object' || Array.isArray(metrics)) return 'the answer has no metrics object';
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(metrics as Record<string, unknown>)) {
    const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
    if (Number.isFinite(number)) out[key] = number;
  }
  return out;
}
