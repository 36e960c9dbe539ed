/**
 * String functions: printf print println quote upper lower toUpper toLower trim trimPrefix trimSuffix
 * replace split join contains hasPrefix hasSuffix. Arguments are printed to text first (missing is "").
 * Argument order follows Sprig: the string being worked on comes last, so it can be piped in.
 */
import { failTooLarge, FunctionFailure } from './failure.js';
import { fixed, variadic, type FunctionContext, type TemplateFunction } from './function-type.js';
import { formatWith, parseFormat } from './printf.js';
import { goQuote, kindOf, printValue } from './values.js';

function text(value: unknown, context: FunctionContext): string {
  return typeof value === 'string' ? value : printValue(value, context.maxLength, context.maxDepth);
}

function bounded(result: string, name: string, context: FunctionContext): string {
  if (result.length > context.maxLength) failTooLarge(`the result of ${name}`, context.maxLength);
  return result;
}

/** One string argument in, one string out. */
function unary(transform: (s: string) => string): TemplateFunction {
  return fixed(1, ([value], context) => transform(text(value, context)));
}

/** Go's fmt.Sprint: operands printed, a space between two operands when neither is a string. */
function sprint(args: readonly unknown[], context: FunctionContext, spaces: boolean): string {
  let out = '';
  args.forEach((arg, i) => {
    if (i > 0 && (spaces || (typeof arg !== 'string' && typeof args[i - 1] !== 'string'))) out += ' ';
    out += text(arg, context);
    if (out.length > context.maxLength) failTooLarge('the printed text', context.maxLength);
  });
  return out;
}

function replaceAll(old: string, replacement: string, subject: string, context: FunctionContext): string {
  if (old === '') {
    const chars = Array.from(subject);
    const size = subject.length + (chars.length + 1) * replacement.length;
    if (size > context.maxLength) failTooLarge('the result of replace', context.maxLength);
    return replacement + chars.join(replacement) + (chars.length > 0 ? replacement : '');
  }
  const parts = subject.split(old);
  const size = subject.length + (parts.length - 1) * (replacement.length - old.length);
  if (size > context.maxLength) failTooLarge('the result of replace', context.maxLength);
  return parts.join(replacement);
}

export const TEXT_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  printf: variadic(1, ([format, ...args], context) => {
    if (typeof format !== 'string') throw new FunctionFailure(`printf: the format must be a string, got a ${kindOf(format)}`);
    return formatWith(parseFormat(format, context.maxLength), args, context.maxLength, context.maxDepth);
  }),
  print: variadic(0, (args, context) => sprint(args, context, false)),
  println: variadic(0, (args, context) => bounded(sprint(args, context, true) + '\n', 'println', context)),
  quote: variadic(0, (args, context) =>
    bounded(
      args
        .filter((a) => a !== undefined && a !== null)
        .map((a) => goQuote(text(a, context)))
        .join(' '),
      'quote',
      context,
    ),
  ),
  upper: unary((s) => s.toUpperCase()),
  lower: unary((s) => s.toLowerCase()),
  toUpper: unary((s) => s.toUpperCase()),
  toLower: unary((s) => s.toLowerCase()),
  trim: unary((s) => s.replace(/^[\s\u0085]+|[\s\u0085]+$/g, '')),
  trimPrefix: fixed(2, ([prefix, value], context) => {
    const p = text(prefix, context);
    const s = text(value, context);
    return p !== '' && s.startsWith(p) ? s.slice(p.length) : s;
  }),
  trimSuffix: fixed(2, ([suffix, value], context) => {
    const p = text(suffix, context);
    const s = text(value, context);
    return p !== '' && s.endsWith(p) ? s.slice(0, s.length - p.length) : s;
  }),
  replace: fixed(3, ([old, replacement, value], context) =>
    replaceAll(text(old, context), text(replacement, context), text(value, context), context),
  ),
  split: fixed(2, ([separator, value], context) => {
    const sep = text(separator, context);
    const s = text(value, context);
    return sep === '' ? Array.from(s) : s.split(sep);
  }),
  join: fixed(2, ([separator, list], context) => {
    const sep = text(separator, context);
    if (list === undefined || list === null) return '';
    if (typeof list === 'string') return list;
    if (!Array.isArray(list)) throw new FunctionFailure(`join: expected a list, got a ${kindOf(list)}`);
    let out = '';
    for (let i = 0; i < list.length; i++) {
      out += (i > 0 ? sep : '') + text(list[i], context);
      if (out.length > context.maxLength) failTooLarge('the result of join', context.maxLength);
    }
    return out;
  }),
  contains: fixed(2, ([needle, value], context) => text(value, context).includes(text(needle, context))),
  hasPrefix: fixed(2, ([prefix, value], context) => text(value, context).startsWith(text(prefix, context))),
  hasSuffix: fixed(2, ([suffix, value], context) => text(value, context).endsWith(text(suffix, context))),
};
