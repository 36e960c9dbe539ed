/**
 * Fast actions: the pipelines that fast paths (fast-paths.ts) evaluate without the evaluator — operands,
 * calls of non-lazy built-ins with operand arguments, and pipelines of those — charging the same steps at
 * the same positions as the evaluator. `eq A B` and `printf` with a `%s`/`%v`-only literal format read
 * their operands directly; other calls build an argument list, as the evaluator does.
 */
import type { Command, Pipeline } from './ast.js';
import { asTemplateError, templateError, type TemplateSourceInfo } from './failure.js';
import type { FunctionContext } from './function-type.js';
import { commandOperand, CONSTANT, operand, operandOf, type Operand, type Read, type ReadTable } from './fast-operands.js';
import { lookupFunction } from './functions.js';
import { formatWith, parseFormat, plainFormatter } from './printf.js';
import type { RenderState } from './state.js';
import { isTruthy, valuesEqual } from './values.js';

/** An action's value, charging its steps. */
export type FastAction = (state: RenderState, data: unknown) => unknown;

type Invoke = (values: unknown[], context: FunctionContext) => unknown;

/** A call with operand arguments: its position, how to invoke it, its argument readers. */
interface FastCall {
  readonly pos: number;
  readonly name: string;
  readonly invoke: Invoke;
  readonly args: readonly Read[];
}

/** Links the fast form of pipelines; fast-paths.ts extends it with whole templates. */
export class FastActions {
  constructor(
    protected readonly info: TemplateSourceInfo,
    private readonly maxLength: number,
    protected readonly table: ReadTable,
  ) {}

  /** Fails the render: more steps than the limit, at `offset` (as the evaluator words it). */
  protected stepLimit(state: RenderState, offset: number): never {
    throw templateError('E_TEMPLATE_LIMIT', `more than ${state.limits.maxSteps} evaluation steps`, this.info, offset);
  }

  /** Whether `default` is katalog's here: the `X | default Y` shortcuts use Go's truth, which Orkestra's `default` widens ("<no value>" is empty). */
  protected get baseDefault(): boolean {
    return lookupFunction('default', this.info.dialect) === lookupFunction('default');
  }

  /** A command that calls a built-in function with operand arguments, or `undefined`. */
  private call(command: Command | undefined): FastCall | undefined {
    const head = command?.args[0];
    if (command === undefined || head?.kind !== 'function' || this.info.notes?.has(head.name) === true) return undefined;
    const fn = lookupFunction(head.name, this.info.dialect);
    if (fn === undefined || fn.lazy !== undefined) return undefined;
    const args: Read[] = [];
    for (const expression of command.args.slice(1)) {
      const read = operand(expression, this.table);
      if (read === undefined) return undefined;
      args.push(read);
    }
    let invoke: Invoke = fn.call;
    const format = command.args[1];
    if (head.name === 'printf' && format?.kind === 'literal' && typeof format.value === 'string') {
      // Compiling succeeded, so the format is valid for these arguments (as the evaluator, pre-parsed).
      const parsed = parseFormat(format.value, this.maxLength);
      const plain = plainFormatter(parsed);
      invoke =
        plain === undefined
          ? (values, context) => formatWith(parsed, values.slice(1), context.maxLength, context.maxDepth)
          : (values, context) => plain(values, 1, context.maxLength, context.maxDepth);
    }
    return { pos: head.pos, name: head.name, invoke, args };
  }

