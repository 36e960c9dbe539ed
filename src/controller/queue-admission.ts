/**
 * The conditional drops of `queue.behaviour` (definition/queue-types.ts), decided when a key is enqueued: once the
 * keys waiting reach a rule's share of the queue bound, a new key is dropped only when the rule's conditions hold
 * over its custom resource as the informer has cached it (Orkestra evaluates them over the event's object, in its
 * informer, before the item enters the queue). A key that no rule drops is admitted, past the bound too when the
 * queue has no hard bound (`unbounded`). Keys already waiting are never dropped (adding them changes nothing), and
 * neither is a key whose object is not cached (a deletion under way): there is nothing to evaluate, and a deletion
 * must reach its finalizers.
 *
 * A condition that cannot be evaluated (its data does not fit the comparison) is false, so the key is admitted,
 * with a warning log line that names the rule: a wrong rule must not silently shed load.
 */
import type { QueueBehaviour } from '../definition/queue-types.js';
import type { KubeObject } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import { templateData } from '../operatorbox/template-data.js';
import { compileConditions, type TemplateDialect, type UserNote } from '../template/index.js';

interface CompiledDrop {
  readonly percent: number;
  holds(object: KubeObject): boolean;
}

export interface QueueAdmissionOptions {
  /** The custom resource a key names, from the informer's cache. */
  readonly objectOf: (key: string) => KubeObject | undefined;
  readonly dialect?: TemplateDialect | undefined;
  readonly notes?: readonly UserNote[] | undefined;
  /** Where a condition's warning goes. */
  readonly logger: Logger;
}

export class QueueAdmission {
  /** No hard bound: keys the rules admit wait past `maxDepth`. */
  readonly unbounded: boolean;
  private readonly rules: readonly CompiledDrop[];

  /** Compiles the rules' conditions; throws a TemplateError when one does not compile. */
  constructor(
    behaviour: QueueBehaviour,
    private readonly options: QueueAdmissionOptions,
  ) {
    this.unbounded = behaviour.unbounded;
    const { dialect, notes, logger } = options;
    this.rules = [...behaviour.drops]
      .sort((a, b) => a.percent - b.percent)
      .map((drop) => {
        const conditions = compileConditions({ when: drop.when, anyOf: drop.anyOf }, { name: drop.path, ...(dialect === undefined ? {} : { dialect }), ...(notes === undefined ? {} : { notes }) });
        return {
          percent: drop.percent,
          holds: (object: KubeObject): boolean => {
            const verdict = conditions.evaluate(templateData(object, {}, {}, dialect));
            for (const warning of verdict.warnings) logger.warn('queue.behaviour condition', { rule: drop.path, warning });
            return verdict.ok;
          },
        };
      });
  }

  /** The depth from which the first rule applies, for a queue bound of `maxDepth` (Infinity without rules). */
  firstDepth(maxDepth: number): number {
    const first = this.rules[0];
    return first === undefined ? Infinity : depthOf(first.percent, maxDepth);
  }

  /** Whether a new key must be dropped while `waiting` keys wait and the queue bound is `maxDepth`. */
  drops(key: string, waiting: number, maxDepth: number): boolean {
    let object: KubeObject | undefined;
    for (const drop of this.rules) {
      // Rules are sorted by depth: once one has not started, none of the later ones has.
      if (waiting < depthOf(drop.percent, maxDepth)) return false;
      object ??= this.options.objectOf(key);
      if (object === undefined) return false;
      if (drop.holds(object)) return true;
    }
    return false;
  }
}

/** The depth at which a rule of `percent` of `maxDepth` starts (at least 1 key). */
function depthOf(percent: number, maxDepth: number): number {
  return Math.max(1, Math.ceil((maxDepth * percent) / 100));
}
