/**
 * Starting and stopping a group of informers that serve one purpose (the extra kinds of `watch` or `cross` entries).
 */
import type { Informer } from './informer.js';

/** Starts every informer; when a first list fails, stops them all and rejects with the first failure. */
export async function startInformers(informers: Iterable<Informer>): Promise<void> {
  const all = [...informers];
  const results = await Promise.allSettled(all.map((informer) => informer.start()));
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed === undefined) return;
  await stopInformers(all);
  throw failed.reason;
}

/** Stops every informer of the group. */
export async function stopInformers(informers: Iterable<Informer>): Promise<void> {
  await Promise.all([...informers].map((informer) => informer.stop()));
}
