/**
 * Declarative status fields (SPEC §4.6): `status.fields: [{ path, value, when, anyOf }]`, compiled once per CRD
 * activation. On a successful reconcile every field whose conditions hold is written; after a failed one only
 * fields that have conditions (and whose conditions hold) are, so a field can record a failure state without an
 * unconditional field overwriting it. Fields are evaluated in order; a later field wins on the same path.
 *
 * Besides the usual roots, status templates see `.reconcile.ok` (boolean) and `.reconcile.error` (the error
 * message, `""` on success). A value that fails to render is skipped with a warning; a value that renders to
 * nothing (a missing field) leaves the status field as it is. A field with a `type` is written as that type
 * (Orkestra documents default to `string`); a value that does not convert is skipped with a warning. In the
 * Orkestra dialect `.children` is keyed as Orkestra keys it and Motif inputs written as templates render first.
 */
import type { StatusField, StatusFieldType } from '../definition/types.js';
import { hasTemplateInputs } from './template-set.js';
import { orkestraChildren, type ChildrenView } from './template-data.js';
import { RuntimeError } from '../errors.js';
import { compileConditions, compileValue, type CompiledConditions, type CompiledValue, type TemplateData, type TemplateDialect, type UserNote } from '../template/index.js';

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
  readonly type: StatusFieldType | undefined;
  /** Write `""` when the conditions do not hold (Orkestra's clearOnFalse). */
  readonly clearOnFalse: boolean;
  /** `.inputs` of a field imported from a Motif: plain, or compiled when some are templates (Orkestra dialect). */
  readonly inputs: Readonly<Record<string, unknown>> | CompiledValue | undefined;
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

/** Compiles the status fields of a CRD (`now`: the runtime's clock, for the clock notes); throws one RuntimeError listing every problem. */
export function compileStatusFields(crd: string, fields: readonly StatusField[], dialect: TemplateDialect = 'katalog', notes?: readonly UserNote[], now?: () => number): StatusFields {
  const withNotes = { ...(notes === undefined ? {} : { notes }), ...(now === undefined ? {} : { now }) };
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
        value: compileValue(field.value, { name: `${name}.value`, dialect, ...withNotes }),
        conditions: compileConditions({ when: field.when, anyOf: field.anyOf }, { name, dialect, ...withNotes }),
        conditional: field.when.length + field.anyOf.length > 0,
        type: field.type,
        clearOnFalse: field.clearOnFalse === true,
        inputs: dialect === 'orkestra' && hasTemplateInputs(field.inputs) ? compileValue(field.inputs, { name: `${name}.inputs`, dialect, ...withNotes }) : field.inputs,
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
      /** Paths cleared by clearOnFalse; a field that writes a value there wins, whatever the order. */
      const cleared: Array<readonly string[]> = [];
      const written = new Set<string>();
      const children = dialect === 'orkestra' && isChildrenView(data.children) ? orkestraChildren(data.children) : data.children;
      const root = { ...data, children, reconcile: { ok: outcome.ok, error: outcome.ok ? '' : outcome.message } };
      for (const field of compiled) {
        if (!outcome.ok && !field.conditional) continue;
        const scope = field.inputs === undefined ? root : { ...root, inputs: isCompiled(field.inputs) ? field.inputs.render(root) : field.inputs };
        const verdict = field.conditions.evaluate(scope);
        for (const warning of verdict.warnings) warn('status field condition', { field: field.name, warning });
        if (!verdict.ok) {
          if (field.clearOnFalse) cleared.push(field.segments);
          continue;
        }
        let value: unknown;
        try {
          value = field.value.render(scope);
        } catch (error) {
          warn('status field skipped: its value did not render', { field: field.name, error });
          continue;
        }
        if (value === undefined) continue;
        if (field.type !== undefined) {
          const converted = convert(value, field.type);
          if (converted === undefined) {
            warn('status field skipped: its value is not of its type', { field: field.name, type: field.type });
            continue;
          }
          value = converted;
        }
        setPath(out, field.segments, value);
        written.add(field.segments.join('.'));
      }
      for (const segments of cleared) if (!written.has(segments.join('.'))) setPath(out, segments, '');
      return out;
    },
  };
}

function isCompiled(value: unknown): value is CompiledValue {
  return typeof value === 'object' && value !== null && typeof (value as { render?: unknown }).render === 'function';
}

function isChildrenView(value: unknown): value is ChildrenView {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A rendered value as `type` (Orkestra's casts): text as written, whole numbers, numbers, true/false. */
export function convert(value: unknown, type: StatusFieldType): unknown {
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : text ?? (value === null ? '' : JSON.stringify(value));
    case 'int':
      return text !== undefined && /^[-+]?\d+$/.test(text) ? Number(text) : undefined;
    case 'float':
      return text !== undefined && text !== '' && Number.isFinite(Number(text)) ? Number(text) : undefined;
    case 'bool':
      return text === 'true' ? true : text === 'false' ? false : undefined;
  }
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
