/**
 * Reconcile-time validation, as Orkestra's generic reconciler does it: before the templates and hooks of a cycle,
 * the CRD's validation rules that fire at reconcile (`fires.reconcile`, the default) are evaluated against the
 * object with the admission router's own evaluator (rules/validation.ts). A `deny` violation halts the cycle: no
 * child is written, no hook runs, and the reconcile fails with a {@link ValidationDeniedError}, so the status says
 * `Ready=False` (`ReconcileError`) and the key is requeued with backoff. `warn` violations do not halt.
 *
 * Two conditions report the result on every status write of such a CRD (Orkestra writes them on every CRD;
 * katalog only where rules fire at reconcile):
 * - `ValidationFailed`: `True` / `DenyRuleViolation` / `validation denied: field "<f>": <message>; ...`,
 *   or `False` / `ValidationPassed` / `""`;
 * - `ValidationWarning`: `True` / `WarnRuleViolation` / `field "<f>": <message>; ...`, or `False` / `NoWarnings`.
 *
 * The conditions carry the rules' rendered messages (they are written to the object itself, as Orkestra does).
 * The error of the reconcile, which reaches logs, the health record and the inspection API, carries each message
 * as the definition writes it, so a message template that quotes the object never leaves it that way.
 *
 * `validation.external` calls that fire at reconcile (not `fires.reconcile: false`) run first, as Orkestra's
 * `applyReconcileTimeValidation` does, and the rules read `.external.<name>`; a call failing without
 * `continueOnError` fails the cycle with its {@link ExternalCallError} (retried with backoff, Ready=False names it).
 */
import { KatalogError } from '../errors.js';
import type { CrdDefinition } from '../definition/types.js';
import type { KubeObject } from '../kube/resource.js';
import { compileValidation, type Peers, type ValidationResult, type Violation } from '../rules/validation.js';
import type { BoxInput, BoxOutput, DeleteOutput, OperatorBoxStage } from './stage.js';
import type { ExternalCalls, ExternalResult } from './external-calls.js';
import type { Logger } from '../observe/logger.js';
import { templateData } from './template-data.js';

/** The reconcile failed because a `deny` rule of the CRD's validation is violated. Code `E_VALIDATION`. */
export class ValidationDeniedError extends KatalogError {
  constructor(message: string) {
    super('E_VALIDATION', message);
    this.name = 'ValidationDeniedError';
  }
}

/** A status condition the validation writes (the runtime keeps `lastTransitionTime` when the status stays). */
export interface ValidationCondition {
  readonly type: 'ValidationFailed' | 'ValidationWarning';
  readonly status: 'True' | 'False';
  readonly reason: 'DenyRuleViolation' | 'ValidationPassed' | 'WarnRuleViolation' | 'NoWarnings';
  readonly message: string;
  readonly lastTransitionTime: string;
}

const MESSAGE_LIMIT = 256;

function cut(message: string): string {
  return message.length <= MESSAGE_LIMIT ? message : `${message.slice(0, MESSAGE_LIMIT - 3)}...`;
}

function listed(violations: readonly Violation[], message: (violation: Violation) => string): string {
  return violations.map((violation) => `field ${JSON.stringify(violation.field)}: ${message(violation)}`).join('; ');
}

/** The rules of one CRD that fire at reconcile, compiled once; results are kept per object for the status write. */
export class ReconcileValidation {
  private readonly validate: (object: Record<string, unknown>) => ValidationResult;
  private readonly results = new WeakMap<KubeObject, ValidationResult>();

  /** Whether the rules read the results of calls (a cycle that failed on them has no result to report). */
  private readonly withCalls: boolean;

  /**
   * Compiles the rules; throws a TemplateError naming the rule when a template does not compile. `now` is the
   * runtime's clock, read by the rules' clock notes.
   */
  constructor(crd: CrdDefinition, peers?: Peers, now?: () => number) {
    this.withCalls = (crd.admission?.validationExternal ?? []).some((call) => call.atReconcile);
    const rules = (crd.admission?.validation ?? []).filter((rule) => rule.atReconcile);
    const compiled = compileValidation(rules, crd.templateDialect, crd.notes, now);
    this.validate = (object) => compiled(object, 'reconcile', peers);
  }

