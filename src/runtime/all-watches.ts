/**
 * The watches a controller starts before its workers, combined into one: the children's, then the informers of
 * its `watch` and `cross` entries.
 */
import type { ChildWatches } from '../registry/child-watches.js';

export type Watches = Pick<ChildWatches, 'start' | 'stop' | 'synced'>;

/** The children's watches and the informers of the watch and cross entries, as one: the children's first. */
export function allWatches(children: ChildWatches, others: ReadonlyArray<Watches | undefined>): Watches {
  const extra = others.filter((watches): watches is Watches => watches !== undefined);
  if (extra.length === 0) return children;
  return {
    start: async () => {
      await children.start();
      const results = await Promise.allSettled(extra.map((watches) => watches.start()));
      const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (failed !== undefined) {
        await Promise.all([children.stop(), ...extra.map((watches) => watches.stop())]);
        throw failed.reason;
      }
    },
    stop: async () => {
      await Promise.all([children.stop(), ...extra.map((watches) => watches.stop())]);
    },
    get synced() {
      return children.synced && extra.every((watches) => watches.synced);
    },
  };
}
