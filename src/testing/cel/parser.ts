/**
 * CEL's grammar, parsed into a small tree: the conditional, `||`, `&&`, relations (`in` included), arithmetic,
 * unary `!` and `-`, member selection, indexing, calls (global and receiver-style), list and map literals. The
 * macros are expanded here, as CEL's parser does: `has(a.b)`, and `all`, `exists`, `exists_one`, `map` and `filter`
 * on a receiver (with one or two iteration variables). Message construction (`T{field: value}`) is read only where
 * kube-apiserver declares message types, in a MutatingAdmissionPolicy's mutations ({@link ParseOptions}), and only of
 * those types (`Object`, `Object.<field path>`, `JSONPatch`); elsewhere, and optional syntax (`.?`, `[?`) always, it
 * throws {@link CelUnsupported}, so that the rule is not judged at all.
 */
import { ARGUMENT_OPERANDS, INDEX_OPERANDS, LIST_OPERANDS, MAP_OPERANDS, OPERANDS } from './expected-tokens.js';
import { CelSyntaxError, scanTokens, type Lexeme, type SyntaxIssue } from './lexer.js';

/** A part of CEL this evaluator does not implement: the rule is not evaluated (never judged wrongly). */
export class CelUnsupported extends Error {}

export type ComprehensionKind = 'all' | 'exists' | 'exists_one' | 'map' | 'filter';

export type Expr =
  | { readonly k: 'literal'; readonly value: unknown }
  | { readonly k: 'ident'; readonly name: string }
  | { readonly k: 'select'; readonly operand: Expr; readonly field: string; readonly test: boolean; /** Offset of its `.` (of `has(`'s `(`) in the text. */ readonly at?: number }
  | { readonly k: 'index'; readonly operand: Expr; readonly index: Expr }
  | { readonly k: 'call'; readonly name: string; readonly target: Expr | undefined; readonly args: readonly Expr[] }
  | { readonly k: 'list'; readonly items: readonly Expr[] }
  | { readonly k: 'map'; readonly entries: readonly { readonly key: Expr; readonly value: Expr }[] }
  | {
      readonly k: 'construct';
      readonly type: string;
      /** The fields, each with the offset of its `:` (where cel-go places a field's type error). */
      readonly fields: readonly { readonly name: string; readonly value: Expr; readonly at: number }[];
      /** Offset of its `{`. */
      readonly at: number;
    }
  | { readonly k: 'conditional'; readonly condition: Expr; readonly then: Expr; readonly otherwise: Expr }
  | { readonly k: 'and' | 'or'; readonly left: Expr; readonly right: Expr }
  | {
      readonly k: 'comprehension';
      readonly kind: ComprehensionKind;
      readonly range: Expr;
      /** The iteration variables: one (the element, or a map's key), or two (index or key, then value). */
      readonly vars: readonly string[];
      readonly step: Expr;
      /** `map`'s filter (its three-argument form). */
      readonly filter: Expr | undefined;
    };

