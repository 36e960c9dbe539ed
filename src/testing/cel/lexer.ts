/**
 * The tokens of a CEL expression (the Common Expression Language of Kubernetes' `x-kubernetes-validations`): numbers
 * (int, `u`-suffixed uint, double), strings and bytes in every quoting CEL allows (single, double, triple, raw),
 * identifiers and the operators. A text CEL does not allow throws {@link CelSyntaxError}.
 */

/** A syntax error where cel-go reports it: its offset in the text, and its words (`Syntax error: ...`). */
export interface SyntaxIssue {
  readonly at: number;
  readonly message: string;
}

/**
 * A text CEL does not allow. `issues`: the errors as cel-go's parser reports them, each at its place, when this
 * parser knows cel-go's words for them (ANTLR's: `mismatched input '<EOF>' expecting ...`); empty when it does not.
 */
export class CelSyntaxError extends Error {
  constructor(
    message: string,
    readonly issues: readonly SyntaxIssue[] = [],
  ) {
    super(message);
  }
}

export type Token =
  | { readonly kind: 'int'; readonly value: bigint; readonly at: number }
  | { readonly kind: 'uint'; readonly value: bigint; readonly at: number }
  | { readonly kind: 'double'; readonly value: number; readonly at: number }
  | { readonly kind: 'string'; readonly value: string; readonly at: number }
  | { readonly kind: 'bytes'; readonly value: Uint8Array; readonly at: number }
  | { readonly kind: 'ident'; readonly value: string; readonly at: number }
  | { readonly kind: 'op'; readonly value: string; readonly at: number }
  | { readonly kind: 'end'; readonly at: number };

/** A token with the offset just after it. */
export type Lexeme = Token & { readonly end: number };

