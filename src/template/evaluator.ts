/**
 * The evaluator: links a parsed template into closures once, so that rendering is a walk over
 * pre-resolved functions, fields and variable slots. No eval, no Function. Unknown functions and
 * wrong argument counts are found here, at compile time (`E_TEMPLATE_FUNCTION`).
 */
import type { Command, Expression, ParsedTemplate, Pipeline, TemplateNode } from './ast.js';
import { asTemplateError, FunctionFailure, templateError, type TemplateSourceInfo } from './failure.js';
import { lookupFunction, unknownFunctionHint } from './functions.js';
import { formatWith, parseFormat } from './printf.js';
import { CLOCK_EVERY_STEPS } from './limits.js';
import type { RenderState } from './state.js';
import type { NoteTable } from './notes.js';
import { isForbiddenKey, isMap, isTruthy, kindOf, mapKeys, printValue, utf8Length } from './values.js';

/** Computes a value in a render. */
export type Evaluate = (state: RenderState, dot: unknown) => unknown;
/** Runs a node; returns 0 normally, 1 for `break`, 2 for `continue`. */
export type Execute = (state: RenderState, dot: unknown) => number;
type CommandEvaluate = (state: RenderState, dot: unknown, piped: unknown) => unknown;

/** A linked template: `execute` writes text to `state.out`; `value` is set for single-action templates. */
export interface Program {
  readonly execute: Execute;
  readonly value: Evaluate | undefined;
}

const NORMAL = 0;
const BREAK = 1;
const CONTINUE = 2;

/** Links a parsed template. Throws `E_TEMPLATE_FUNCTION` or `E_TEMPLATE_SYNTAX` with positions. */
export function linkProgram(parsed: ParsedTemplate, info: TemplateSourceInfo, maxLength: number): Program {
  return new Linker(info, maxLength).program(parsed);
}

function readOwn(container: unknown, key: string): unknown {
  if (typeof container !== 'object' || container === null || Array.isArray(container)) return undefined;
  return Object.hasOwn(container, key) ? (container as Record<string, unknown>)[key] : undefined;
}

class Linker {
  constructor(
    private readonly info: TemplateSourceInfo,
    private readonly maxLength: number,
  ) {}

  program(parsed: ParsedTemplate): Program {
    const first = parsed.nodes[0];
    const value = parsed.isSingleAction && first?.kind === 'action' ? this.singleValue(first.pipe) : undefined;
    return { execute: this.list(parsed.nodes), value };
  }

  /** The value of a single-action template; `{{ .a.b }}` alone (the most common template) gets a direct reader. */
  private singleValue(pipe: Pipeline): Evaluate {
    const [command] = pipe.commands;
    const head = command?.args[0];
    if (pipe.commands.length !== 1 || command?.args.length !== 1 || head?.kind !== 'fields' || head.base.kind !== 'dot') {
      return this.pipeline(pipe, true);
    }
    const read = this.fields(head.base, head.path);
    const pos = head.pos;
    return (state, dot) => {
      if (++state.steps > state.checkAt) this.budget(state, pos);
      return read(state, dot);
    };
  }

  private fail(code: string, reason: string, offset: number): never {
    throw templateError(code, reason, this.info, offset);
  }

  /** Past `checkAt`: fails when over the step or time budget, else sets the next check. */
  private budget(state: RenderState, offset: number): void {
    if (state.steps > state.limits.maxSteps) {
      throw templateError('E_TEMPLATE_LIMIT', `more than ${state.limits.maxSteps} evaluation steps`, this.info, offset);
    }
    if (performance.now() > state.deadline) {
      throw templateError('E_TEMPLATE_LIMIT', `the render took longer than the limit of ${state.limits.maxRenderMs}ms`, this.info, offset);
    }
    state.checkAt = Math.min(state.limits.maxSteps, state.steps + CLOCK_EVERY_STEPS);
  }

