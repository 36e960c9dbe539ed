/**
 * kube-apiserver's reinvocation of the mutating admission plugins (admission/reinvocation.go and each plugin's
 * reinvoke context): the mutating chain (the MutatingAdmissionPolicies, then the mutating webhooks) runs once; when
 * any of them changed the object, it runs a second time, in which only the mutators with `reinvocationPolicy:
 * IfNeeded` that ran before a later change are called again. Each plugin keeps its own account of which of its
 * mutators those are; when the object a plugin receives in the second round is not the one it gave out in the
 * first (another plugin changed it since), all its IfNeeded mutators are due again.
 */
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../store/record.js';

/** The chain's own flag: whether a second round is needed. */
export interface MutationChain {
  reinvoke: boolean;
}

/** One plugin's account, by a key per mutator (a webhook; a policy, binding and param). */
export class PluginReinvocation<K> {
  private previously = new Set<K>();
  private due = new Set<K>();
  private lastOutput: { readonly object: KubeObject | undefined } | undefined;

  constructor(private readonly chain: MutationChain) {}

  /** Marks the start of `round` (0 or 1), given the object the plugin receives. */
  begin(round: number, object: KubeObject | undefined): void {
    if (round === 1 && (this.lastOutput === undefined || !isDeepStrictEqual(this.lastOutput.object, object))) this.requireReinvoking();
  }

  /** Whether the mutator `key` runs in `round`: always in the first, in the second only when it is due. */
  runs(round: number, key: K): boolean {
    return round === 0 || this.due.has(key);
  }

  /** Records that `key` ran, whether it changed the object, and whether it may run again (`IfNeeded`). */
  ran(key: K, changed: boolean, ifNeeded: boolean): void {
    if (changed) {
      this.requireReinvoking();
      this.chain.reinvoke = true;
    }
    if (ifNeeded) this.previously.add(key);
  }

  /** Marks the end of the plugin's turn, with the object it gives out. */
  end(object: KubeObject | undefined): void {
    this.lastOutput = { object };
  }

  private requireReinvoking(): void {
    for (const key of this.previously) this.due.add(key);
    this.previously = new Set();
  }
}