const OPERATORS = ['&&', '||', '==', '!=', '<=', '>=', '<', '>', '!', '+', '-', '*', '/', '%', '?', ':', '.', ',', '(', ')', '[', ']', '{', '}'];
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { a: '\u0007', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\u000b', '\\': '\\', "'": "'", '"': '"', '`': '`', '?': '?' };

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isIdentStart(c: string | undefined): boolean {
  return c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_');
}

/** The tokens of `text`, ending with an `end` token; throws the first text the lexer does not recognize. */
export function tokenize(text: string): Lexeme[] {
  const { tokens, errors } = scanTokens(text);
  const [first] = errors;
  if (first !== undefined) throw new CelSyntaxError(first.message, errors);
  return tokens;
}

/** The operators a character starts only as their first character (`=` of `==`). */
const PREFIXES = new Set(['=', '&', '|']);

/**
 * The tokens of `text`, ending with an `end` token, and the texts it does not recognize, skipped as cel-go's lexer
 * (ANTLR's) skips them: an unknown character alone; `=`, `&` or `|` not followed by its second character together
 * with the character after it; an unterminated string up to the end of its line.
 */
export function scanTokens(text: string): { readonly tokens: Lexeme[]; readonly errors: SyntaxIssue[] } {
  const tokens: Token[] = [];
  const ends: number[] = [];
  const errors: SyntaxIssue[] = [];
  const unrecognized = (at: number, end: number): number => {
    errors.push({ at, message: `Syntax error: token recognition error at: '${text.slice(at, end)}'` });
    return end;
  };
  let i = 0;
  while (i < text.length) {
    if (tokens.length > ends.length) ends.push(i);
    const c = text[i] ?? '';
    if ((c === '"' || c === "'") && !terminated(text, i)) {
      const close = text.indexOf('\n', i);
      i = unrecognized(i, close < 0 ? text.length : close);
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    const at = i;
    const prefix = c.toLowerCase();
    const quoteAfterPrefix = text[i + 1] === '"' || text[i + 1] === "'";
    if ((prefix === 'r' || prefix === 'b') && quoteAfterPrefix) {
      const read = readQuoted(text, i + 1, prefix === 'r');
      tokens.push(prefix === 'b' ? { kind: 'bytes', value: new TextEncoder().encode(read.value), at } : { kind: 'string', value: read.value, at });
      i = read.end;
      continue;
    }
    if ((prefix === 'r' && (text[i + 1] ?? '').toLowerCase() === 'b') || (prefix === 'b' && (text[i + 1] ?? '').toLowerCase() === 'r')) {
      if (text[i + 2] === '"' || text[i + 2] === "'") {
        const read = readQuoted(text, i + 2, true);
        tokens.push({ kind: 'bytes', value: new TextEncoder().encode(read.value), at });
        i = read.end;
        continue;
      }
    }
    if (c === '"' || c === "'") {
      const read = readQuoted(text, i, false);
      tokens.push({ kind: 'string', value: read.value, at });
      i = read.end;
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(text[i + 1]))) {
      const read = readNumber(text, i);
      tokens.push(read.token);
      i = read.end;
      continue;
    }
    if (isIdentStart(c)) {
      let end = i + 1;
      while (end < text.length && (isIdentStart(text[end]) || isDigit(text[end]))) end++;
      tokens.push({ kind: 'ident', value: text.slice(i, end), at });
      i = end;
      continue;
    }
    // A backquoted field name (`object.\`a-b\``), read as an identifier after its `.`.
    if (c === '`') {
      const close = text.indexOf('`', i + 1);
      if (close > i + 1) {
        tokens.push({ kind: 'ident', value: text.slice(i + 1, close), at });
        i = close + 1;
        continue;
      }
    }
    const op = OPERATORS.find((candidate) => text.startsWith(candidate, i));
    if (op === undefined) {
      i = unrecognized(i, PREFIXES.has(c) ? Math.min(i + 2, text.length) : i + 1);
      continue;
    }
    tokens.push({ kind: 'op', value: op, at });
    i += op.length;
  }
  if (tokens.length > ends.length) ends.push(i);
  tokens.push({ kind: 'end', at: text.length });
  ends.push(text.length);
  return { tokens: tokens.map((token, k) => ({ ...token, end: ends[k] ?? token.at })), errors };
}

/** Whether the string starting at `start` ends before the text or its line does (its other errors are read later). */
function terminated(text: string, start: number): boolean {
  try {
    readQuoted(text, start, false);
    return true;
  } catch (error) {
    if (!(error instanceof CelSyntaxError)) throw error;
    return error.message !== 'Syntax error: unterminated string' && error.message !== 'Syntax error: newline in string';
  }
}

function readNumber(text: string, start: number): { token: Token; end: number } {
  let i = start;
  if (text[i] === '0' && (text[i + 1] === 'x' || text[i + 1] === 'X')) {
    i += 2;
    while (/[0-9a-fA-F]/.test(text[i] ?? '')) i++;
    const value = BigInt(text.slice(start, i));
    if (text[i] === 'u' || text[i] === 'U') return { token: { kind: 'uint', value, at: start }, end: i + 1 };
    return { token: { kind: 'int', value, at: start }, end: i };
  }
  while (isDigit(text[i])) i++;
  let isDouble = false;
  if (text[i] === '.' && isDigit(text[i + 1])) {
    isDouble = true;
    i++;
    while (isDigit(text[i])) i++;
  }
  if (text[i] === 'e' || text[i] === 'E') {
    let j = i + 1;
    if (text[j] === '+' || text[j] === '-') j++;
    if (isDigit(text[j])) {
      isDouble = true;
      i = j;
      while (isDigit(text[i])) i++;
    }
  }
  const literal = text.slice(start, i);
  if (isDouble) return { token: { kind: 'double', value: Number(literal), at: start }, end: i };
  if (text[i] === 'u' || text[i] === 'U') return { token: { kind: 'uint', value: BigInt(literal), at: start }, end: i + 1 };
  return { token: { kind: 'int', value: BigInt(literal), at: start }, end: i };
}

/** A quoted string starting at `start` (the quote), with CEL's escapes unless `raw`. */
function readQuoted(text: string, start: number, raw: boolean): { value: string; end: number } {
  const quote = text[start] ?? '"';
  const triple = text.startsWith(quote.repeat(3), start);
  const close = triple ? quote.repeat(3) : quote;
  let i = start + close.length;
  let out = '';
  for (;;) {
    if (i >= text.length) throw new CelSyntaxError('Syntax error: unterminated string');
    if (text.startsWith(close, i)) return { value: out, end: i + close.length };
    const c = text[i] ?? '';
    if (!triple && (c === '\n' || c === '\r')) throw new CelSyntaxError('Syntax error: newline in string');
    if (c !== '\\' || raw) {
      out += c;
      i++;
      continue;
    }
    const next = text[i + 1] ?? '';
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      i += 2;
    } else if (next === 'x' || next === 'X' || next === 'u' || next === 'U') {
      const width = next === 'x' || next === 'X' ? 2 : next === 'u' ? 4 : 8;
      const hex = text.slice(i + 2, i + 2 + width);
      if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) throw new CelSyntaxError('Syntax error: invalid escape sequence');
      out += String.fromCodePoint(parseInt(hex, 16));
      i += 2 + width;
    } else if (/[0-3]/.test(next) && /^[0-7]{3}$/.test(text.slice(i + 1, i + 4))) {
      out += String.fromCodePoint(parseInt(text.slice(i + 1, i + 4), 8));
      i += 4;
    } else {
      throw new CelSyntaxError('Syntax error: invalid escape sequence');
    }
  }
}
