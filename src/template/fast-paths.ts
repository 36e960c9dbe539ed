/**
 * Fast paths: templates made only of simple parts are rendered by a few flat closures instead of the
 * evaluator's tree of closures: no variable slots, no expression closures, no writes of text to the state,
 * data reads shared within a render (fast-operands.ts), `%s`/`%v`-only printf formats concatenated directly.
 * A fast path gives exactly what the evaluator gives — the same value, the same steps and output bytes
 * charged in the same order, the same errors at the same positions — so it is purely an optimisation;
 * test/template/fast-paths.test.ts compares both over random templates, data and limits. What qualifies:
 *
 * - operands: literals, `.`, `$`, and fields of `.` or `$` (`.spec.replicas`, `$.metadata.name`);
 * - pipelines of commands whose arguments are operands, without variables: `{{ .a }}`, `{{ .a | default "x" }}`,
 *   `{{ printf "%s-%d" .a 3 }}`, `{{ .a | upper | quote }}`, `{{ eq .a "b" }}` (but not `and`/`or`, which
 *   evaluate lazily, nor parenthesised pipelines);
 * - text, actions and `if`/`else if`/`else` made of the above: `"{{ .metadata.name }}-web"`,
 *   `"{{ if eq .spec.version "latest" }}Always{{ else }}IfNotPresent{{ end }}"`.
 *
 * `with`, `range` and variables change the dot or need slots: such templates use the evaluator.
 */
import type { Command, Expression, ParsedTemplate, TemplateNode } from './ast.js';
import { asTemplateError, templateError, type TemplateSourceInfo } from './failure.js';
import { FastActions, type FastAction } from './fast-actions.js';
import { commandOperand, operandOf, type Operand, type ReadTable } from './fast-operands.js';
import type { RenderState } from './state.js';
import { exportValue } from './export-value.js';
import { isTruthy, printValue, utf8Length } from './values.js';

/** Renders a whole template in a shared state; the result is what `Template.renderIn` returns. */
export type LeafRender = (state: RenderState, data: unknown) => unknown;

/** The text of a list of nodes, charging steps and output bytes piece by piece. */
type FastText = (state: RenderState, data: unknown) => string;

/** Links whole templates: single actions (exported as the evaluator exports them) and text with ifs. */
class FastLinker extends FastActions {
  /** A single action: its value, exported as the evaluator exports it (strings charged, maps and lists copied). */
  single(action: FastAction): LeafRender {
    return (state, data) => {
      try {
        return exportValue(state, this.info, action(state, data));
      } catch (error) {
        // As the evaluator: anything thrown (a limit, a getter in the data) becomes a TemplateError.
        throw asTemplateError(error, this.info, 0);
      }
    };
  }

  /** `{{ .a.b }}` (or a literal) alone, the commonest template of all: one closure, one step, one (shared) read. */
  singleOperand(head: Expression): LeafRender | undefined {
    const operand = operandOf(head, this.table);
    if (operand === undefined) return undefined;
    const { slot, constant, pos } = operand;
    const table = this.table;
    return (state, data) => {
      try {
        if (++state.steps > state.limits.maxSteps) this.stepLimit(state, pos);
        return exportValue(state, this.info, table.value(state, data, slot, constant));
      } catch (error) {
        throw asTemplateError(error, this.info, 0);
      }
    };
  }

  /** `{{ .a.b | default X }}` alone (X an operand): one closure, two steps. */
  singleDefault(first: Command | undefined, second: Command | undefined): LeafRender | undefined {
    const given = operandOf(commandOperand(first), this.table);
    const head = second?.args[0];
    if (given === undefined || head?.kind !== 'function' || head.name !== 'default' || second?.args.length !== 2 || !this.baseDefault) return undefined;
    const fallback = operandOf(second.args[1], this.table);
    if (fallback === undefined) return undefined;
    const table = this.table;
    const callPos = head.pos;
    return (state, data) => {
      try {
        if (++state.steps > state.limits.maxSteps) this.stepLimit(state, given.pos);
        const value = table.value(state, data, given.slot, given.constant);
        if (++state.steps > state.limits.maxSteps) this.stepLimit(state, callPos);
        const otherwise = table.value(state, data, fallback.slot, fallback.constant);
        return exportValue(state, this.info, isTruthy(value) ? value : otherwise);
      } catch (error) {
        throw asTemplateError(error, this.info, 0);
      }
    };
  }

