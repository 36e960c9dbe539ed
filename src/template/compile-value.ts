/**
 * compileValue(): every string leaf of a JSON-like tree that contains actions becomes a template; the
 * compiled tree renders to a new tree. Object keys are never templated.
 */
import { TemplateError } from '../errors.js';
import { type CompileOptions, compileInternal, hasTemplateActions, type TemplateData } from './compile-template.js';
import { templateError } from './failure.js';
import { resolveLimits } from './limits.js';
import { ReadTable } from './fast-operands.js';
import { createState } from './state.js';
import { constant, dynamic, definingBuilder, listBuilder, objectBuilder, type Compiled } from './tree-builders.js';

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
  const reads = new ReadTable();

  const build = (node: unknown, path: string, depth = 0): Compiled => {
    if (typeof node === 'string') {
      if (!hasTemplateActions(node)) return constant(node);
      try {
        const template = compileInternal(node, path === '' ? undefined : path, resolved, reads, options?.dialect, options?.notes, options?.now);
        templateCount++;
        return dynamic(template.renderLeaf);
      } catch (error) {
        if (!(error instanceof TemplateError)) throw error;
        onError(error);
        return constant(node);
      }
    }
    if (typeof node !== 'object' || node === null) return constant(node);
    if (node instanceof Date) return dynamic(() => new Date(node.getTime()));
    if (!Array.isArray(node) && !isPlainObject(node)) return dynamic(() => node);
    if (depth >= resolved.maxDepth) {
      onError(templateError('E_TEMPLATE_LIMIT', `value nested deeper than the limit of ${resolved.maxDepth}`, { name: path === '' ? undefined : path, source: '' }, 0));
      return constant(undefined);
    }
    if (ancestors.has(node)) {
      onError(templateError('E_TEMPLATE_SYNTAX', 'the value contains itself', { name: path === '' ? undefined : path, source: '' }, 0));
      return constant(undefined);
    }
    ancestors.add(node);
    try {
      if (Array.isArray(node)) return dynamic(listBuilder(Array.from(node, (item: unknown, i) => build(item, childPath(path, i), depth + 1))));
      const keys = Object.keys(node);
      const children = keys.map((key) => build((node as Record<string, unknown>)[key], childPath(path, key), depth + 1));
      return dynamic(keys.includes('__proto__') ? definingBuilder(keys, children) : objectBuilder(keys, children));
    } finally {
      ancestors.delete(node);
    }
  };

  const root = build(value, base);
  if (root.build === undefined) {
    const rootValue = root.value;
    return { templateCount, render: () => rootValue };
  }
  const rootBuild = root.build;
  const context = { maxLength: resolved.maxOutputBytes, maxDepth: resolved.maxDepth, now: options?.now ?? ((): number => Date.now()) };
  const slots = reads.size;
  return {
    templateCount,
    render(data: TemplateData): unknown {
      return rootBuild(createState(resolved, context, slots), data);
    },
  };
}
