/**
 * Declarative status fields (SPEC §4.6): `status.fields: [{ path, value, when, anyOf }]`, compiled once per CRD
 * activation. On a successful reconcile every field whose conditions hold is written; after a failed one only
 * fields that have conditions (and whose conditions hold) are, so a field can record a failure state without an
 * unconditional field overwriting it. Fields are evaluated in order; a later field wins on the same path.
 *
 * Besides the usual roots, status templates see `.reconcile.ok` (boolean) and `.reconcile.error` (the error
 * message, `""` on success). A value that fails to render is skipped with a warning; a value that renders to
 * nothing (a missing field) leaves the status field as it is.
 */
import type { StatusField } from '../definition/types.js';
import { RuntimeError } from '../errors.js';
import { compileConditions, compileValue, type CompiledConditions, type CompiledValue, type TemplateData } from '../template/index.js';

/** Paths the runtime writes itself. */
const RESERVED = new Set(['conditions', 'observedGeneration']);
const SEGMENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

interface CompiledField {
  readonly name: string;
  readonly segments: readonly string[];
  readonly value: CompiledValue;
  readonly conditions: CompiledConditions;
  readonly conditional: boolean;
}

export interface StatusFields {
  readonly count: number;
  /**
   * The status fields to write, as a nested object to merge into `.status`. `data` is the template data (object and
   * children); `outcome` says how the reconcile went.
   */
  evaluate(
    data: TemplateData,
    outcome: { readonly ok: true } | { readonly ok: false; readonly message: string },
    warn: (message: string, fields: Readonly<Record<string, unknown>>) => void,
  ): Record<string, unknown>;
}

/** Compiles the status fields of a CRD; throws one RuntimeError listing every problem. */
export function compileStatusFields(crd: string, fields: readonly StatusField[]): StatusFields {
  const problems: string[] = [];
  const compiled: CompiledField[] = [];
  fields.forEach((field, index) => {
    const name = `spec.crds.${crd}.operatorBox.status.fields[${index}]`;
    const segments = field.path.split('.');
    if (!segments.every((segment) => SEGMENT.test(segment) && !FORBIDDEN.has(segment))) {
      problems.push(`${name}.path: "${field.path}" is not a dot path of field names`);
      return;
    }
    if (RESERVED.has(segments[0] ?? '')) {
      problems.push(`${name}.path: "${field.path}" is written by the runtime itself; choose another path`);
      return;
    }
    try {
      compiled.push({
        name,
        segments,
        value: compileValue(field.value, { name: `${name}.value` }),
        conditions: compileConditions({ when: field.when, anyOf: field.anyOf }, { name }),
        conditional: field.when.length + field.anyOf.length > 0,
      });
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  });
  if (problems.length > 0) throw new RuntimeError('E_TEMPLATES', `CRD ${crd}: status fields cannot be used:\n${problems.map((p) => `  - ${p}`).join('\n')}`);

  return {
    count: compiled.length,
    evaluate(data, outcome, warn) {
      const out: Record<string, unknown> = {};
      const root = { ...data, reconcile: { ok: outcome.ok, error: outcome.ok ? '' : outcome.message } };
      for (const field of compiled) {
        if (!outcome.ok && !field.conditional) continue;
        const verdict = field.conditions.evaluate(root);
        for (const warning of verdict.warnings) warn('status field condition', { field: field.name, warning });
        if (!verdict.ok) continue;
        let value: unknown;
        try {
          value = field.value.render(root);
        } catch (error) {
          warn('status field skipped: its value did not render', { field: field.name, error });
          continue;
        }
        if (value === undefined) continue;
        setPath(out, field.segments, value);
      }
      return out;
    },
  };
}

function setPath(target: Record<string, unknown>, segments: readonly string[], value: unknown): void {
  let node = target;
  segments.forEach((segment, index) => {
    if (index === segments.length - 1) {
      Object.defineProperty(node, segment, { value, enumerable: true, writable: true, configurable: true });
      return;
    }
    const next = Object.hasOwn(node, segment) ? node[segment] : undefined;
    if (typeof next === 'object' && next !== null && !Array.isArray(next)) node = next as Record<string, unknown>;
    else {
      const created: Record<string, unknown> = {};
      Object.defineProperty(node, segment, { value: created, enumerable: true, writable: true, configurable: true });
      node = created;
    }
  });
}
