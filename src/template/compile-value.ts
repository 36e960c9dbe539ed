/**
 * compileValue(): every string leaf of a JSON-like tree that contains actions becomes a template; the
 * compiled tree renders to a new tree. Object keys are never templated.
 */
import { TemplateError } from '../errors.js';
import { type CompileOptions, compileInternal, hasTemplateActions, type TemplateData } from './compile-template.js';
import { templateError } from './failure.js';
import { resolveLimits } from './limits.js';
import { createState, type RenderState } from './state.js';

/** A compiled tree. */
export interface CompiledValue {
  /**
   * Renders a new tree: template leaves are rendered (single-action leaves keep their type), other leaves
   * are copied. A leaf that renders `undefined` (a missing value) is left out: its key is dropped from
   * its object, its item from its list. All leaves share one budget (steps, iterations, output bytes).
   * Throws the {@link TemplateError} of the first failing leaf, named by its path.
   */
  render(data: TemplateData): unknown;
  /** How many leaves are templates. */
  readonly templateCount: number;
}

type Build = (state: RenderState, data: TemplateData) => unknown;

const SIMPLE_KEY = /^[A-Za-z_$][\w$-]*$/;

/** The path of a child: `base.key`, `base["odd key"]`, `base[3]`. */
export function childPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (SIMPLE_KEY.test(key)) return base === '' ? key : `${base}.${key}`;
  return `${base}[${JSON.stringify(key)}]`;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Compiles a tree; throws the first {@link TemplateError}. Leaf templates are named `${name}.a.b[0]`. */
export function compileValue(value: unknown, options?: CompileOptions): CompiledValue {
  return compileValueCollect(value, options, (error) => {
    throw error;
  });
}

/**
 * Compiles a tree, reporting every leaf that fails to compile to `onError` instead of stopping (for a
 * definition loader that lists all problems). A leaf that failed renders as its source text; do not
 * render a value for which errors were reported. Invalid limits and a tree that contains itself are
 * reported as well.
 */
export function compileValueCollect(
  value: unknown,
  options: CompileOptions | undefined,
  onError: (error: TemplateError) => void,
): CompiledValue {
  const base = options?.name ?? '';
  let limits;
  try {
    limits = resolveLimits(options?.limits, options?.name);
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    onError(error);
    limits = resolveLimits(undefined, options?.name);
  }
  const resolved = limits;
  let templateCount = 0;
  const ancestors = new Set<object>();

  const build = (node: unknown, path: string, depth = 0): Build => {
    if (typeof node === 'string') {
      if (!hasTemplateActions(node)) return () => node;
      try {
        const template = compileInternal(node, path === '' ? undefined : path, resolved);
        templateCount++;
        return (state, data) => template.renderIn(state, data);
      } catch (error) {
        if (!(error instanceof TemplateError)) throw error;
        onError(error);
        return () => node;
      }
    }
    if (typeof node !== 'object' || node === null) return () => node;
    if (node instanceof Date) return () => new Date(node.getTime());
    if (!Array.isArray(node) && !isPlainObject(node)) return () => node;
    if (depth >= resolved.maxDepth) {
      onError(templateError('E_TEMPLATE_LIMIT', `value nested deeper than the limit of ${resolved.maxDepth}`, { name: path === '' ? undefined : path, source: '' }, 0));
      return () => undefined;
    }
    if (ancestors.has(node)) {
      onError(templateError('E_TEMPLATE_SYNTAX', 'the value contains itself', { name: path === '' ? undefined : path, source: '' }, 0));
      return () => undefined;
    }
    ancestors.add(node);
    try {
      if (Array.isArray(node)) {
        const items = node.map((item: unknown, i) => build(item, childPath(path, i), depth + 1));
        return (state, data) => {
          const out: unknown[] = [];
          for (const item of items) {
            const rendered = item(state, data);
            if (rendered !== undefined) out.push(rendered);
          }
          return out;
        };
      }
      const keys = Object.keys(node);
      const builds = keys.map((key) => build((node as Record<string, unknown>)[key], childPath(path, key), depth + 1));
      if (keys.includes('__proto__')) {
        return (state, data) => {
          const out: Record<string, unknown> = {};
          for (let i = 0; i < keys.length; i++) {
            const rendered = (builds[i] as Build)(state, data);
            if (rendered !== undefined) {
              Object.defineProperty(out, keys[i] as string, { value: rendered, enumerable: true, writable: true, configurable: true });
            }
          }
          return out;
        };
      }
      return (state, data) => {
        const out: Record<string, unknown> = {};
        for (let i = 0; i < keys.length; i++) {
          const rendered = (builds[i] as Build)(state, data);
          if (rendered !== undefined) out[keys[i] as string] = rendered;
        }
        return out;
      };
    } finally {
      ancestors.delete(node);
    }
  };

  const root = build(value, base);
  return {
    templateCount,
    render(data: TemplateData): unknown {
      const state = createState(resolved, { maxLength: resolved.maxOutputBytes, maxDepth: resolved.maxDepth });
      return root(state, data);
    },
  };
}
