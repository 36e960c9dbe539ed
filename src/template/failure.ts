/**
 * Internal plumbing for errors: functions and value helpers throw a {@link FunctionFailure}, which knows
 * nothing about positions; the evaluator turns it into a {@link TemplateError} at the failing command.
 */
import { TemplateError } from '../errors.js';
import type { TemplateDialect } from './dialect.js';
import type { NoteTable } from './notes.js';

/** What a built-in function or value helper throws. Never escapes the template module. */
export class FunctionFailure extends Error {
  readonly code: 'E_TEMPLATE_EXEC' | 'E_TEMPLATE_LIMIT';

  constructor(reason: string, code: 'E_TEMPLATE_EXEC' | 'E_TEMPLATE_LIMIT' = 'E_TEMPLATE_EXEC') {
    super(reason);
    this.name = 'FunctionFailure';
    this.code = code;
  }
}

/** Throws the limit failure for a string or value larger than `max` (UTF-16 code units for intermediates). */
export function failTooLarge(what: string, max: number): never {
  throw new FunctionFailure(`${what} is larger than the limit of ${max} bytes`, 'E_TEMPLATE_LIMIT');
}

/** Identifies a template for error messages: its name and source, so offsets can become line and column. */
export interface TemplateSourceInfo {
  readonly name: string | undefined;
  readonly source: string;
  /** The function table the template is compiled against (default `katalog`). */
  readonly dialect?: TemplateDialect;
  /** The user-defined notes the template may call (notes.ts); they win over built-ins of the same name. */
  readonly notes?: NoteTable;
}

/** Converts a 0-based offset into a 1-based line and column (columns count UTF-16 code units). */
export function locate(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), source.length);
  for (let i = 0; i < end; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/** Builds a {@link TemplateError} located at `offset` of the template. */
export function templateError(
  code: string,
  reason: string,
  info: TemplateSourceInfo,
  offset: number,
  cause?: unknown,
): TemplateError {
  const { line, column } = locate(info.source, offset);
  return new TemplateError(code, reason, { template: info.name, line, column }, cause === undefined ? undefined : { cause });
}

/**
 * Converts anything thrown while evaluating at `offset` into a {@link TemplateError}: template errors pass
 * through, function failures keep their code, anything else (a bug, a stack overflow) becomes `E_TEMPLATE_EXEC`.
 */
export function asTemplateError(error: unknown, info: TemplateSourceInfo, offset: number): TemplateError {
  if (error instanceof TemplateError) return error;
  if (error instanceof FunctionFailure) return templateError(error.code, error.message, info, offset);
  let message: string;
  try {
    message = error instanceof Error ? error.message : String(error);
  } catch {
    message = 'an unprintable value was thrown';
  }
  return templateError('E_TEMPLATE_EXEC', `evaluation failed: ${message}`, info, offset, error);
}
