/**
 * `printf`: Go's fmt verbs over template values. A format is parsed once (at compile time when it is a
 * literal) into pieces; formatting then walks the pieces. Unlike Go, a wrong argument type, a missing
 * or an extra argument fails the render (`E_TEMPLATE_EXEC`) instead of printing `%!d(...)` into the output.
 */
import { failTooLarge, FunctionFailure } from './failure.js';
import { countCodePoints, goQuote, printValue } from './values.js';

interface Verb {
  readonly verb: string;
  readonly minus: boolean;
  readonly plus: boolean;
  readonly sharp: boolean;
  readonly space: boolean;
  readonly zero: boolean;
  readonly width: number | undefined;
  readonly precision: number | undefined;
}

/** A parsed format: literal text and verbs, and how many arguments the verbs consume. */
export interface ParsedFormat {
  readonly pieces: readonly (string | Verb)[];
  readonly argumentCount: number;
}

const VERBS = 'vsdqfFtxXeEgGbocUT';

/** Parses a format string. Throws a {@link FunctionFailure} for unsupported or malformed verbs. */
export function parseFormat(format: string, maxLength: number): ParsedFormat {
  const pieces: (string | Verb)[] = [];
  let text = '';
  let count = 0;
  for (let i = 0; i < format.length; i++) {
    const c = format[i];
    if (c !== '%') {
      text += c;
      continue;
    }
    i++;
    if (format[i] === '%') {
      text += '%';
      continue;
    }
    const flags = { minus: false, plus: false, sharp: false, space: false, zero: false };
    for (; i < format.length; i++) {
      const f = format[i];
      if (f === '-') flags.minus = true;
      else if (f === '+') flags.plus = true;
      else if (f === '#') flags.sharp = true;
      else if (f === ' ') flags.space = true;
      else if (f === '0') flags.zero = true;
      else break;
    }
    const readNumber = (): number | undefined => {
      const start = i;
      while (i < format.length && (format[i] ?? '') >= '0' && (format[i] ?? '') <= '9') i++;
      if (i === start) return undefined;
      const n = Number(format.slice(start, i));
      if (n > maxLength) failTooLarge('printf width or precision', maxLength);
      return n;
    };
    const width = readNumber();
    let precision: number | undefined;
    if (format[i] === '.') {
      i++;
      precision = readNumber() ?? 0;
    }
    const verb = format[i];
    if (verb === undefined) throw new FunctionFailure('printf: format ends with an incomplete verb');
    if (verb === '*' || verb === '[') throw new FunctionFailure(`printf: %${verb} (argument indexes and * widths) is not supported`);
    if (!VERBS.includes(verb)) throw new FunctionFailure(`printf: unsupported verb %${verb}`);
    if (text.length > 0) pieces.push(text);
    text = '';
    pieces.push({ verb, ...flags, width, precision });
    count++;
  }
  if (text.length > 0) pieces.push(text);
  return { pieces, argumentCount: count };
}

/** Formats `args` with a parsed format. The result may not exceed `maxLength` code units. */
export function formatWith(format: ParsedFormat, args: readonly unknown[], maxLength: number, maxDepth: number): string {
  if (args.length < format.argumentCount) {
    throw new FunctionFailure(`printf: the format has ${format.argumentCount} verbs but got ${args.length} arguments`);
  }
  if (args.length > format.argumentCount) {
    throw new FunctionFailure(`printf: ${args.length - format.argumentCount} extra arguments for the format`);
  }
  let out = '';
  let next = 0;
  for (const piece of format.pieces) {
    out += typeof piece === 'string' ? piece : formatOne(piece, args[next++], maxLength, maxDepth);
    if (out.length > maxLength) failTooLarge('printf output', maxLength);
  }
  return out;
}

/**
 * A faster {@link formatWith} for formats whose verbs are all `%s` or `%v` without width or precision (flags
 * change nothing then), such as `"%s-%s"`; `undefined` for other formats. Arguments start at `args[first]`
 * and must be as many as the verbs (compiling has checked). Same output and failures as formatWith.
 */
