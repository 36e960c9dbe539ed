/**
 * compileTemplate(): source text to a reusable {@link CompiledTemplate}.
 */
import type { TemplateError } from '../errors.js';
import { asTemplateError, templateError, type TemplateSourceInfo } from './failure.js';
import { linkProgram, type Program } from './evaluator.js';
import { ReadTable } from './fast-operands.js';
import { fastLeaf, type LeafRender } from './fast-paths.js';
import type { FunctionContext } from './function-type.js';
import { resolveLimits, type TemplateLimits } from './limits.js';
import { parseTemplate } from './parser.js';
import { createState, type RenderState } from './state.js';
import { exportValue } from './export-value.js';
import { printValue } from './values.js';
import type { TemplateDialect } from './dialect.js';
import { noteTable, type UserNote } from './notes.js';

/** Options of {@link compileTemplate} and {@link compileValue}. */
export interface CompileOptions {
  /** The template's path in the definition (for example `spec.crds.web.operatorBox.onCreate.deployments[0].image`), used in errors. */
  name?: string;
  /** Overrides of {@link DEFAULT_TEMPLATE_LIMITS}. */
  limits?: Partial<TemplateLimits>;
  /** Function table: `katalog` (Sprig-style, the default) or `orkestra` (documents with an Orkestra apiVersion). */
  dialect?: TemplateDialect;
  /** User-defined notes the templates may call (Orkestra's `notes:`; see notes.ts). */
  notes?: readonly UserNote[];
  /**
   * The clock the clock notes read (`timeAgo`, `weekday`, `nextCron`...: epoch milliseconds), called once per note
   * call. The runtime passes its `clock` option's, so a shifted or fake clock moves templates with the autoscaler and
   * the timers. Default `Date.now`.
   */
  now?: () => number;
}

const SYSTEM_NOW = (): number => Date.now();

/** The data a template sees: `.metadata`, `.spec`, `.status`, `.inputs`, `.children` and whatever else the caller adds. */
export type TemplateData = Readonly<Record<string, unknown>>;

/** A compiled template: compile once, render many times. Rendering never mutates the data. */
export interface CompiledTemplate {
  readonly source: string;
  readonly name: string | undefined;
  /**
   * True when the source is exactly one printing action (`{{ ... }}`, trim markers allowed) with nothing
   * outside it. Then {@link CompiledTemplate.render} returns the value itself (type preservation).
   */
  readonly isSingleAction: boolean;
  /**
   * Renders against `data`. For a single action: the value itself (number, boolean, string, a copy of a
   * list or map, `null`, or `undefined` when the value is missing). Otherwise the text output.
   * Throws a {@link TemplateError} (`E_TEMPLATE_EXEC`, `E_TEMPLATE_LIMIT`) and nothing else.
   */
  render(data: TemplateData): unknown;
  /** Renders to text: for a single action, the value printed as text output prints it (missing is ""). */
  renderString(data: TemplateData): string;
}

const NO_VARIABLES: unknown[] = [];

/** The compiled template, with the internal entry point that compileValue uses to share one budget. */
export class Template implements CompiledTemplate {
  readonly source: string;
  readonly name: string | undefined;
  readonly isSingleAction: boolean;
  /**
   * Renders using (and charging) an existing state: a fast path when the template has one
   * (see fast-paths.ts), else {@link Template.renderIn}. Both give the same results and errors.
   */
  readonly renderLeaf: LeafRender;
  /** Whether {@link Template.renderLeaf} is a fast path (for tests and benchmarks). */
  readonly isFast: boolean;
  private readonly info: TemplateSourceInfo;
  private readonly context: FunctionContext;

  constructor(
    info: TemplateSourceInfo,
    isSingleAction: boolean,
    private readonly program: Program,
    private readonly slotCount: number,
    readonly limits: Readonly<TemplateLimits>,
    fast: LeafRender | undefined,
    private readonly reads: ReadTable,
    now: () => number = SYSTEM_NOW,
  ) {
    this.info = info;
    this.source = info.source;
    this.name = info.name;
    this.isSingleAction = isSingleAction;
    this.context = { maxLength: limits.maxOutputBytes, maxDepth: limits.maxDepth, now };
    this.renderLeaf = fast ?? ((state, data) => this.renderIn(state, data));
    this.isFast = fast !== undefined;
  }

  /** A fresh render state carrying this template's limits. */
  newState(): RenderState {
    return createState(this.limits, this.context, this.reads.size);
  }

  render(data: TemplateData): unknown {
    return this.renderLeaf(this.newState(), data);
  }

  renderString(data: TemplateData): string {
    const state = this.newState();
    const value = this.renderLeaf(state, data);
    if (typeof value === 'string') return value;
    try {
      return printValue(value, state.context.maxLength, state.context.maxDepth);
    } catch (error) {
      throw asTemplateError(error, this.info, 0);
    }
  }

  /** Renders using (and charging) an existing state, always with the general evaluator. */
  renderIn(state: RenderState, data: unknown): unknown {
    state.root = data;
    state.vars = this.slotCount > 0 ? new Array<unknown>(this.slotCount) : NO_VARIABLES;
    try {
      const evaluate = this.program.value;
      if (evaluate !== undefined) return exportValue(state, this.info, evaluate(state, data));
      state.out = '';
      this.program.execute(state, data);
      return state.out;
    } catch (error) {
      throw asTemplateError(error, this.info, 0);
    }
  }

}

/**
 * Compiles a template. Throws a {@link TemplateError}: `E_TEMPLATE_SYNTAX` for malformed text,
 * `E_TEMPLATE_FUNCTION` for an unknown function or a wrong number of arguments, `E_TEMPLATE_LIMIT` when
 * nesting exceeds `maxDepth` or a limit option is invalid. Line and column are 1-based in `source`.
 */
export function compileTemplate(source: string, options?: CompileOptions): CompiledTemplate {
  return compileInternal(source, options?.name, resolveLimits(options?.limits, options?.name), undefined, options?.dialect, options?.notes, options?.now);
}

/**
 * compileTemplate with limits already resolved; returns the concrete class. `reads` is the read table of
 * the fast path (compileValue shares one across the leaves of a tree; a state for `renderLeaf` must have
 * its size); by default the template has its own.
 */
export function compileInternal(
  source: string,
  name: string | undefined,
  limits: Readonly<TemplateLimits>,
  reads = new ReadTable(),
  dialect?: TemplateDialect,
  noteList?: readonly UserNote[],
  now?: () => number,
): Template {
  const notes = noteTable(noteList, dialect);
  const first = notes?.problems[0];
  if (first !== undefined) throw first.error;
  const plain: TemplateSourceInfo = dialect === undefined || dialect === 'katalog' ? { name, source } : { name, source, dialect };
  const info: TemplateSourceInfo = notes === undefined ? plain : { ...plain, notes };
  if (typeof source !== 'string') {
    throw templateError('E_TEMPLATE_SYNTAX', `a template must be a string, got ${typeof source}`, { name, source: '' }, 0);
  }
  const parsed = parseTemplate(info, limits.maxDepth);
  const program = linkProgram(parsed, info, limits.maxOutputBytes);
  const fast = notes?.shadows === true ? undefined : fastLeaf(parsed, info, limits.maxOutputBytes, reads);
  return new Template(info, parsed.isSingleAction, program, parsed.slotCount, limits, fast, reads, now);
}

/** Whether `text` contains template actions (`{{`). Text without them renders as itself. */
export function hasTemplateActions(text: string): boolean {
  return text.includes('{{');
}
