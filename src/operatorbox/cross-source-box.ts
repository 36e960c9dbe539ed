/**
 * `cross[].source` at reconcile time: before the box runs for a live object, the entries read over HTTP
 * (cross-source.ts) are read and kept for that key, so that the templates and the status fields of the cycle see
 * them as `.cross.<as>` (through {@link CrossSourceStage.data}), beside the entries read from informers. A failed
 * read is Orkestra's empty value (reported by the reads' `onFailure`); the delete path reads nothing.
 */
import type { KubeObject } from '../kube/resource.js';
import { keyOf } from '../kube/resource.js';
import type { TemplateDialect } from '../template/index.js';
import type { CrossSourceReads } from './cross-source.js';
import { wrapStage, type BoxInput, type BoxOutput, type OperatorBoxStage } from './stage.js';
import { templateData } from './template-data.js';

export class CrossSourceStage {
  /** The last answers of each key, by `as`. */
  private readonly results = new Map<string, Readonly<Record<string, unknown>>>();

  constructor(
    private readonly reads: CrossSourceReads,
    private readonly dialect: TemplateDialect | undefined,
  ) {}

  /** The `.cross` entries of `object` read over HTTP (none before its first cycle). */
  data(object: KubeObject): Readonly<Record<string, unknown>> {
    return this.results.get(keyOf(object)) ?? {};
  }

  /** The box that reads before `inner`. */
  wrap(inner: OperatorBoxStage): OperatorBoxStage {
    return wrapStage(inner, { before: (input) => this.reconcile(inner, input), forget: (key) => this.results.delete(key) });
  }

  private async reconcile(inner: OperatorBoxStage, input: BoxInput): Promise<BoxOutput> {
    const data = templateData(input.object, {}, {}, this.dialect);
    this.results.set(input.key, await this.reads.read(input.object, data, input.signal));
    return inner.reconcile(input);
  }
}

/** `data` with `.cross` holding both the entries already there and `remote`'s (the informers' keys kept). */
export function withRemoteCross<T extends Readonly<Record<string, unknown>>>(data: T, remote: Readonly<Record<string, unknown>>): T {
  if (Object.keys(remote).length === 0) return data;
  const cross = data['cross'];
  return { ...data, cross: { ...(cross !== null && typeof cross === 'object' ? cross : {}), ...remote } };
}
