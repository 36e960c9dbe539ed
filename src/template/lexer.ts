/**
 * The lexer: splits template source into text and action tokens, applying `{{-` / `-}}` trimming and
 * dropping comments. Follows Go's text/template lexer: a trim marker needs white space on its inner side
 * (`{{-3}}` is the number -3), comments must sit directly inside the delimiters.
 */
import { templateError, type TemplateSourceInfo } from './failure.js';

export type TokenType =
  | 'text'
  | 'leftDelim'
  | 'rightDelim'
  | 'field'
  | 'dot'
  | 'variable'
  | 'identifier'
  | 'string'
  | 'char'
  | 'number'
  | 'pipe'
  | 'leftParen'
  | 'rightParen'
  | 'declare'
  | 'assign'
  | 'comma'
  | 'eof';

/** One token. `start`/`end` are offsets into the source; `text` is the raw text (the name for fields and variables). */
export interface Token {
  readonly type: TokenType;
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** Decoded value of string, char and number tokens. */
  readonly value?: string | number;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const ALNUM = /[\p{L}\p{Nd}_]/u;
const isAlphaNumeric = (c: string | undefined): boolean => c !== undefined && ALNUM.test(c);

function trimRightSpace(text: string): string {
  let end = text.length;
  while (end > 0 && isSpace(text[end - 1])) end--;
  return text.slice(0, end);
}

function skipLeftSpace(source: string, pos: number): number {
  let p = pos;
  while (p < source.length && isSpace(source[p])) p++;
  return p;
}

/** Returns [isDelimiter, trims, length] for a right delimiter at `pos` (` -}}` or `}}`). */
function rightDelimAt(source: string, pos: number): [boolean, boolean, number] {
  if (isSpace(source[pos]) && source[pos + 1] === '-' && source.startsWith('}}', pos + 2)) return [true, true, 4];
  if (source.startsWith('}}', pos)) return [true, false, 2];
  return [false, false, 0];
}

/** Tokenizes the whole source. Throws `E_TEMPLATE_SYNTAX` with the position of the first lexical error. */
export function tokenize(info: TemplateSourceInfo): Token[] {
  const source = info.source;
  const tokens: Token[] = [];
  const fail = (reason: string, offset: number): never => {
    throw templateError('E_TEMPLATE_SYNTAX', reason, info, offset);
  };
  let pos = 0;
  let trimNext = false;
  while (pos < source.length) {
    const open = source.indexOf('{{', pos);
    const textEnd = open < 0 ? source.length : open;
    const trimLeft = open >= 0 && source[open + 2] === '-' && isSpace(source[open + 3]);
    let textStart = pos;
    if (trimNext) textStart = Math.min(skipLeftSpace(source, pos), textEnd);
    trimNext = false;
    let text = source.slice(textStart, textEnd);
    if (trimLeft) text = trimRightSpace(text);
    if (text.length > 0) tokens.push({ type: 'text', start: textStart, end: textStart + text.length, text });
    if (open < 0) break;
    let p = open + 2 + (trimLeft ? 2 : 0);
    if (source.startsWith('/*', p)) {
      const close = source.indexOf('*/', p + 2);
      if (close < 0) fail('unclosed comment', open);
      const [isDelim, trims, length] = rightDelimAt(source, close + 2);
      if (!isDelim) fail('comment ends before closing delimiter', close + 2);
      pos = close + 2 + length;
      trimNext = trims;
      continue;
    }
    tokens.push({ type: 'leftDelim', start: open, end: p, text: '{{' });
    pos = lexAction(source, p, tokens, fail);
    const [, trims, length] = rightDelimAt(source, pos);
    tokens.push({ type: 'rightDelim', start: pos, end: pos + length, text: '}}' });
    pos += length;
    trimNext = trims;
  }
  tokens.push({ type: 'eof', start: source.length, end: source.length, text: '' });
  return tokens;
}

/** Lexes the inside of one action starting at `start`; returns the offset of its right delimiter. */
function lexAction(source: string, start: number, tokens: Token[], fail: (reason: string, offset: number) => never): number {
  let p = start;
  let parenDepth = 0;
  const push = (type: TokenType, from: number, to: number, value?: string | number): void => {
    const text = source.slice(from, to);
    tokens.push(value === undefined ? { type, start: from, end: to, text } : { type, start: from, end: to, text, value });
  };
  const expectTerminator = (at: number): void => {
    const c = source[at];
    if (c === undefined || isSpace(c) || '.,|:)('.includes(c) || source.startsWith('}}', at)) return;
    fail(`bad character ${JSON.stringify(c)}`, at);
  };
  for (;;) {
    const [isDelim] = rightDelimAt(source, p);
    if (isDelim) {
      if (parenDepth > 0) fail('unclosed left paren', p);
      return p;
    }
    const c = source[p];
    if (c === undefined) return fail('unclosed action', p);
    if (isSpace(c)) {
      p++;
      continue;
    }
    const from = p;
    if (c === '|') push('pipe', p, ++p);
    else if (c === ',') push('comma', p, ++p);
    else if (c === '=') push('assign', p, ++p);
    else if (c === ':') {
      if (source[p + 1] !== '=') fail('expected :=', p);
      p += 2;
      push('declare', from, p);
    } else if (c === '(') {
      parenDepth++;
      push('leftParen', p, ++p);
    } else if (c === ')') {
      parenDepth--;
      if (parenDepth < 0) fail('unexpected right paren', p);
      push('rightParen', p, ++p);
    } else if (c === '"') {
      p = lexQuoted(source, p, fail);
      push('string', from, p, unquote(source.slice(from + 1, p - 1), '"', (reason, at) => fail(reason, from + 1 + at)));
    } else if (c === '`') {
      const close = source.indexOf('`', p + 1);
      if (close < 0) fail('unterminated raw quoted string', p);
      p = close + 1;
      push('string', from, p, source.slice(from + 1, close).replaceAll('\r', ''));
    } else if (c === "'") {
      p = lexChar(source, p, fail);
      const decoded = unquote(source.slice(from + 1, p - 1), "'", (reason, at) => fail(reason, from + 1 + at));
      const cp = decoded.codePointAt(0);
      if (cp === undefined || String.fromCodePoint(cp) !== decoded) fail('malformed character constant', from);
      push('char', from, p, cp);
    } else if (c === '$') {
      p++;
      while (isAlphaNumeric(source[p])) p++;
      push('variable', from, p);
      expectTerminator(p);
    } else if (c === '.' && !isDigit(source[p + 1])) {
      p++;
      while (isAlphaNumeric(source[p])) p++;
      if (p === from + 1) push('dot', from, p);
      else push('field', from, p);
      expectTerminator(p);
    } else if (c === '+' || c === '-' || c === '.' || isDigit(c)) {
      p = scanNumber(source, p);
      if (isAlphaNumeric(source[p])) fail(`bad number syntax: ${JSON.stringify(source.slice(from, p + 1))}`, from);
      push('number', from, p);
    } else if (isAlphaNumeric(c)) {
      while (isAlphaNumeric(source[p])) p++;
      push('identifier', from, p);
      expectTerminator(p);
    } else {
      fail(`unrecognized character in action: ${JSON.stringify(c)}`, p);
    }
  }
}

function lexQuoted(source: string, start: number, fail: (reason: string, offset: number) => never): number {
  let p = start + 1;
  for (;;) {
    const c = source[p];
    if (c === undefined || c === '\n') return fail('unterminated quoted string', start);
    if (c === '\\') {
      p += 2;
      continue;
    }
    p++;
    if (c === '"') return p;
  }
}

function lexChar(source: string, start: number, fail: (reason: string, offset: number) => never): number {
  let p = start + 1;
  for (;;) {
    const c = source[p];
    if (c === undefined || c === '\n') return fail('unterminated character constant', start);
    if (c === '\\') {
      p += 2;
      continue;
    }
    p++;
    if (c === "'") return p;
  }
}

/** Go's scanNumber: sign, base prefix, digits with `_`, fraction, exponent, `i` (rejected later). */
function scanNumber(source: string, start: number): number {
  let p = start;
  const accept = (chars: string): boolean => {
    const c = source[p];
    if (c !== undefined && chars.includes(c)) {
      p++;
      return true;
    }
    return false;
  };
  const acceptRun = (chars: string): void => {
    while (accept(chars));
  };
  accept('+-');
  let digits = '0123456789_';
  if (accept('0')) {
    if (accept('xX')) digits = '0123456789abcdefABCDEF_';
    else if (accept('oO')) digits = '01234567_';
    else if (accept('bB')) digits = '01_';
  }
  acceptRun(digits);
  if (accept('.')) acceptRun(digits);
  if (digits.length === 11 && accept('eE')) {
    accept('+-');
    acceptRun('0123456789_');
  }
  if (digits.length === 23 && accept('pP')) {
    accept('+-');
    acceptRun('0123456789_');
  }
  accept('i');
  return p;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = Object.freeze({
  a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\',
});

/**
 * Decodes Go escapes in the body of a quoted string or character constant. `\xNN` and octal escapes
 * give the code point NN (JavaScript strings have no raw bytes). Calls `fail(reason, offsetInBody)`.
 */
export function unquote(body: string, quote: '"' | "'", fail: (reason: string, at: number) => never): string {
  if (!body.includes('\\')) return body;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[i + 1] ?? '';
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      i++;
    } else if (e === quote) {
      out += e;
      i++;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = body.slice(i + 2, i + 2 + n);
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) return fail(`invalid escape \\${e}`, i);
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff || (e !== 'x' && cp >= 0xd800 && cp <= 0xdfff)) return fail(`invalid code point in escape \\${e}${hex}`, i);
      out += String.fromCodePoint(cp);
      i += 1 + n;
    } else if (e >= '0' && e <= '7') {
      const oct = body.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/.test(oct) || parseInt(oct, 8) > 255) return fail('invalid octal escape', i);
      out += String.fromCodePoint(parseInt(oct, 8));
      i += 3;
    } else {
      return fail(`unknown escape sequence \\${e}`, i);
    }
  }
  return out;
}