  private list(nodes: readonly TemplateNode[]): Execute {
    const executes = nodes.map((node) => this.node(node));
    const [only] = executes;
    if (executes.length === 1 && only !== undefined) return only;
    return (state, dot) => {
      for (const execute of executes) {
        const signal = execute(state, dot);
        if (signal !== NORMAL) return signal;
      }
      return NORMAL;
    };
  }

  private write(state: RenderState, text: string, bytes: number, offset: number): void {
    state.out += text;
    state.bytes += bytes;
    if (state.bytes > state.limits.maxOutputBytes) {
      throw templateError('E_TEMPLATE_LIMIT', `output larger than the limit of ${state.limits.maxOutputBytes} bytes`, this.info, offset);
    }
  }

  private node(node: TemplateNode): Execute {
    const pos = node.pos;
    switch (node.kind) {
      case 'text': {
        const text = node.text;
        const bytes = Buffer.byteLength(text, 'utf8');
        return (state) => {
          if (++state.steps > state.checkAt) this.budget(state, pos);
          this.write(state, text, bytes, pos);
          return NORMAL;
        };
      }
      case 'action': {
        const evaluate = this.pipeline(node.pipe, true);
        if (node.pipe.decl.length > 0) {
          return (state, dot) => {
            evaluate(state, dot);
            return NORMAL;
          };
        }
        return (state, dot) => {
          const value = evaluate(state, dot);
          let text: string;
          try {
            text = printValue(value, state.context.maxLength, state.context.maxDepth);
          } catch (error) {
            throw asTemplateError(error, this.info, pos);
          }
          this.write(state, text, utf8Length(text), pos);
          return NORMAL;
        };
      }
      case 'if':
      case 'with': {
        const condition = this.pipeline(node.pipe, true);
        const body = this.list(node.list);
        const otherwise = node.elseList === undefined ? undefined : this.list(node.elseList);
        const isWith = node.kind === 'with';
        return (state, dot) => {
          if (++state.steps > state.checkAt) this.budget(state, pos);
          const value = condition(state, dot);
          if (isTruthy(value)) return body(state, isWith ? value : dot);
          return otherwise === undefined ? NORMAL : otherwise(state, dot);
        };
      }
      case 'range':
        return this.range(node);
      case 'break':
        return () => BREAK;
      case 'continue':
        return () => CONTINUE;
    }
  }

  private range(node: Extract<TemplateNode, { kind: 'range' }>): Execute {
    const pos = node.pos;
    const source = this.pipeline(node.pipe, false);
    const body = this.list(node.list);
    const otherwise = node.elseList === undefined ? undefined : this.list(node.elseList);
    const decl = node.pipe.decl;
    const keySlot = decl.length === 2 ? (decl[0]?.slot ?? -1) : -1;
    const valueSlot = decl.length === 2 ? (decl[1]?.slot ?? -1) : decl.length === 1 ? (decl[0]?.slot ?? -1) : -1;
    const turn = (state: RenderState, key: unknown, element: unknown): number => {
      if (++state.iterations > state.limits.maxRangeIterations) {
        throw templateError('E_TEMPLATE_LIMIT', `more than ${state.limits.maxRangeIterations} range iterations`, this.info, pos);
      }
      if (++state.steps > state.checkAt) this.budget(state, pos);
      if (keySlot >= 0) state.vars[keySlot] = key;
      if (valueSlot >= 0) state.vars[valueSlot] = element;
      return body(state, element);
    };
    return (state, dot) => {
      if (++state.steps > state.checkAt) this.budget(state, pos);
      const value = source(state, dot);
      let count = 0;
      if (Array.isArray(value)) {
        count = value.length;
        for (let i = 0; i < value.length; i++) if (turn(state, i, value[i]) === BREAK) break;
      } else if (typeof value === 'number') {
        if (!Number.isInteger(value)) this.fail('E_TEMPLATE_EXEC', "range can't iterate over a number that is not an integer", pos);
        if (keySlot >= 0) this.fail('E_TEMPLATE_EXEC', "range over a number can't declare two variables", pos);
        count = Math.max(value, 0);
        for (let i = 0; i < value; i++) if (turn(state, i, i) === BREAK) break;
      } else if (isMap(value)) {
        const keys = mapKeys(value);
        count = keys.length;
        for (const key of keys) if (turn(state, key, value[key]) === BREAK) break;
      } else if (value !== undefined && value !== null) {
        this.fail('E_TEMPLATE_EXEC', `range can't iterate over a ${kindOf(value)}`, pos);
      }
      if (count === 0 && otherwise !== undefined) return otherwise(state, dot);
      return NORMAL;
    };
  }

