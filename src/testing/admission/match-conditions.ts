/**
 * A webhook's `matchConditions`, as kube-apiserver evaluates them once its rules and selectors matched
 * (webhook/matchconditions/matcher.go): CEL expressions over `object`, `oldObject` (null when there is none) and
 * `request` (the AdmissionRequest without its objects). A condition that is false skips the webhook, whatever the
 * others say; without one, an error (`expression '<expr>' resulted in error: no such key: x`) fails the request with
 * a 403 under `failurePolicy: Fail` and skips the webhook under `Ignore`; all true calls it.
 */
import { evaluate } from '../cel/evaluate.js';
import { CelSyntaxError } from '../cel/lexer.js';
import { CelUnsupported, parseCel, type Expr } from '../cel/parser.js';
import { CelEvalError, fromJson, type CelValue } from '../cel/values.js';
import type { KubeObject } from '../store/record.js';

/** One condition of a webhook. */
export interface MatchCondition {
  readonly name: string;
  readonly expression: string;
}

/** The verdict: call the webhook, skip it, or the errors that make its failure policy decide. */
export type MatchVerdict = { readonly call: boolean } | { readonly errors: readonly string[] };

const parsed = new Map<string, Expr | string>();

const parsedWithPatchTypes = new Map<string, Expr | string>();

/**
 * The parsed expression, or the compilation error kube-apiserver would have refused the configuration with;
 * `patchTypes`: a mutation's, which may construct `Object` and `JSONPatch` values.
 */
export function compiled(expression: string, patchTypes = false): Expr | string {
  const cache = patchTypes ? parsedWithPatchTypes : parsed;
  let result = cache.get(expression);
  if (result === undefined) {
    try {
      result = parseCel(expression, { patchTypes });
    } catch (error) {
      if (!(error instanceof CelSyntaxError || error instanceof CelUnsupported)) throw error;
      result = `compilation error: ${error.message}`;
    }
    cache.set(expression, result);
  }
  return result;
}

/** The verdict of `conditions` on a request whose objects and AdmissionRequest (JSON, as a webhook is sent them) are given. */
export function matchConditionVerdict(conditions: readonly MatchCondition[], object: KubeObject | undefined, oldObject: KubeObject | undefined, request: Record<string, unknown>): MatchVerdict {
  if (conditions.length === 0) return { call: true };
  const variables = new Map<string, CelValue>([
    ['object', fromJson(object ?? null, undefined)],
    ['oldObject', fromJson(oldObject ?? null, undefined)],
    ['request', fromJson(request, undefined)],
  ]);
  return conditionsVerdict(conditions, variables);
}

/** The verdict of `conditions` with the CEL variables given (a policy's have `params` and `variables` too). */
export function conditionsVerdict(conditions: readonly MatchCondition[], variables: ReadonlyMap<string, CelValue>): MatchVerdict {
  const errors: string[] = [];
  for (const condition of conditions) {
    const expr = compiled(condition.expression);
    if (typeof expr === 'string') {
      errors.push(expr);
      continue;
    }
    try {
      // Only a false skips the webhook (matcher.go compares with CEL's False; any other value lets it be called).
      if (evaluate(expr, variables) === false) return { call: false };
    } catch (error) {
      if (!(error instanceof CelEvalError || error instanceof CelUnsupported)) throw error;
      errors.push(`expression '${condition.expression}' resulted in error: ${error.message}`);
    }
  }
  return errors.length === 0 ? { call: true } : { errors };
}

/** The errors of a verdict as one message, as Go's aggregate error writes several (`[a, b]`) and one (itself). */
export function verdictMessage(errors: readonly string[]): string {
  return errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`;
}