const RELATIONS = new Set(['<', '<=', '>', '>=', '==', '!=', 'in']);
const RESERVED = new Set(['as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

/** What an expression's environment declares beyond CEL's own. */
export interface ParseOptions {
  /**
   * The message types of a MutatingAdmissionPolicy's mutations (`Object`, `Object.spec...`, `JSONPatch`) and the
   * `jsonpatch.escapeKey` function (admission/plugin/cel/compile.go hasPatchTypes).
   */
  readonly patchTypes?: boolean;
}

/** Whether `name` is one of the message types a mutation may construct (mutation/typeresolver.go). */
export function isPatchType(name: string): boolean {
  return name === 'JSONPatch' || name === 'Object' || name.startsWith('Object.');
}

class Parser {
  private i = 0;
  /** What is expected at a token index where an operand may start and the default set does not apply. */
  private readonly expected = new Map<number, string>();

  constructor(
    private readonly tokens: readonly Lexeme[],
    private readonly options: ParseOptions,
    private readonly text: string,
  ) {}

  private peek(): Lexeme {
    return this.tokens[this.i] ?? { kind: 'end', at: this.text.length, end: this.text.length };
  }

  /** Throws cel-go's syntax errors, all at their places. */
  private fail(...issues: SyntaxIssue[]): never {
    throw new CelSyntaxError(issues[0]?.message ?? 'Syntax error', issues);
  }

  /** How ANTLR names a token in its errors: its text, `<EOF>` at the end. */
  private shown(token: Lexeme): string {
    return token.kind === 'end' ? '<EOF>' : this.text.slice(token.at, token.end);
  }

  private isOp(value: string): boolean {
    const token = this.peek();
    return token.kind === 'op' && token.value === value;
  }

  private take(value: string): boolean {
    if (!this.isOp(value)) return false;
    this.i++;
    return true;
  }

  /**
   * Takes `value`, or fails: at the end of the text with ANTLR's words (`eof`: what it says there, by default
   * `mismatched input '<EOF>' expecting '<value>'`), elsewhere in this parser's own.
   */
  private expect(value: string, eof = `mismatched input '<EOF>' expecting '${value}'`): void {
    if (this.take(value)) return;
    const token = this.peek();
    if (token.kind === 'end') this.fail({ at: token.at, message: `Syntax error: ${eof}` });
    throw new CelSyntaxError(`Syntax error: missing '${value}'`);
  }

  parseAll(): Expr {
    const expr = this.expr();
    const token = this.peek();
    if (token.kind !== 'end') this.fail({ at: token.at, message: `Syntax error: extraneous input '${this.shown(token)}' expecting <EOF>` });
    return expr;
  }

  /** Whether `token` can start an operand (ANTLR's single-token deletion: the token before it is extraneous). */
  private startsOperand(token: Lexeme | undefined): boolean {
    if (token === undefined || token.kind === 'end') return false;
    return token.kind !== 'op' || ['[', '{', '(', '.', '-', '!'].includes(token.value);
  }

  private expr(): Expr {
    const condition = this.or();
    if (!this.take('?')) return condition;
    const then = this.or();
    this.expect(':');
    return { k: 'conditional', condition, then, otherwise: this.expr() };
  }

  private or(): Expr {
    let left = this.and();
    while (this.take('||')) left = { k: 'or', left, right: this.and() };
    return left;
  }

  private and(): Expr {
    let left = this.relation();
    while (this.take('&&')) left = { k: 'and', left, right: this.relation() };
    return left;
  }

  private relation(): Expr {
    let left = this.addition();
    for (;;) {
      const token = this.peek();
      const op = token.kind === 'op' && RELATIONS.has(token.value) ? token.value : token.kind === 'ident' && token.value === 'in' ? 'in' : undefined;
      if (op === undefined) return left;
      this.i++;
      left = { k: 'call', name: `_${op === 'in' ? '@in' : op}_`, target: undefined, args: [left, this.addition()] };
    }
  }

  private addition(): Expr {
    let left = this.multiplication();
    for (;;) {
      if (this.take('+')) left = { k: 'call', name: '_+_', target: undefined, args: [left, this.multiplication()] };
      else if (this.take('-')) left = { k: 'call', name: '_-_', target: undefined, args: [left, this.multiplication()] };
      else return left;
    }
  }

  private multiplication(): Expr {
    let left = this.unary();
    for (;;) {
      const token = this.peek();
      if (token.kind !== 'op' || (token.value !== '*' && token.value !== '/' && token.value !== '%')) return left;
      this.i++;
      left = { k: 'call', name: `_${token.value}_`, target: undefined, args: [left, this.unary()] };
    }
  }

  private unary(): Expr {
    if (this.take('!')) {
      const next = this.peek();
      if (next.kind === 'end') this.fail({ at: next.at, message: `Syntax error: extraneous input '<EOF>' expecting ${OPERANDS}` });
      return { k: 'call', name: '!_', target: undefined, args: [this.unary()] };
    }
    if (this.take('-')) {
      const token = this.peek();
      if (token.kind === 'end') this.fail({ at: token.at, message: "Syntax error: no viable alternative at input '-'" }, { at: token.at, message: `Syntax error: mismatched input '<EOF>' expecting ${OPERANDS}` });
      // A negative literal is one literal, so that the smallest int64 can be written.
      if (token.kind === 'int' || token.kind === 'double') {
        this.i++;
        const literal: Expr = { k: 'literal', value: token.kind === 'int' ? -token.value : -token.value };
        return this.member(literal);
      }
      return { k: 'call', name: '-_', target: undefined, args: [this.unary()] };
    }
    return this.member(this.primary());
  }

  private member(start: Expr): Expr {
    let expr = start;
    for (;;) {
      const at = this.peek().at;
      if (this.take('.')) {
        if (this.isOp('?')) throw new CelUnsupported('optional field selection');
        if (this.peek().kind === 'end') this.fail({ at: this.peek().at, message: "Syntax error: no viable alternative at input '.'" });
        const name = this.ident();
        if (this.take('(')) expr = this.receiverCall(expr, name, this.args(')'));
        else expr = { k: 'select', operand: expr, field: name, test: false, at };
      } else if (this.take('[')) {
        if (this.isOp('?')) throw new CelUnsupported('optional index');
        this.expected.set(this.i, INDEX_OPERANDS);
        const index = this.expr();
        this.expect(']');
        expr = { k: 'index', operand: expr, index };
      } else if (this.isOp('{')) {
        const type = qualifiedName(expr);
        // A type a mutation cannot construct is parsed all the same: its compilation refuses it (undeclared reference).
        if (this.options.patchTypes !== true || type === undefined) throw new CelUnsupported('message construction');
        this.i++;
        expr = { k: 'construct', type, fields: this.fieldInits(), at };
      } else {
        return expr;
      }
    }
  }

  private ident(): string {
    const token = this.peek();
    if (token.kind !== 'ident') throw new CelSyntaxError('Syntax error: missing IDENTIFIER');
    this.i++;
    return token.value;
  }

  /** A call's arguments (`close` `)`) or a list's items (`]`), after the opening token. */
  private args(close: string): Expr[] {
    const args: Expr[] = [];
    if (this.take(close)) return args;
    this.expected.set(this.i, close === ')' ? ARGUMENT_OPERANDS : LIST_OPERANDS);
    for (;;) {
      args.push(this.expr());
      if (this.take(close)) return args;
      this.expect(',', close === ')' ? "missing ')' at '<EOF>'" : `mismatched input '<EOF>' expecting {'${close}', ','}`);
      if (this.take(close)) return args;
      this.listEnd(close);
    }
  }

  /** After a list's or map's comma, the end of the text is a missing close (a call's: an operand expected). */
  private listEnd(close: string): void {
    const token = this.peek();
    if (close !== ')' && token.kind === 'end') this.fail({ at: token.at, message: `Syntax error: missing '${close}' at '<EOF>'` });
  }

  private primary(): Expr {
    const token = this.peek();
    switch (token.kind) {
      case 'int':
      case 'uint':
      case 'double':
      case 'string':
      case 'bytes':
        this.i++;
        return { k: 'literal', value: token.kind === 'uint' ? { uint: token.value } : token.value };
      case 'ident': {
        this.i++;
        if (token.value === 'true' || token.value === 'false') return { k: 'literal', value: token.value === 'true' };
        if (token.value === 'null') return { k: 'literal', value: null };
        if (RESERVED.has(token.value)) throw new CelSyntaxError(`Syntax error: reserved identifier: ${token.value}`);
        const open = this.peek().at;
        if (this.take('(')) return this.globalCall(token.value, this.args(')'), open);
        return { k: 'ident', name: token.value };
      }
      case 'op':
        if (this.take('(')) {
          const inner = this.expr();
          this.expect(')', "missing ')' at '<EOF>'");
          return inner;
        }
        if (this.take('[')) return { k: 'list', items: this.args(']') };
        if (this.take('{')) return this.mapLiteral();
        if (this.take('.')) return { k: 'ident', name: this.ident() };
        break;
      case 'end':
        break;
    }
    // Where an operand was expected: a token an operand follows is extraneous, another (or the end) mismatched.
    const expected = this.expected.get(this.i) ?? OPERANDS;
    const extraneous = this.startsOperand(this.tokens[this.i + 1]);
    this.fail({ at: token.at, message: `Syntax error: ${extraneous ? 'extraneous' : 'mismatched'} input '${this.shown(token)}' expecting ${expected}` });
  }

  private mapLiteral(): Expr {
    const entries: { key: Expr; value: Expr }[] = [];
    if (this.take('}')) return { k: 'map', entries };
    this.expected.set(this.i, MAP_OPERANDS);
    for (;;) {
      if (this.isOp('?')) throw new CelUnsupported('optional map entry');
      const key = this.expr();
      this.expect(':');
      entries.push({ key, value: this.expr() });
      if (this.take('}')) return { k: 'map', entries };
      this.expect(',', "mismatched input '<EOF>' expecting {'}', ','}");
      if (this.take('}')) return { k: 'map', entries };
      this.listEnd('}');
    }
  }

  /** A message's field initializers, after its `{`: `name: value`, separated by commas, up to the `}`. */
  private fieldInits(): { name: string; value: Expr; at: number }[] {
    const fields: { name: string; value: Expr; at: number }[] = [];
    if (this.take('}')) return fields;
    for (;;) {
      if (this.isOp('?')) throw new CelUnsupported('optional field');
      const name = this.ident();
      const at = this.peek().at;
      this.expect(':');
      fields.push({ name, value: this.expr(), at });
      if (this.take('}')) return fields;
      this.expect(',');
      if (this.take('}')) return fields;
    }
  }

  private globalCall(name: string, args: Expr[], open: number): Expr {
    if (name === 'has') {
      const [arg] = args;
      if (args.length !== 1 || arg === undefined || arg.k !== 'select') throw new CelSyntaxError('invalid argument to has() macro');
      // CEL places the test at the macro's `(`.
      return { ...arg, test: true, at: open };
    }
    return { k: 'call', name, target: undefined, args };
  }

  private receiverCall(target: Expr, name: string, args: Expr[]): Expr {
    const kind = comprehensionKind(name, args.length);
    if (kind === undefined) {
      // `sets.contains(a, b)`: a namespaced global function, written as a call on the namespace's name.
      if (target.k === 'ident' && (NAMESPACES.has(target.name) || (target.name === 'jsonpatch' && this.options.patchTypes === true))) return { k: 'call', name: `${target.name}.${name}`, target: undefined, args };
      return { k: 'call', name, target, args };
    }
    const vars = args.slice(0, kind.vars).map((arg) => {
      if (arg.k !== 'ident') throw new CelSyntaxError(`${name}() variable names must be simple identifiers`);
      return arg.name;
    });
    const rest = args.slice(kind.vars);
    const filter = kind.kind === 'map' && rest.length === 2 ? rest[0] : undefined;
    const step = rest[rest.length - 1];
    if (step === undefined) throw new CelSyntaxError(`${name}() needs a body`);
    return { k: 'comprehension', kind: kind.kind, range: target, vars, step, filter };
  }
}

const NAMESPACES = new Set(['sets', 'strings', 'math', 'lists']);

/** The dotted name `expr` spells (`Object.spec.template`), or undefined when it is not a plain name. */
function qualifiedName(expr: Expr): string | undefined {
  if (expr.k === 'ident') return expr.name;
  if (expr.k !== 'select' || expr.test) return undefined;
  const operand = qualifiedName(expr.operand);
  return operand === undefined ? undefined : `${operand}.${expr.field}`;
}

/** Which macro a receiver call is, by its name and number of arguments (with one or two iteration variables). */
function comprehensionKind(name: string, count: number): { kind: ComprehensionKind; vars: number } | undefined {
  switch (name) {
    case 'all':
    case 'exists':
    case 'exists_one':
    case 'existsOne':
    case 'filter':
      if (count === 2 || count === 3) return { kind: name === 'existsOne' ? 'exists_one' : name, vars: count - 1 };
      return undefined;
    case 'map':
      if (count === 2 || count === 3) return { kind: 'map', vars: 1 };
      return undefined;
    case 'transformList':
      if (count === 3 || count === 4) throw new CelUnsupported('transformList');
      return undefined;
    default:
      return undefined;
  }
}

/**
 * Parses a CEL expression; throws CelSyntaxError (with cel-go's errors, the lexer's first, where it knows them) or
 * CelUnsupported.
 */
export function parseCel(text: string, options: ParseOptions = {}): Expr {
  const { tokens, errors } = scanTokens(text);
  let expr: Expr;
  try {
    expr = new Parser(tokens, options, text).parseAll();
  } catch (error) {
    if (!(error instanceof CelSyntaxError) || errors.length === 0) throw error;
    throw new CelSyntaxError(errors[0]?.message ?? error.message, [...errors, ...error.issues]);
  }
  const [first] = errors;
  if (first !== undefined) throw new CelSyntaxError(first.message, errors);
  return expr;
}
