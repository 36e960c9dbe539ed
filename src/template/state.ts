/**
 * The mutable state of one render: the budget counters, the variables and the text output.
 * A fresh state is made per `render()` call (compileValue shares one across the leaves of a tree).
 */
import type { FunctionContext } from './function-type.js';
import { CLOCK_EVERY_STEPS, type TemplateLimits } from './limits.js';

export interface RenderState {
  /** The data (`$`). */
  root: unknown;
  /** Variable slots of the template being rendered. */
  vars: unknown[];
  /** Text output of the template being rendered. */
  out: string;
  /** UTF-8 bytes of output so far (over every template rendered with this state). */
  bytes: number;
  steps: number;
  /** The step count at which the evaluator next checks its budget: steps, then the clock (`maxRenderMs`). */
  checkAt: number;
  /** `performance.now()` after which the render fails with `E_TEMPLATE_LIMIT`. */
  readonly deadline: number;
  iterations: number;
  /** Values the fast paths have read from the data in this render, by slot of a `ReadTable` (fast-operands.ts). */
  readonly reads: unknown[];
  readonly limits: Readonly<TemplateLimits>;
  readonly context: FunctionContext;
}

/** A new state with zeroed counters and `readSlots` empty read slots. */
export function createState(limits: Readonly<TemplateLimits>, context: FunctionContext, readSlots: number): RenderState {
  const checkAt = Math.min(limits.maxSteps, CLOCK_EVERY_STEPS);
  const deadline = limits.maxRenderMs === Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : performance.now() + limits.maxRenderMs;
  return { root: undefined, vars: [], out: '', bytes: 0, steps: 0, checkAt, deadline, iterations: 0, reads: new Array<unknown>(readSlots), limits, context };
}