export function plainFormatter(format: ParsedFormat): ((args: readonly unknown[], first: number, maxLength: number, maxDepth: number) => string) | undefined {
  const plain = format.pieces.every((piece) => typeof piece === 'string' || ((piece.verb === 's' || piece.verb === 'v') && piece.width === undefined && piece.precision === undefined));
  if (!plain) return undefined;
  const pieces = format.pieces.map((piece) => (typeof piece === 'string' ? piece : undefined));
  const n = pieces.length;
  return (args, first, maxLength, maxDepth) => {
    let out = '';
    let next = first;
    for (let i = 0; i < n; i++) {
      const text = pieces[i];
      out += text ?? printValue(args[next++], maxLength, maxDepth);
      if (out.length > maxLength) failTooLarge('printf output', maxLength);
    }
    return out;
  };
}

function pad(text: string, verb: Verb, zeroAllowed: boolean): string {
  if (verb.width === undefined) return text;
  const missing = verb.width - countCodePoints(text);
  if (missing <= 0) return text;
  if (verb.minus) return text + ' '.repeat(missing);
  if (verb.zero && zeroAllowed) {
    const sign = /^[+\- ]/.test(text) ? (text[0] ?? '') : '';
    const prefix = /^[+\- ]?0[xXbo]/.test(text) && verb.sharp ? text.slice(sign.length, sign.length + 2) : '';
    const rest = text.slice(sign.length + prefix.length);
    return sign + prefix + '0'.repeat(missing) + rest;
  }
  return ' '.repeat(missing) + text;
}

