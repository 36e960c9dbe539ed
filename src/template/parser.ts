/**
 * The parser: tokens to a {@link ParsedTemplate}. Recursive descent over Go's text/template grammar
 * (without define/template/block). Variables are resolved here, so an undefined variable is a syntax error;
 * nesting of control structures and parentheses is bounded by `maxDepth`.
 */
import type { Command, Expression, ParsedTemplate, Pipeline, TemplateNode, VariableRef } from './ast.js';
import { templateError, type TemplateSourceInfo } from './failure.js';
import { parseNumberLiteral, tokenize, type Token } from './lexer.js';

type Context = 'top' | 'if' | 'with' | 'range';

interface ListResult {
  readonly nodes: TemplateNode[];
  readonly end: 'end' | 'else' | 'eof';
  /** Offset of the `end`/`else` keyword. */
  readonly endPos: number;
  /** For `{{else if ...}}` / `{{else with ...}}`: the keyword token, not yet consumed. */
  readonly chained: Token | undefined;
}

const KEYWORDS: ReadonlySet<string> = new Set(['if', 'else', 'end', 'range', 'with', 'break', 'continue', 'define', 'template', 'block']);

/** Parses `info.source`. Throws `E_TEMPLATE_SYNTAX`, or `E_TEMPLATE_LIMIT` when nesting exceeds `maxDepth`. */
export function parseTemplate(info: TemplateSourceInfo, maxDepth: number): ParsedTemplate {
  return new Parser(info, tokenize(info), maxDepth).parse();
}

class Parser {
  private index = 0;
  private depth = 0;
  private rangeDepth = 0;
  private slotCount = 0;
  private readonly scopes: VariableRef[][] = [[]];

  constructor(
    private readonly info: TemplateSourceInfo,
    private readonly tokens: readonly Token[],
    private readonly maxDepth: number,
  ) {}

  parse(): ParsedTemplate {
    const result = this.parseList('top');
    const nodes = result.nodes;
    const first = this.tokens[0];
    const last = this.tokens[this.tokens.length - 2];
    const delimiters = this.tokens.filter((t) => t.type === 'leftDelim').length;
    const only = nodes[0];
    const isSingleAction =
      nodes.length === 1 &&
      only?.kind === 'action' &&
      only.pipe.decl.length === 0 &&
      delimiters === 1 &&
      first?.type === 'leftDelim' &&
      first.start === 0 &&
      last?.type === 'rightDelim' &&
      last.end === this.info.source.length;
    return { nodes, slotCount: this.slotCount, isSingleAction };
  }

  private fail(reason: string, offset: number): never {
    throw templateError('E_TEMPLATE_SYNTAX', reason, this.info, offset);
  }