  /** The rules of a CRD that fire at reconcile, or undefined when it has none; `peers` serve `operator: unique`. */
  static of(crd: CrdDefinition, peers?: Peers, now?: () => number): ReconcileValidation | undefined {
    return (crd.admission?.validation ?? []).some((rule) => rule.atReconcile) ? new ReconcileValidation(crd, peers, now) : undefined;
  }

  /** Evaluates the rules against an object (once per object); throws a TemplateError when a rule fails to render. */
  check(object: KubeObject, external?: Readonly<Record<string, ExternalResult>>): ValidationResult {
    const known = this.results.get(object);
    if (known !== undefined) return known;
    const result = this.validate(external === undefined ? (object as Record<string, unknown>) : { ...object, external });
    this.results.set(object, result);
    return result;
  }

  /**
   * The two conditions for the status of `object`. Empty when the rules cannot be evaluated: the reconcile has
   * then failed with that error, which the Ready condition reports.
   */
  conditions(object: KubeObject, now: string): ValidationCondition[] {
    // The calls failed this cycle: its error (Ready=False) says so; the rules were not evaluated.
    if (this.withCalls && !this.results.has(object)) return [];
    let result: ValidationResult;
    try {
      result = this.check(object);
    } catch {
      // Not swallowed: the same evaluation failed the reconcile (ValidatedBox), whose error Ready=False carries.
      return [];
    }
    const { denials, warnings } = result;
    return [
      denials.length > 0
        ? { type: 'ValidationFailed', status: 'True', reason: 'DenyRuleViolation', message: cut(`validation denied: ${listed(denials, (v) => v.message)}`), lastTransitionTime: now }
        : { type: 'ValidationFailed', status: 'False', reason: 'ValidationPassed', message: '', lastTransitionTime: now },
      warnings.length > 0
        ? { type: 'ValidationWarning', status: 'True', reason: 'WarnRuleViolation', message: cut(listed(warnings, (v) => v.message)), lastTransitionTime: now }
        : { type: 'ValidationWarning', status: 'False', reason: 'NoWarnings', message: '', lastTransitionTime: now },
    ];
  }
}

/** The box that validates before the inner box runs; the delete path is never validated (it must stay possible). */
export class ValidatedBox implements OperatorBoxStage {
  constructor(
    private readonly inner: OperatorBoxStage,
    private readonly validation: ReconcileValidation,
    /** `validation.external` calls that fire at reconcile, with the logger of their soft failures. */
    private readonly calls?: { readonly calls: ExternalCalls; readonly logger: Logger; readonly crd: CrdDefinition },
  ) {}

  async reconcile(input: BoxInput): Promise<BoxOutput> {
    const external = await this.external(input);
    const { denials } = this.validation.check(input.object, external);
    if (denials.length > 0) throw new ValidationDeniedError(`validation denied: ${listed(denials, (v) => v.messageAsWritten)}`);
    return this.inner.reconcile(input);
  }

  delete(input: BoxInput): Promise<DeleteOutput> {
    return this.inner.delete(input);
  }

  private async external(input: BoxInput): Promise<Readonly<Record<string, ExternalResult>> | undefined> {
    if (this.calls === undefined) return undefined;
    const { calls, logger, crd } = this.calls;
    return calls.run(input.object, templateData(input.object, {}, {}, crd.templateDialect), input.signal, {}, (error) =>
      // continueOnError: the user asked for the rules to run anyway; they read the result's .error.
      logger.warn('validation external call failed (continueOnError: the rules decide)', { crd: crd.name, key: input.key, call: error.call, reason: error.reason }),
    );
  }

  notFound(key: string, signal: AbortSignal): Promise<DeleteOutput> {
    return this.inner.notFound(key, signal);
  }
}
