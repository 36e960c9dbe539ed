/**
 * The tokens of a CEL expression (the Common Expression Language of Kubernetes' `x-kubernetes-validations`): numbers
 * (int, `u`-suffixed uint, double), strings and bytes in every quoting CEL allows (single, double, triple, raw),
 * identifiers and the operators. A text CEL does not allow throws {@link CelSyntaxError}.
 */

export class CelSyntaxError extends Error {}

export type Token =
  | { readonly kind: 'int'; readonly value: bigint; readonly at: number }
  | { readonly kind: 'uint'; readonly value: bigint; readonly at: number }
  | { readonly kind: 'double'; readonly value: number; readonly at: number }
  | { readonly kind: 'string'; readonly value: string; readonly at: number }
  | { readonly kind: 'bytes'; readonly value: Uint8Array; readonly at: number }
  | { readonly kind: 'ident'; readonly value: string; readonly at: number }
  | { readonly kind: 'op'; readonly value: string; readonly at: number }
  | { readonly kind: 'end'; readonly at: number };

const OPERATORS = ['&&', '||', '==', '!=', '<=', '>=', '<', '>', '!', '+', '-', '*', '/', '%', '?', ':', '.', ',', '(', ')', '[', ']', '{', '}'];
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { a: '\u0007', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\u000b', '\\': '\\', "'": "'", '"': '"', '`': '`', '?': '?' };

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isIdentStart(c: string | undefined): boolean {
  return c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_');
}

/** The tokens of `text`, ending with an `end` token. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
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
    const op = OPERATORS.find((candidate) => text.startsWith(candidate, i));
    if (op === undefined) throw new CelSyntaxError(`Syntax error: token recognition error at: '${c}'`);
    tokens.push({ kind: 'op', value: op, at });
    i += op.length;
  }
  tokens.push({ kind: 'end', at: text.length });
  return tokens;
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