  /** `eq A B` and `printf "plain format" A B…` with operand arguments: no argument list, no function call. */
  private direct(command: Command | undefined): FastAction | undefined {
    const head = command?.args[0];
    if (command === undefined || head?.kind !== 'function') return undefined;
    const args: Operand[] = [];
    for (const expression of command.args.slice(1)) {
      const arg = operandOf(expression, this.table);
      if (arg === undefined) return undefined;
      args.push(arg);
    }
    const table = this.table;
    const pos = head.pos;
    const [x, y] = args;
    if (head.name === 'eq' && args.length === 2 && x !== undefined && y !== undefined) {
      return (state, data) => {
        if (++state.steps > state.limits.maxSteps) this.stepLimit(state, pos);
        const a = table.value(state, data, x.slot, x.constant);
        const b = table.value(state, data, y.slot, y.constant);
        try {
          return valuesEqual(a, b, state.context.maxDepth);
        } catch (error) {
          throw asTemplateError(error, this.info, pos);
        }
      };
    }
    const format = x?.slot === CONSTANT ? x.constant : undefined;
    if (head.name !== 'printf' || typeof format !== 'string') return undefined;
    const plain = plainFormatter(parseFormat(format, this.maxLength));
    if (plain === undefined) return undefined;
    const count = args.length;
    return (state, data) => {
      if (++state.steps > state.limits.maxSteps) this.stepLimit(state, pos);
      // Every argument is read before anything is printed, as the evaluator does.
      const values = new Array<unknown>(count);
      for (let i = 1; i < count; i++) {
        const arg = args[i] as Operand;
        values[i] = table.value(state, data, arg.slot, arg.constant);
      }
      try {
        return plain(values, 1, state.context.maxLength, state.context.maxDepth);
      } catch (error) {
        throw asTemplateError(error, this.info, pos);
      }
    };
  }

  /** The fast form of a pipeline, or `undefined` when it has none. */
  action(pipe: Pipeline): FastAction | undefined {
    if (pipe.decl.length > 0) return undefined;
    const [first, second] = pipe.commands;
    const direct = pipe.commands.length === 1 ? this.direct(first) : undefined;
    if (direct !== undefined) return direct;
    const head = commandOperand(first);
    if (pipe.commands.length === 1 && head !== undefined) {
      const read = operand(head, this.table);
      if (read === undefined) return undefined;
      const pos = head.pos;
      return (state, data) => {
        if (++state.steps > state.limits.maxSteps) this.stepLimit(state, pos);
        return read(state, data);
      };
    }
    const piped = this.call(second);
    if (pipe.commands.length === 2 && head !== undefined && piped?.name === 'default' && piped.args.length === 1 && this.baseDefault) {
      return this.pipedDefault(operand(head, this.table), head.pos, piped);
    }
    return this.pipeline(pipe.commands);
  }

  /** `{{ .a | default X }}`, the commonest pipeline: two steps, no argument list. */
  private pipedDefault(read: Read | undefined, readPos: number, call: FastCall): FastAction | undefined {
    const [fallback] = call.args;
    if (read === undefined || fallback === undefined) return undefined;
    const callPos = call.pos;
    return (state, data) => {
      if (++state.steps > state.limits.maxSteps) this.stepLimit(state, readPos);
      const value = read(state, data);
      if (++state.steps > state.limits.maxSteps) this.stepLimit(state, callPos);
      const otherwise = fallback(state, data);
      return isTruthy(value) ? value : otherwise;
    };
  }

  /** Any pipeline of an operand or calls, then calls: one step per command, as the evaluator. */
  private pipeline(commands: readonly Command[]): FastAction | undefined {
    const stages: { pos: number; read: Read | undefined; call: FastCall | undefined }[] = [];
    for (const command of commands) {
      const head = commandOperand(command);
      if (head !== undefined && stages.length === 0) {
        const read = operand(head, this.table);
        if (read === undefined) return undefined;
        stages.push({ pos: head.pos, read, call: undefined });
        continue;
      }
      const call = this.call(command);
      if (call === undefined) return undefined;
      stages.push({ pos: call.pos, read: undefined, call });
    }
    const n = stages.length;
    return (state, data) => {
      let value: unknown;
      for (let s = 0; s < n; s++) {
        const stage = stages[s] as (typeof stages)[number];
        if (++state.steps > state.limits.maxSteps) this.stepLimit(state, stage.pos);
        if (stage.read !== undefined) {
          value = stage.read(state, data);
          continue;
        }
        const call = stage.call as FastCall;
        const count = call.args.length;
        const values = new Array<unknown>(s > 0 ? count + 1 : count);
        for (let i = 0; i < count; i++) values[i] = (call.args[i] as Read)(state, data);
        if (s > 0) values[count] = value;
        try {
          value = call.invoke(values, state.context);
        } catch (error) {
          throw asTemplateError(error, this.info, stage.pos);
        }
      }
      return value;
    };
  }

}
