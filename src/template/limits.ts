/**
 * Resource limits of one template render, and how options override them.
 */
import { TemplateError } from '../errors.js';

/** Bounds on one render. Every limit, when exceeded, fails the render with `E_TEMPLATE_LIMIT`. */
export interface TemplateLimits {
  /** Largest output of a render in UTF-8 bytes; also the largest string any function may build. Default 1 MiB. */
  maxOutputBytes: number;
  /** Total `range` iterations of one render, over all loops together. Default 10 000. */
  maxRangeIterations: number;
  /** Deepest nesting of control structures and parentheses, and of values printed, compared or copied. Default 64. */
  maxDepth: number;
  /** Evaluation steps (actions, commands, loop turns) of one render. Default 1 000 000. */
  maxSteps: number;
  /**
   * Wall-clock time of one render in milliseconds. Default 250. The clock is read every few dozen evaluation steps
   * (and only by the evaluator, not by the fast paths, which cannot loop), so a render may overrun by the time of
   * those steps. Unlike the other limits it depends on the machine: keep it well above what your templates need.
   */
  maxRenderMs: number;
}

/** The limits used when a caller gives none. */
export const DEFAULT_TEMPLATE_LIMITS: Readonly<TemplateLimits> = Object.freeze({
  maxOutputBytes: 1024 * 1024,
  maxRangeIterations: 10_000,
  maxDepth: 64,
  maxSteps: 1_000_000,
  maxRenderMs: 250,
});

const LIMIT_NAMES = ['maxOutputBytes', 'maxRangeIterations', 'maxDepth', 'maxSteps', 'maxRenderMs'] as const;

/** How many evaluation steps pass between two readings of the clock for `maxRenderMs`. */
export const CLOCK_EVERY_STEPS = 32;

/**
 * Merges caller overrides into the defaults. A limit must be a positive number (`Infinity` is allowed);
 * anything else is rejected with `E_TEMPLATE_LIMIT`, naming the template.
 */
export function resolveLimits(overrides: Partial<TemplateLimits> | undefined, template: string | undefined): TemplateLimits {
  if (overrides === undefined) return { ...DEFAULT_TEMPLATE_LIMITS };
  const limits = { ...DEFAULT_TEMPLATE_LIMITS };
  for (const key of LIMIT_NAMES) {
    const value = overrides[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) {
      throw new TemplateError('E_TEMPLATE_LIMIT', `limits.${key} must be a positive number, got ${String(value)}`, {
        template,
        line: 1,
        column: 1,
      });
    }
    limits[key] = value;
  }
  return limits;
}