  /** A pipeline's value; when `assign`, also stores it in the declared variables. */
  private pipeline(pipe: Pipeline, assign: boolean): Evaluate {
    const commands = pipe.commands.map((command, i) => this.command(command, i > 0));
    const [first] = commands;
    if (first === undefined) return this.fail('E_TEMPLATE_SYNTAX', 'empty pipeline', pipe.pos);
    const rest = commands.slice(1);
    const slots = assign ? pipe.decl.map((d) => d.slot) : [];
    if (rest.length === 0 && slots.length === 0) return (state, dot) => first(state, dot, undefined);
    return (state, dot) => {
      let value = first(state, dot, undefined);
      for (const command of rest) value = command(state, dot, value);
      for (const slot of slots) state.vars[slot] = value;
      return value;
    };
  }

  private command(command: Command, piped: boolean): CommandEvaluate {
    const [head, ...rest] = command.args;
    if (head === undefined) return this.fail('E_TEMPLATE_SYNTAX', 'missing command', command.pos);
    if (head.kind === 'function') return this.call(head.name, head.pos, rest, piped);
    const extra = rest[0];
    if (extra !== undefined) this.fail('E_TEMPLATE_SYNTAX', `can't give an argument to a non-function ${describe(head)}`, extra.pos);
    if (head.kind === 'literal' && head.value === null) this.fail('E_TEMPLATE_SYNTAX', 'nil is not a command', head.pos);
    const evaluate = this.expression(head);
    const pos = head.pos;
    return (state, dot) => {
      if (++state.steps > state.checkAt) this.budget(state, pos);
      return evaluate(state, dot);
    };
  }

  private call(name: string, pos: number, argExpressions: readonly Expression[], piped: boolean): CommandEvaluate {
    const notes = this.info.notes;
    if (notes?.has(name) === true) return this.note(notes, name, pos, argExpressions.length + (piped ? 1 : 0));
    const fn = lookupFunction(name, this.info.dialect);
    if (fn === undefined) {
      this.fail('E_TEMPLATE_FUNCTION', `function ${JSON.stringify(name)} not defined${unknownFunctionHint(name)}`, pos);
    }
    const count = argExpressions.length + (piped ? 1 : 0);
    if (count < fn.minArgs || count > fn.maxArgs) {
      const want = fn.minArgs === fn.maxArgs ? `${fn.minArgs}` : fn.maxArgs === Infinity ? `at least ${fn.minArgs}` : `${fn.minArgs} to ${fn.maxArgs}`;
      this.fail('E_TEMPLATE_FUNCTION', `wrong number of arguments for ${name}: want ${want}, got ${count}`, pos);
    }
    const args = argExpressions.map((e) => this.expression(e));
    const n = args.length;
    if (fn.lazy !== undefined) {
      const stopOn = fn.lazy === 'or';
      return (state, dot, pipedValue) => {
        if (++state.steps > state.checkAt) this.budget(state, pos);
        let value: unknown;
        for (const arg of args) {
          value = arg(state, dot);
          if (isTruthy(value) === stopOn) return value;
        }
        return piped ? pipedValue : value;
      };
    }
    let invoke = fn.call;
    const format = argExpressions[0];
    if (name === 'printf' && format?.kind === 'literal' && typeof format.value === 'string') {
      let parsed;
      try {
        parsed = parseFormat(format.value, this.maxLength);
      } catch (error) {
        const code = error instanceof FunctionFailure && error.code === 'E_TEMPLATE_LIMIT' ? 'E_TEMPLATE_LIMIT' : 'E_TEMPLATE_FUNCTION';
        throw templateError(code, error instanceof Error ? error.message : 'printf: bad format', this.info, format.pos);
      }
      if (parsed.argumentCount !== count - 1) {
        this.fail('E_TEMPLATE_FUNCTION', `printf: the format has ${parsed.argumentCount} verbs but ${count - 1} arguments are given`, pos);
      }
      const ready = parsed;
      invoke = (values, context) => formatWith(ready, values.slice(1), context.maxLength, context.maxDepth);
    }
    return (state, dot, pipedValue) => {
      if (++state.steps > state.checkAt) this.budget(state, pos);
      const values = new Array<unknown>(piped ? n + 1 : n);
      for (let i = 0; i < n; i++) values[i] = (args[i] as Evaluate)(state, dot);
      if (piped) values[n] = pipedValue;
      let result: unknown;
      try {
        result = invoke(values, state.context);
      } catch (error) {
        throw asTemplateError(error, this.info, pos);
      }
      // A call can be costly in one step (a 1 MiB `replace`): the next step reads the clock.
      state.checkAt = state.steps;
      return result;
    };
  }