  private peek(ahead = 0): Token {
    const token = this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)];
    if (token === undefined) return this.fail('unexpected end of template', this.info.source.length);
    return token;
  }

  private next(): Token {
    const token = this.peek();
    if (this.index < this.tokens.length - 1) this.index++;
    return token;
  }

  private expect(type: Token['type'], context: string): Token {
    const token = this.next();
    if (token.type !== type) this.fail(`unexpected ${describe(token)} in ${context}`, token.start);
    return token;
  }

  private enter(offset: number): void {
    this.depth++;
    if (this.depth > this.maxDepth) {
      throw templateError('E_TEMPLATE_LIMIT', `nesting deeper than the limit of ${this.maxDepth}`, this.info, offset);
    }
  }

  private leave(): void {
    this.depth--;
  }

  private lookup(name: string): VariableRef | undefined {
    for (let s = this.scopes.length - 1; s >= 0; s--) {
      const scope = this.scopes[s] ?? [];
      for (let v = scope.length - 1; v >= 0; v--) {
        const ref = scope[v];
        if (ref !== undefined && ref.name === name) return ref;
      }
    }
    return undefined;
  }

  private inScope<T>(body: () => T): T {
    this.scopes.push([]);
    try {
      return body();
    } finally {
      this.scopes.pop();
    }
  }

  private parseList(context: Context, openPos = 0): ListResult {
    const nodes: TemplateNode[] = [];
    for (;;) {
      const token = this.next();
      if (token.type === 'text') {
        nodes.push({ kind: 'text', pos: token.start, text: token.text });
        continue;
      }
      if (token.type === 'eof') {
        if (context !== 'top') this.fail(`unexpected EOF: {{${context}}} has no {{end}}`, openPos);
        return { nodes, end: 'eof', endPos: token.start, chained: undefined };
      }
      // token is a left delimiter
      const head = this.peek();
      const keyword = head.type === 'identifier' && KEYWORDS.has(head.text) ? head.text : undefined;
      if (keyword === undefined) {
        const pipe = this.parsePipeline('command', 'rightDelim');
        this.expect('rightDelim', 'command');
        nodes.push({ kind: 'action', pos: token.start, pipe });
        continue;
      }
      this.next();
      switch (keyword) {
        case 'end':
          if (context === 'top') this.fail('unexpected {{end}}', head.start);
          this.expect('rightDelim', 'end');
          return { nodes, end: 'end', endPos: head.start, chained: undefined };
        case 'else': {
          if (context === 'top') this.fail('unexpected {{else}}', head.start);
          const after = this.peek();
          if (after.type === 'identifier' && (after.text === 'if' || after.text === 'with')) {
            return { nodes, end: 'else', endPos: head.start, chained: after };
          }
          this.expect('rightDelim', 'else');
          return { nodes, end: 'else', endPos: head.start, chained: undefined };
        }
        case 'if':
        case 'with':
        case 'range':
          nodes.push(this.parseControl(keyword, token.start, head.start));
          continue;
        case 'break':
        case 'continue':
          if (this.rangeDepth === 0) this.fail(`{{${keyword}}} outside {{range}}`, head.start);
          this.expect('rightDelim', keyword);
          nodes.push({ kind: keyword, pos: token.start });
          continue;
        default:
          return this.fail(`{{${keyword}}} is not supported`, head.start);
      }
    }
  }

  private parseControl(kind: 'if' | 'with' | 'range', pos: number, keywordPos: number): TemplateNode {
    this.enter(keywordPos);
    const node = this.inScope((): TemplateNode => {
      const pipe = this.parsePipeline(kind, 'rightDelim');
      this.expect('rightDelim', kind);
      if (kind === 'range') this.rangeDepth++;
      const body = this.inScope(() => this.parseList(kind, keywordPos));
      if (kind === 'range') this.rangeDepth--;
      let elseList: TemplateNode[] | undefined;
      if (body.end === 'else') {
        const chained = body.chained;
        if (chained !== undefined) {
          if (chained.text !== kind) this.fail(`{{else ${chained.text}}} is not allowed in {{${kind}}}`, chained.start);
          this.next();
          elseList = [this.parseControl(kind, chained.start, chained.start)];
        } else {
          const rest = this.inScope(() => this.parseList(kind, keywordPos));
          if (rest.end === 'else') this.fail(`expected {{end}}, found a second {{else}} in {{${kind}}}`, rest.endPos);
          elseList = rest.nodes;
        }
      }
      return kind === 'range'
        ? { kind, pos, pipe, list: body.nodes, elseList }
        : { kind, pos, pipe, list: body.nodes, elseList };
    });
    this.leave();
    return node;
  }

  private parsePipeline(context: string, end: 'rightDelim' | 'rightParen'): Pipeline {
    const pos = this.peek().start;
    const declared: { name: string; pos: number }[] = [];
    let isAssign = false;
    let hasDecl = false;
    const t0 = this.peek();
    const t1 = this.peek(1);
    if (t0.type === 'variable' && (t1.type === 'declare' || t1.type === 'assign')) {
      declared.push({ name: t0.text, pos: t0.start });
      isAssign = t1.type === 'assign';
      hasDecl = true;
      this.index += 2;
    } else if (t0.type === 'variable' && t1.type === 'comma') {
      const t2 = this.peek(2);
      const t3 = this.peek(3);
      if (t2.type === 'variable' && (t3.type === 'declare' || t3.type === 'assign')) {
        if (context !== 'range') this.fail(`too many declarations in ${context}`, t1.start);
        declared.push({ name: t0.text, pos: t0.start }, { name: t2.text, pos: t2.start });
        isAssign = t3.type === 'assign';
        hasDecl = true;
        this.index += 4;
      }
    }
    const commands: Command[] = [];
    for (;;) {
      commands.push(this.parseCommand(context));
      const token = this.peek();
      if (token.type === 'pipe') {
        this.next();
        continue;
      }
      if (token.type === end) break;
      this.fail(`unexpected ${describe(token)} in ${context}`, token.start);
    }
    commands.forEach((command, i) => {
      const head = command.args[0];
      if (i > 0 && head !== undefined && head.kind !== 'function') {
        this.fail(`non executable command in pipeline stage ${i + 1}`, command.pos);
      }
    });
    let decl: VariableRef[] = [];
    if (hasDecl) decl = declared.map((d) => this.bind(d.name, d.pos, isAssign));
    return { pos, decl, isAssign, commands };
  }

  private bind(name: string, pos: number, isAssign: boolean): VariableRef {
    if (name === '$') this.fail(isAssign ? 'cannot assign to $' : 'cannot declare $', pos);
    if (isAssign) {
      const ref = this.lookup(name);
      if (ref === undefined) this.fail(`undefined variable ${JSON.stringify(name)}`, pos);
      return ref;
    }
    const ref: VariableRef = { name, slot: this.slotCount++, pos };
    const scope = this.scopes[this.scopes.length - 1];
    if (scope !== undefined) scope.push(ref);
    return ref;
  }

  private parseCommand(context: string): Command {
    const pos = this.peek().start;
    const args: Expression[] = [];
    for (;;) {
      const token = this.peek();
      if (token.type === 'pipe' || token.type === 'rightDelim' || token.type === 'rightParen' || token.type === 'eof') break;
      if (args.length > 0 && token.start === this.peek(-1).end) {
        this.fail(`missing space before ${describe(token)}`, token.start);
      }
      const operand = this.parseOperand();
      if (operand === undefined) this.fail(`unexpected ${describe(token)} in ${context}`, token.start);
      args.push(operand);
    }
    if (args.length === 0) {
      const token = this.peek();
      this.fail(context === 'command' || token.type === 'pipe' ? 'missing command' : `missing value for ${context}`, token.start);
    }
    return { pos, args };
  }

  private parseOperand(): Expression | undefined {
    const token = this.peek();
    let term: Expression;
    switch (token.type) {
      case 'field':
        term = { kind: 'fields', pos: token.start, base: { kind: 'dot', pos: token.start }, path: [token.text.slice(1)] };
        break;
      case 'dot':
        term = { kind: 'dot', pos: token.start };
        break;
      case 'variable': {
        if (token.text === '$') {
          term = { kind: 'root', pos: token.start };
          break;
        }
        const ref = this.lookup(token.text);
        if (ref === undefined) this.fail(`undefined variable ${JSON.stringify(token.text)}`, token.start);
        term = { kind: 'variable', pos: token.start, ref };
        break;
      }
      case 'identifier':
        if (token.text === 'true' || token.text === 'false') term = { kind: 'literal', pos: token.start, value: token.text === 'true' };
        else if (token.text === 'nil') term = { kind: 'literal', pos: token.start, value: null };
        else if (KEYWORDS.has(token.text)) this.fail(`unexpected {{${token.text}}} in operand`, token.start);
        else term = { kind: 'function', pos: token.start, name: token.text };
        break;
      case 'string':
      case 'char':
        term = { kind: 'literal', pos: token.start, value: token.value ?? '' };
        break;
      case 'number': {
        const value = /i$/.test(token.text) ? undefined : parseNumberLiteral(token.text);
        if (value === undefined) this.fail(`bad number syntax: ${JSON.stringify(token.text)}`, token.start);
        term = { kind: 'literal', pos: token.start, value };
        break;
      }
      case 'leftParen': {
        this.next();
        this.enter(token.start);
        const pipe = this.parsePipeline('parenthesized pipeline', 'rightParen');
        this.expect('rightParen', 'parenthesized pipeline');
        this.leave();
        term = { kind: 'pipeline', pos: token.start, pipe };
        this.index--;
        break;
      }
      default:
        return undefined;
    }
    let end = this.next().end;
    const chainStart = this.peek().start;
    const path: string[] = [];
    while (this.peek().type === 'field' && this.peek().start === end) {
      const field = this.next();
      path.push(field.text.slice(1));
      end = field.end;
    }
    if (path.length === 0) return term;
    if (term.kind === 'fields') return { ...term, path: [...term.path, ...path] };
    if (term.kind === 'variable' || term.kind === 'root' || term.kind === 'pipeline') {
      return { kind: 'fields', pos: term.pos, base: term, path };
    }
    return this.fail('unexpected . after term', chainStart);
  }
}

function describe(token: Token): string {
  switch (token.type) {
    case 'eof':
      return 'end of template';
    case 'rightDelim':
      return '"}}"';
    case 'leftDelim':
      return '"{{"';
    default:
      return JSON.stringify(token.text);
  }
}
