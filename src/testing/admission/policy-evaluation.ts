/**
 * One ValidatingAdmissionPolicy evaluated for one binding and one param, as kube-apiserver's validator does it
 * (policy/validating/validator.go): its matchConditions first (a false one: no verdict; an error: the failure
 * policy's), then every validation, then the audit annotations' expressions, whose values have nowhere to go here
 * (the test server keeps no audit log) but whose errors deny under `failurePolicy: Fail` as there.
 *
 * The CEL variables are `object`, `oldObject` (null when absent), `request`, `params`, `namespaceObject` and
 * `variables`, whose members are evaluated when first read, in the words of kube-apiserver's composition
 * (`composited variable "x" fails to evaluate: ...`). `authorizer` is not given: an expression that reads it fails.
 */
import { evaluate } from '../cel/evaluate.js';
import { CelUnsupported, type Expr } from '../cel/parser.js';
import { CelEvalError, typeName, type CelKey, type CelValue } from '../cel/values.js';
import type { AdmissionPolicy, PolicyBase } from './admission-policies.js';
import { compiled, conditionsVerdict, verdictMessage } from './match-conditions.js';

/** A denial: its message, and the Status reason it is answered with (kube-apiserver's default is Invalid). */
export interface Denial {
  readonly message: string;
  readonly reason: string;
}

/** kube-apiserver's limit on a messageExpression's result (apis/cel/config.go). */
const MAX_MESSAGE_BYTES = 5 * 1024;

export type Outcome = { readonly value: CelValue } | { readonly error: string };

/**
 * An expression's value, or the error kube-apiserver words (`expression '<e>' resulted in error: ...`); `patchTypes`:
 * a mutation's expression.
 */
export function run(expression: string, scope: ReadonlyMap<string, CelValue>, patchTypes = false): Outcome {
  const expr: Expr | string = compiled(expression, patchTypes);
  if (typeof expr === 'string') return { error: expr };
  return outcome(expr, scope, (error) => `expression '${expression}' resulted in error: ${error}`);
}

/** `expr`'s value over `scope`, or its evaluation error in the words `describe` gives it. */
function outcome(expr: Expr, scope: ReadonlyMap<string, CelValue>, describe: (error: string) => string): Outcome {
  try {
    return { value: evaluate(expr, scope) };
  } catch (error) {
    if (!(error instanceof CelEvalError || error instanceof CelUnsupported)) throw error;
    return { error: describe(errorText(error)) };
  }
}

/** An evaluation error as cel-go's runtime words it: a call no overload fits is a bare `no such overload`. */
function errorText(error: Error): string {
  return error.message.startsWith('no such overload') ? 'no such overload' : error.message;
}

/** The policy's variables, each evaluated once, when first read (policy/cel/composition.go). */
class LazyVariables extends Map<CelKey, CelValue> {
  private readonly results = new Map<string, Outcome>();

  constructor(
    private readonly declared: PolicyBase['variables'],
    private readonly scope: Map<string, CelValue>,
  ) {
    super();
  }

  override has(key: CelKey): boolean {
    return this.declared.some((variable) => variable.name === key);
  }

  override get(key: CelKey): CelValue | undefined {
    const variable = this.declared.find((candidate) => candidate.name === key);
    if (variable === undefined) return undefined;
    let result = this.results.get(variable.name);
    if (result === undefined) {
      const expr = compiled(variable.expression);
      const name = variable.name;
      result = typeof expr === 'string' ? { error: `composited variable "${name}" fails to compile: ${expr}` } : outcome(expr, this.scope, (error) => `composited variable "${name}" fails to evaluate: ${error}`);
      this.results.set(variable.name, result);
    }
    if ('error' in result) throw new CelEvalError(result.error);
    return result.value;
  }
}

/** The CEL inputs of one evaluation, already CEL values. */
export interface PolicyInput {
  readonly object: CelValue;
  readonly oldObject: CelValue;
  readonly request: CelValue;
  readonly params: CelValue;
  readonly namespaceObject: CelValue;
}

/** The CEL variables of one evaluation of `policy`: the inputs, and its `variables`, each evaluated when first read. */
export function policyScope(policy: PolicyBase, input: PolicyInput): ReadonlyMap<string, CelValue> {
  const scope = new Map<string, CelValue>([
    ['object', input.object],
    ['oldObject', input.oldObject],
    ['request', input.request],
    ['params', input.params],
    ['namespaceObject', input.namespaceObject],
  ]);
  scope.set('variables', new LazyVariables(policy.variables, scope));
  return scope;
}

/** The denials of `policy` on the input; an error is one under `failurePolicy: Fail` and nothing under `Ignore`. */
export function policyDenials(policy: AdmissionPolicy, input: PolicyInput): Denial[] {
  const scope = policyScope(policy, input);
  // An error kube-apiserver's failure policy decides: a denial (reason Invalid) under Fail, nothing under Ignore.
  const failed = (message: string): Denial[] => (policy.failurePolicy === 'Fail' ? [{ message, reason: 'Invalid' }] : []);
  if (policy.matchConditions.length > 0) {
    const verdict = conditionsVerdict(policy.matchConditions, scope);
    if ('errors' in verdict) return failed(verdictMessage(verdict.errors));
    if (!verdict.call) return [];
  }
  const denials: Denial[] = [];
  for (const validation of policy.validations) {
    const result = run(validation.expression, scope);
    if ('error' in result) denials.push(...failed(result.error));
    else if (result.value !== true) denials.push({ message: failureMessage(validation, scope), reason: validation.reason });
  }
  for (const annotation of policy.auditAnnotations) {
    const result = run(annotation.valueExpression, scope);
    if ('error' in result) denials.push(...failed(result.error));
    else if (typeof result.value !== 'string' && result.value !== null) {
      denials.push(...failed(`valueExpression '${annotation.valueExpression}' resulted in unsupported return type: ${typeName(result.value)}. Return type must be either string or null.`));
    }
  }
  return denials;
}

/**
 * A failed validation's message: its messageExpression's value when that is a string of one line, not blank and
 * not over 5 KiB; else its message; else `failed expression: <expression>`.
 */
function failureMessage(validation: AdmissionPolicy['validations'][number], scope: ReadonlyMap<string, CelValue>): string {
  if (validation.messageExpression !== '') {
    const result = run(validation.messageExpression, scope);
    // kube-apiserver logs a messageExpression's error and falls back to the message, as here (no log to write to).
    if ('value' in result && typeof result.value === 'string') {
      const message = result.value.trim();
      if (message !== '' && Buffer.byteLength(message) <= MAX_MESSAGE_BYTES && !message.includes('\n')) return message;
    }
  }
  if (validation.message.trim() !== '') return validation.message.trim();
  return `failed expression: ${validation.expression.trim()}`;
}
