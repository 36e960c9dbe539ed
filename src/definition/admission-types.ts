/**
 * The admission part of the normalised definition (validation, mutation, deletion protection): what
 * `admission/` reads. Re-exported by types.ts, the contract with the rest.
 */

import type { Condition, ExternalCall } from './types.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export type ValidationOperator =
  | 'exists' | 'notExists' | 'equals' | 'notEquals' | 'prefix' | 'notPrefix' | 'suffix' | 'notSuffix' | 'contains'
  | 'notContains' | 'regex' | 'gt' | 'lt' | 'gte' | 'lte' | 'between' | 'notBetween' | 'in' | 'notIn' | 'unique';

/** One validation rule: `field` compared with `value` by `operator`; a failure denies (or warns) with `message`. */
export interface ValidationRule {
  /** A dot path into the object, or a template whose result is compared. */
  readonly field: string;
  readonly operator: ValidationOperator;
  /** The comparison value as text (may be a template); '' for exists / notExists. */
  readonly value: string;
  /** Shown to the client that is refused; may be a template. */
  readonly message: string;
  readonly action: 'deny' | 'warn';
  readonly when: readonly Condition[];
  readonly anyOf: readonly Condition[];
  /** Whether the rule is checked by the admission webhook / at reconcile time (Orkestra's `fires`). */
  readonly atAdmission: boolean;
  readonly atReconcile: boolean;
  /** The rule's document path, for messages. */
  readonly path: string;
}

/** One mutation rule: set `field` to `value` (rendered when it is a template), always or only when empty. */
export interface MutationRule {
  readonly field: string;
  /** `default`: only when the field is absent or ""; `override`: always. */
  readonly change: 'default' | 'override';
  readonly value: string | number | boolean;
  /** How a rendered text is written; absent: a literal keeps its type, a rendered text is a string. */
  readonly valueType?: 'string' | 'int' | 'float' | 'bool';
  readonly when: readonly Condition[];
  readonly anyOf: readonly Condition[];
  readonly atAdmission: boolean;
  readonly atReconcile: boolean;
  readonly path: string;
}

/**
 * An external call of the validation or mutation rules (`validation.external`, `mutation.external`): made by the
 * admission router before the rules, and (validation, unless `fires.reconcile: false`) before reconcile-time
 * validation (docs/orkestra-compatibility.md#admission-external-calls).
 */
export interface AdmissionCall extends ExternalCall {
  readonly atReconcile: boolean;
}

/** A CRD's admission rules (docs/admission.md). */
export interface AdmissionRules {
  readonly validation: readonly ValidationRule[];
  readonly mutation: readonly MutationRule[];
  /** `validation.external`: made before the validation rules; absent when none are declared. */
  readonly validationExternal?: readonly AdmissionCall[];
  /** `mutation.external`: made before the mutation rules (admission only); absent when none are declared. */
  readonly mutationExternal?: readonly AdmissionCall[];
  /** Operations the validating and mutating webhooks are registered for (default CREATE, UPDATE). */
  readonly operations: readonly AdmissionOperation[];
  /** Whether the CRD is in the validating / mutating webhook configuration (`webhooks.validation` / `.mutation`). */
  readonly validate: boolean;
  readonly mutate: boolean;
  /** Refuse DELETE of custom resources labelled `orkestra.io/deletion-protection: "true"` (the mutating webhook labels new ones). */
  readonly protectDelete: boolean;
}
