/**
 * A watch entry's enqueueGate (Orkestra's `watch[].enqueueGate`): checked in the watch, before a change of the
 * watched kind enqueues any custom resource, as Orkestra checks it in its informer's handlers. A gate passes when
 * one of its sentinels is true, else when its `when` conditions all hold and one of its `anyOf` holds (an empty
 * gate passes) — preReconcile's rule, on the watched object:
 *
 * - the sentinels compare the watched object's old and new state of an update event (Orkestra computes them from
 *   the informer's oldObj and newObj); a create or a delete has every sentinel true (the object appeared or went);
 * - the conditions read the watched object (`.metadata`, `.data`, `.spec`...) and `.sentinels.<name>`
 *   (`"true"`/`"false"`).
 *
 * A condition whose data does not fit its comparison is false (the gate holds the change back) with a warning that
 * names the condition, not the data; a closed gate drops the change, which is what the gate is for.
 */
import type { Gate } from '../definition/types.js';
import type { InformerEvent } from '../kube/informer.js';
import type { Logger } from '../observe/logger.js';
import { compileConditions, type CompiledConditions, type TemplateDialect, type UserNote } from '../template/index.js';
import { SENTINEL_CHECKS } from './gated-box.js';
import { templateData } from './template-data.js';

export interface WatchGateOptions {
  /** The entry's document path, for messages (`spec.crds.app.operatorBox.watch[0]`). */
  readonly path: string;
  readonly dialect?: TemplateDialect | undefined;
  readonly notes?: readonly UserNote[] | undefined;
  readonly logger: Logger;
  /** The clock the conditions' clock notes read (`timeAgo`, `timeInWindow`...): the runtime's; default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

export class WatchGate {
  private readonly conditions: CompiledConditions;

  /** Compiles the gate's conditions; throws a TemplateError when one does not compile. */
  constructor(
    private readonly gate: Gate,
    private readonly options: WatchGateOptions,
  ) {
    const { dialect, notes, now } = options;
    this.conditions = compileConditions(
      { when: gate.when, anyOf: gate.anyOf },
      { name: `${options.path}.enqueueGate`, ...(dialect === undefined ? {} : { dialect }), ...(notes === undefined ? {} : { notes }), ...(now === undefined ? {} : { now }) },
    );
  }

  /** Whether this change of the watched object may enqueue custom resources. */
  passes(event: InformerEvent): boolean {
    const now = event.object.metadata ?? {};
    const old = event.type === 'updated' ? event.old?.metadata : undefined;
    const sentinels: Record<string, string> = {};
    for (const [name, check] of Object.entries(SENTINEL_CHECKS)) sentinels[name] = old === undefined || check(old, now) ? 'true' : 'false';
    if (this.gate.sentinels.length > 0) return this.gate.sentinels.some((name) => sentinels[name] === 'true');
    const verdict = this.conditions.evaluate(templateData(event.object, {}, { sentinels }, this.options.dialect));
    for (const warning of verdict.warnings) this.options.logger.warn('watch enqueueGate condition', { watch: this.options.path, warning });
    return verdict.ok;
  }
}
