/**
 * A CRD's own backoff of failed reconciles (`queue.retryBackoff`, Orkestra's), laid over the runtime's `rateLimiter`
 * options for that CRD's controller: its initial delay, cap and growth replace the runtime's; the global token
 * bucket (qps, burst) stays the runtime's. Without a cap of its own, the CRD keeps the runtime's cap, raised to its
 * initial delay when that is longer.
 */
import type { CrdDefinition } from '../definition/types.js';
import type { ResolvedOptions } from '../options.js';

type Delays = { baseDelayMs?: number; maxDelayMs?: number; multiplier?: number };

export function crdBackoff(crd: CrdDefinition, runtime: ResolvedOptions['rateLimiter']): Delays {
  const own = crd.retryBackoff;
  if (own === undefined) return {};
  const base = own.baseDelayMs;
  const maxDelayMs = own.maxDelayMs ?? (base === undefined ? undefined : Math.max(runtime.maxDelayMs ?? 1_000_000, base));
  return { ...(base === undefined ? {} : { baseDelayMs: base }), ...(maxDelayMs === undefined ? {} : { maxDelayMs }), ...(own.multiplier === undefined ? {} : { multiplier: own.multiplier }) };
}