  /** Text and `{{ operand }}` actions only, such as `"{{ .metadata.name }}-web"`: one closure. */
  textOfOperands(list: readonly TemplateNode[]): LeafRender | undefined {
    const texts: (string | undefined)[] = [];
    const bytes: number[] = [];
    const operands: (Operand | undefined)[] = [];
    const positions: number[] = [];
    for (const node of list) {
      if (node.kind === 'text') {
        texts.push(node.text);
        bytes.push(Buffer.byteLength(node.text, 'utf8'));
        operands.push(undefined);
      } else if (node.kind === 'action' && node.pipe.decl.length === 0 && node.pipe.commands.length === 1) {
        const operand = operandOf(commandOperand(node.pipe.commands[0]), this.table);
        if (operand === undefined) return undefined;
        texts.push(undefined);
        bytes.push(0);
        operands.push(operand);
      } else {
        return undefined;
      }
      positions.push(node.pos);
    }
    const table = this.table;
    const n = texts.length;
    return (state, data) => {
      let out = '';
      try {
        for (let i = 0; i < n; i++) {
          const pos = positions[i] as number;
          const text = texts[i];
          let piece: string;
          let size: number;
          if (text !== undefined) {
            if (++state.steps > state.limits.maxSteps) this.stepLimit(state, pos);
            piece = text;
            size = bytes[i] as number;
          } else {
            const operand = operands[i] as Operand;
            if (++state.steps > state.limits.maxSteps) this.stepLimit(state, operand.pos);
            const value = table.value(state, data, operand.slot, operand.constant);
            piece = typeof value === 'string' ? value : this.print(value, state, pos);
            size = utf8Length(piece);
          }
          out += piece;
          this.charge(state, size, pos);
        }
      } catch (error) {
        throw asTemplateError(error, this.info, 0);
      }
      return out;
    };
  }

  /** A value printed as text output prints it; a failure is located at the action. */
  private print(value: unknown, state: RenderState, pos: number): string {
    try {
      return printValue(value, state.context.maxLength, state.context.maxDepth);
    } catch (error) {
      throw asTemplateError(error, this.info, pos);
    }
  }


  /** Text, actions and ifs, in order; `undefined` when a node has no fast form. */
  nodes(list: readonly TemplateNode[]): FastText | undefined {
    const pieces: FastText[] = [];
    for (const node of list) {
      const piece = this.node(node);
      if (piece === undefined) return undefined;
      pieces.push(piece);
    }
    const [only] = pieces;
    if (pieces.length === 1 && only !== undefined) return only;
    const n = pieces.length;
    return (state, data) => {
      let out = '';
      for (let i = 0; i < n; i++) out += (pieces[i] as FastText)(state, data);
      return out;
    };
  }

  private charge(state: RenderState, bytes: number, pos: number): void {
    state.bytes += bytes;
    if (state.bytes > state.limits.maxOutputBytes) {
      throw templateError('E_TEMPLATE_LIMIT', `output larger than the limit of ${state.limits.maxOutputBytes} bytes`, this.info, pos);
    }
  }

  private node(node: TemplateNode): FastText | undefined {
    const pos = node.pos;
    if (node.kind === 'text') {
      const text = node.text;
      const bytes = Buffer.byteLength(text, 'utf8');
      return (state) => {
        if (++state.steps > state.limits.maxSteps) this.stepLimit(state, pos);
        this.charge(state, bytes, pos);
        return text;
      };
    }
    if (node.kind === 'action') {
      const action = this.action(node.pipe);
      if (action === undefined) return undefined;
      return (state, data) => {
        const value = action(state, data);
        const text = typeof value === 'string' ? value : this.print(value, state, pos);
        this.charge(state, utf8Length(text), pos);
        return text;
      };
    }
    if (node.kind !== 'if') return undefined;
    const condition = this.action(node.pipe);
    const body = this.nodes(node.list);
    const otherwise = node.elseList === undefined ? (): string => '' : this.nodes(node.elseList);
    if (condition === undefined || body === undefined || otherwise === undefined) return undefined;
    return (state, data) => {
      if (++state.steps > state.limits.maxSteps) this.stepLimit(state, pos);
      return isTruthy(condition(state, data)) ? body(state, data) : otherwise(state, data);
    };
  }
}

/**
 * The fast renderer of a parsed (and successfully linked) template, or `undefined` when its shape has no
 * fast path. The renderer returns what `Template.renderIn` returns and throws what it throws. Its reads
 * take slots of `table`: render it with a state whose `reads` has `table.size` slots.
 */
export function fastLeaf(parsed: ParsedTemplate, info: TemplateSourceInfo, maxLength: number, table: ReadTable): LeafRender | undefined {
  const linker = new FastLinker(info, maxLength, table);
  const [first] = parsed.nodes;
  if (parsed.isSingleAction && first?.kind === 'action') {
    const commands = first.pipe.commands;
    const head = commands.length === 1 ? commandOperand(commands[0]) : undefined;
    const leaf = head !== undefined ? linker.singleOperand(head) : commands.length === 2 ? linker.singleDefault(commands[0], commands[1]) : undefined;
    if (leaf !== undefined) return leaf;
    const action = linker.action(first.pipe);
    return action === undefined ? undefined : linker.single(action);
  }
  const operandsOnly = linker.textOfOperands(parsed.nodes);
  if (operandsOnly !== undefined) return operandsOnly;
  const text = linker.nodes(parsed.nodes);
  if (text === undefined) return undefined;
  return (state, data) => {
    try {
      return text(state, data);
    } catch (error) {
      // As the evaluator: anything else thrown (a getter in the data) becomes a TemplateError at 0.
      throw asTemplateError(error, info, 0);
    }
  };
}
