/**
 * The syntax tree of a template. Every node carries `pos`, the 0-based offset of its first character
 * in the source, for error positions. Variables are resolved at parse time to numbered slots.
 */

/** A node of a template body. */
export type TemplateNode = TextNode | ActionNode | IfNode | RangeNode | BreakNode;

export interface TextNode {
  readonly kind: 'text';
  readonly pos: number;
  readonly text: string;
}

/** `{{ pipeline }}`: prints the pipeline's value unless the pipeline declares or assigns variables. */
export interface ActionNode {
  readonly kind: 'action';
  readonly pos: number;
  readonly pipe: Pipeline;
}

/** `if` and `with`; `else if` / `else with` chains appear as a single nested node in `elseList`. */
export interface IfNode {
  readonly kind: 'if' | 'with';
  readonly pos: number;
  readonly pipe: Pipeline;
  readonly list: readonly TemplateNode[];
  readonly elseList: readonly TemplateNode[] | undefined;
}

export interface RangeNode {
  readonly kind: 'range';
  readonly pos: number;
  readonly pipe: Pipeline;
  readonly list: readonly TemplateNode[];
  readonly elseList: readonly TemplateNode[] | undefined;
}

export interface BreakNode {
  readonly kind: 'break' | 'continue';
  readonly pos: number;
}

/** A variable resolved to its slot in the render's variable array. */
export interface VariableRef {
  readonly name: string;
  readonly slot: number;
  readonly pos: number;
}

/** `$x := cmd | cmd` — `decl` holds declared (or, when `isAssign`, assigned) variables. */
export interface Pipeline {
  readonly pos: number;
  readonly decl: readonly VariableRef[];
  readonly isAssign: boolean;
  readonly commands: readonly Command[];
}

/** One stage of a pipeline: a function call with arguments, or a single operand. */
export interface Command {
  readonly pos: number;
  readonly args: readonly Expression[];
}

export type Expression =
  | { readonly kind: 'literal'; readonly pos: number; readonly value: string | number | boolean | null }
  | { readonly kind: 'dot'; readonly pos: number }
  | { readonly kind: 'root'; readonly pos: number }
  | { readonly kind: 'variable'; readonly pos: number; readonly ref: VariableRef }
  | { readonly kind: 'function'; readonly pos: number; readonly name: string }
  | { readonly kind: 'pipeline'; readonly pos: number; readonly pipe: Pipeline }
  | { readonly kind: 'fields'; readonly pos: number; readonly base: Expression; readonly path: readonly string[] };

/** The result of parsing: the body, the number of variable slots, and whether it is a single action. */
export interface ParsedTemplate {
  readonly nodes: readonly TemplateNode[];
  readonly slotCount: number;
  /** The source is exactly one printing action, `{{ ... }}`, with nothing outside it. */
  readonly isSingleAction: boolean;
}