/**
 * Converts a number token's text to a number, or `undefined` when it is not valid Go number syntax.
 * Integers beyond 2^53 lose precision (JavaScript numbers are doubles). Complex and hex-float literals are rejected.
 */
export function parseNumberLiteral(text: string): number | undefined {
  const sign = text.startsWith('-') ? -1 : 1;
  const body = text.startsWith('-') || text.startsWith('+') ? text.slice(1) : text;
  const radix = /^0[xX]/.test(body) ? 16 : /^0[oO]/.test(body) ? 8 : /^0[bB]/.test(body) ? 2 : 10;
  if (radix !== 10) {
    const digits = body.slice(2);
    const pattern = radix === 16 ? /^_?[0-9a-fA-F]+(_[0-9a-fA-F]+)*$/ : radix === 8 ? /^_?[0-7]+(_[0-7]+)*$/ : /^_?[01]+(_[01]+)*$/;
    if (!pattern.test(digits)) return undefined;
    return sign * parseInt(digits.replaceAll('_', ''), radix);
  }
  if (/^0[0-7]+(_[0-7]+)*$/.test(body)) return sign * parseInt(body.replaceAll('_', ''), 8);
  if (!/^(\d+(_\d+)*)?(\.(\d+(_\d+)*)?)?([eE][+-]?\d+(_\d+)*)?$/.test(body) || !/\d/.test(body.replace(/[eE].*$/, ''))) {
    return undefined;
  }
  const value = Number(body.replaceAll('_', ''));
  return Number.isFinite(value) ? sign * value : undefined;
}