  /** A call of a user-defined note: no arguments; renders the note against `$` in this render (notes.ts). */
  private note(notes: NoteTable, name: string, pos: number, count: number): CommandEvaluate {
    if (count !== 0) this.fail('E_TEMPLATE_FUNCTION', `wrong number of arguments for ${name}: want 0 (a note takes no arguments), got ${count}`, pos);
    notes.referenced(name);
    return (state) => {
      if (++state.steps > state.checkAt) this.budget(state, pos);
      try {
        return notes.evaluate(name, state);
      } catch (error) {
        throw asTemplateError(error, this.info, pos);
      }
    };
  }

  private expression(expression: Expression): Evaluate {
    switch (expression.kind) {
      case 'literal': {
        const value = expression.value;
        return () => value;
      }
      case 'dot':
        return (_state, dot) => dot;
      case 'root':
        return (state) => state.root;
      case 'variable': {
        const slot = expression.ref.slot;
        return (state) => state.vars[slot];
      }
      case 'function': {
        const call = this.call(expression.name, expression.pos, [], false);
        return (state, dot) => call(state, dot, undefined);
      }
      case 'pipeline':
        return this.pipeline(expression.pipe, true);
      case 'fields':
        return this.fields(expression.base, expression.path);
    }
  }

  private fields(baseExpression: Expression, path: readonly string[]): Evaluate {
    const base = this.expression(baseExpression);
    if (path.some(isForbiddenKey)) {
      return (state, dot) => {
        base(state, dot);
        return undefined;
      };
    }
    const fromDot = baseExpression.kind === 'dot';
    const [a = '', b = ''] = path;
    if (path.length === 1) return fromDot ? (_state, dot) => readOwn(dot, a) : (state, dot) => readOwn(base(state, dot), a);
    if (path.length === 2) {
      return fromDot ? (_state, dot) => readOwn(readOwn(dot, a), b) : (state, dot) => readOwn(readOwn(base(state, dot), a), b);
    }
    return (state, dot) => {
      let value = fromDot ? dot : base(state, dot);
      for (const key of path) {
        value = readOwn(value, key);
        if (value === undefined) return undefined;
      }
      return value;
    };
  }
}

function describe(expression: Expression): string {
  switch (expression.kind) {
    case 'literal':
      return JSON.stringify(expression.value);
    case 'fields':
      return `.${expression.path.join('.')}`;
    case 'variable':
      return expression.ref.name;
    case 'root':
      return '$';
    case 'dot':
      return '.';
    default:
      return 'value';
  }
}
