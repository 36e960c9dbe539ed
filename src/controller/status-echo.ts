/**
 * Which status-only updates of a custom resource its reconcile must see (docs/performance.md, "The echo of a status
 * write"; docs/orkestra-compatibility.md#status-echo).
 *
 * The controller skips an update that changes `status` alone: most often it is the echo of the runtime's own status
 * write, which tells the reconcile nothing. Orkestra reconciles on every update (its informer handlers enqueue every
 * Update event; no generation predicate), so a state machine whose status fields and template conditions read the
 * status they write (`current/include-katalog`: `when: status.phase ...`) advances one step per echo there. For an
 * Orkestra document katalog follows the echo when it changed a status key the CRD's operatorBox reads (its
 * templates, conditions and status fields: `.status.<key>`, `field: status.<key>`; a read of the whole status counts
 * as every key). It is bounded:
 * - an echo whose read keys did not change is skipped, and a render that writes the same status writes nothing (the
 *   status write compares first), so a steady resource costs no request and no reconcile;
 * - at most {@link MAX_ECHO_CHAIN} echoes of one object are followed in a row; any other trigger of the object (an
 *   update beyond its status, a child's event, the resync) starts a new chain. A status that changes on every render
 *   (a counter over its own value) therefore moves on with the resync instead of looping. The first echo refused
 *   by a full chain is reported once per chain (`onCapped`; the runtime logs it as a warning), so a definition whose
 *   status never settles is visible instead of stalling silently.
 * A `katalog.dev/v1` document keeps the skip (its templates read the status the cycle started with; a hook or
 * constructor that needs another pass returns `requeueAfter`).
 */
import type { CrdDefinition } from '../definition/types.js';
import type { KubeObject } from '../kube/resource.js';
import { sameJson } from './only-status-changed.js';

/** Consecutive status echoes of one object followed before the chain waits for another trigger. */
export const MAX_ECHO_CHAIN = 16;

/** A chain whose cap was reached and reported: no echo is followed, and the cap is not reported again. */
const CAPPED = -1;

/** Whether a status-only update changed something the reconcile reads. */
export type StatusEcho = (old: KubeObject, next: KubeObject) => boolean;

/** Every key of the status is read (`.status` as a whole, `index .status "x"`, `field: status`). */
const WHOLE = '*';

/** `.status.key` or `.status` in a template (not `.children.x.status`): the key, or none for the whole status. */
const TEMPLATE_READ = /(?<![\w\])])\.status\b(?:\.([A-Za-z_][\w-]*))?/g;
/** `field: status.key` (or `.status.key`) in a condition, as the model keeps it (JSON of the box). */
const CONDITION_READ = /"field":"\.?status(?:\.([A-Za-z_][\w-]*))?[".[]/g;

/** The status keys an Orkestra CRD's operatorBox reads, or undefined when it reads none (or is katalog.dev/v1). */
export function statusReads(crd: CrdDefinition): ReadonlySet<string> | undefined {
  if (crd.templateDialect !== 'orkestra') return undefined;
  const text = JSON.stringify(crd.operatorBox);
  const keys = new Set<string>();
  for (const pattern of [TEMPLATE_READ, CONDITION_READ]) for (const match of text.matchAll(pattern)) keys.add(match[1] ?? WHOLE);
  return keys.size === 0 ? undefined : keys;
}

/** The test for the controller (`ControllerOptions.statusEcho`), or undefined when every status echo is skipped. */
export function statusEchoOf(crd: CrdDefinition): StatusEcho | undefined {
  const reads = statusReads(crd);
  if (reads === undefined) return undefined;
  if (reads.has(WHOLE)) return (old, next) => !sameJson(old['status'], next['status']);
  const keys = [...reads];
  return (old, next) => {
    const before = statusOf(old);
    const after = statusOf(next);
    return keys.some((key) => !sameJson(before[key], after[key]));
  };
}

function statusOf(object: KubeObject): Record<string, unknown> {
  const status = object['status'];
  return typeof status === 'object' && status !== null && !Array.isArray(status) ? (status as Record<string, unknown>) : {};
}

/** Per object, how many status echoes were followed in a row (see the module comment). */
export class EchoChains {
  /** Echoes followed in a row per key; {@link CAPPED} once the cap was reported for the chain. */
  private readonly chains = new Map<string, number>();

  /**
   * @param echo whether a status-only update changed what the reconcile reads
   * @param onCapped called once per chain, with the key, on the first echo that changed a read key but was not
   *   followed because {@link MAX_ECHO_CHAIN} echoes already were
   */
  constructor(
    private readonly echo: StatusEcho,
    private readonly onCapped: (key: string) => void = () => undefined,
  ) {}

  /** Whether to reconcile this status-only update of `key`; counts it when so. */
  follow(key: string, old: KubeObject, next: KubeObject): boolean {
    const length = this.chains.get(key) ?? 0;
    if (length === CAPPED || !this.echo(old, next)) return false;
    if (length >= MAX_ECHO_CHAIN) {
      this.chains.set(key, CAPPED);
      this.onCapped(key);
      return false;
    }
    this.chains.set(key, length + 1);
    return true;
  }

  /** Another trigger of `key` (or its deletion): its next echo starts a new chain. */
  reset(key: string): void {
    if (this.chains.size > 0) this.chains.delete(key);
  }
}