function bad(verb: Verb, value: unknown, wanted: string): never {
  const got = value === undefined ? 'a missing value' : value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value === 'object' ? 'map' : typeof value}`;
  throw new FunctionFailure(`printf: %${verb.verb} needs ${wanted}, got ${got}`);
}

function signOf(negative: boolean, verb: Verb): string {
  return negative ? '-' : verb.plus ? '+' : verb.space ? ' ' : '';
}

function formatInteger(value: number | bigint, verb: Verb, base: number, upper: boolean): string {
  const negative = value < 0;
  let digits = typeof value === 'bigint' ? (negative ? -value : value).toString(base) : Math.abs(value) >= 2 ** 53 ? BigInt(Math.abs(value)).toString(base) : Math.abs(value).toString(base);
  if (upper) digits = digits.toUpperCase();
  if (verb.precision !== undefined) {
    if (verb.precision === 0 && digits === '0') digits = '';
    digits = digits.padStart(verb.precision, '0');
  }
  let prefix = '';
  if (verb.sharp) prefix = base === 16 ? (upper ? '0X' : '0x') : base === 8 ? '0' : base === 2 ? '0b' : '';
  return pad(signOf(negative, verb) + prefix + digits, verb, verb.precision === undefined);
}

function fixExponent(text: string): string {
  return text.replace(/e([+-])(\d)$/, 'e$10$2');
}

function formatFloat(value: number, verb: Verb): string {
  const upper = verb.verb === 'E' || verb.verb === 'G' || verb.verb === 'F';
  if (!Number.isFinite(value)) {
    const text = Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf';
    return pad(text, verb, false);
  }
  const negative = value < 0 || Object.is(value, -0);
  const abs = Math.abs(value);
  let body: string;
  const kind = verb.verb.toLowerCase();
  if (kind === 'f') {
    const p = verb.precision ?? 6;
    body = abs < 1e21 ? abs.toFixed(Math.min(p, 100)) + '0'.repeat(Math.max(p - 100, 0)) : BigInt(abs).toString() + (p > 0 ? '.' + '0'.repeat(p) : '');
  } else if (kind === 'e') {
    const p = verb.precision ?? 6;
    body = fixExponent(abs.toExponential(Math.min(p, 100)));
  } else {
    body = formatG(abs, verb.precision, verb.sharp);
  }
  if (upper) body = body.toUpperCase();
  return pad(signOf(negative, verb) + body, verb, true);
}

/** Go's %g: shortest (or `precision` significant digits), exponent form when exp < -4 or exp >= precision (6 when shortest). */
function formatG(abs: number, precision: number | undefined, sharp: boolean): string {
  const p = precision === 0 ? 1 : precision;
  const exponential = p === undefined ? abs.toExponential() : abs.toExponential(Math.min(p - 1, 100));
  const [mantissa = '0', expText = '0'] = exponential.split('e');
  const exp = Number(expText);
  let digits = mantissa.replace('.', '');
  if (!sharp) digits = digits.replace(/0+$/, '') || '0';
  let eprec = p ?? 6;
  if (p !== undefined && eprec > digits.length && digits.length >= exp + 1) eprec = digits.length;
  if (p === undefined) eprec = 6;
  if (exp < -4 || exp >= eprec) {
    const m = digits.length > 1 ? `${digits[0] ?? ''}.${digits.slice(1)}` : digits;
    return fixExponent(`${m}e${exp < 0 ? '-' : '+'}${Math.abs(exp)}`);
  }
  if (exp < 0) return `0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return digits + '0'.repeat(exp + 1 - digits.length);
  return `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

function formatOne(verb: Verb, value: unknown, maxLength: number, maxDepth: number): string {
  switch (verb.verb) {
    case 'v':
    case 's': {
      let text = printValue(value, maxLength, maxDepth);
      if (verb.verb === 's' && verb.precision !== undefined) text = Array.from(text).slice(0, verb.precision).join('');
      return pad(text, verb, false);
    }
    case 'q':
      if (typeof value === 'number' && Number.isInteger(value)) {
        const ch = value >= 0 && value <= 0x10ffff ? String.fromCodePoint(value) : '\ufffd';
        return pad(`'${goQuote(ch).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`, verb, false);
      }
      return pad(goQuote(printValue(value, maxLength, maxDepth)), verb, false);
    case 't':
      if (typeof value !== 'boolean') bad(verb, value, 'a boolean');
      return pad(value ? 'true' : 'false', verb, false);
    case 'T':
      return pad(typeof value === 'undefined' ? '<nil>' : Array.isArray(value) ? 'list' : value === null ? '<nil>' : typeof value === 'object' ? 'map' : typeof value, verb, false);
    case 'c':
    case 'U': {
      if (typeof value !== 'number' || !Number.isInteger(value)) bad(verb, value, 'an integer');
      const valid = value >= 0 && value <= 0x10ffff;
      if (verb.verb === 'c') return pad(valid ? String.fromCodePoint(value) : '\ufffd', verb, false);
      return pad(`U+${value.toString(16).toUpperCase().padStart(4, '0')}`, verb, false);
    }
    case 'x':
    case 'X':
      if (typeof value === 'string') {
        const hex = Buffer.from(value, 'utf8').toString('hex');
        return pad((verb.sharp ? '0x' : '') + (verb.verb === 'X' ? hex.toUpperCase() : hex), verb, false);
      }
      return integerVerb(verb, value, 16, verb.verb === 'X');
    case 'd':
      return integerVerb(verb, value, 10, false);
    case 'b':
      return integerVerb(verb, value, 2, false);
    case 'o':
      return integerVerb(verb, value, 8, false);
    default:
      if (typeof value === 'bigint') return formatFloat(Number(value), verb);
      if (typeof value !== 'number') bad(verb, value, 'a number');
      return formatFloat(value, verb);
  }
}

function integerVerb(verb: Verb, value: unknown, base: number, upper: boolean): string {
  if (typeof value === 'bigint') return formatInteger(value, verb, base, upper);
  if (typeof value !== 'number' || !Number.isInteger(value)) bad(verb, value, 'an integer');
  return formatInteger(value, verb, base, upper);
}
