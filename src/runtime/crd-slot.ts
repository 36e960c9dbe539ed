/**
 * The runtime's record of one enabled CRD: its definition, settings, health and, while active, its controller.
 * The phase says where it is in its lifecycle; `recheck` remembers that something changed mid-transition.
 */
import type { CrdDefinition } from '../definition/types.js';
import type { CrdHealth } from '../observe/health.js';
import type { TimerHandle } from '../util/clock.js';
import type { Activated } from './activation.js';
import type { ResolvedSettings } from './settings.js';
import type { RetriesRecord } from './retries-exhausted.js';

export type SlotPhase = 'waiting' | 'activating' | 'active' | 'deactivating';

export interface CrdSlot {
  readonly crd: CrdDefinition;
  readonly settings: ResolvedSettings;
  readonly health: CrdHealth;
  /** `plural.group` of the CustomResourceDefinition, or undefined for built-in kinds (always installed). */
  readonly crdObjectName: string | undefined;
  phase: SlotPhase;
  activated: Activated | undefined;
  /** When the CRD appeared in the cluster (activation latency is measured from then), if it appeared late. */
  appearedAt: number | undefined;
  recheck: boolean;
  retryTimer: TimerHandle | undefined;
  failedActivations: number;
  /** Give-ups after `queue.retryBackoff.maxAttempts`; present only when the CRD declares it. */
  readonly retries?: RetriesRecord;
}
