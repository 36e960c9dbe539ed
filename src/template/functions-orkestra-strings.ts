/**
 * Orkestra's string, data, type and collection notes (`pkg/note`: strings, data, types, collections, domain
 * domains). Orkestra's string functions take Go's `strings` argument order — the subject first
 * (`replace S OLD NEW`, `hasPrefix S PREFIX`, `join LIST SEP`) — where Sprig puts it last; each is listed in
 * docs/orkestra-compatibility.md. All are pure and bounded by the render's output limit.
 */
import { createHash } from 'node:crypto';
import { FunctionFailure } from './failure.js';
import { fixed, variadic, type FunctionContext, type TemplateFunction } from './function-type.js';
import { getKey, isMap, kindOf, mapKeys, printValue } from './values.js';

export function noteText(value: unknown, context: FunctionContext): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : printValue(value, context.maxLength, context.maxDepth);
}

function bounded(text: string, name: string, context: FunctionContext): string {
  if (text.length > context.maxLength) throw new FunctionFailure(`${name}: the result is longer than ${context.maxLength} characters`);
  return text;
}

function count(name: string, value: unknown): number {
  const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new FunctionFailure(`${name}: expected a whole number, got ${kindOf(value)}`);
  return n;
}

function numberOf(name: string, value: unknown): number {
  if (value === undefined || value === null || value === '') return 0;
  const n = typeof value === 'string' ? Number(value.trim()) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new FunctionFailure(`${name}: expected a number, got ${kindOf(value)}`);
  return n;
}

function escapeCutset(cutset: string): string {
  return Array.from(cutset, (c) => c.replace(/[\\^\]-]/g, '\\$&')).join('');
}

/** Go's strings.Trim: removes every leading and trailing character that is in `cutset`. */
function trimCutset(s: string, cutset: string): string {
  if (cutset === '') return s;
  const set = escapeCutset(cutset);
  return s.replace(new RegExp(`^[${set}]+|[${set}]+$`, 'gu'), '');
}

/** A value as a list: a list as is, a JSON array text parsed, anything else empty (Orkestra's asList). */
function asList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string' && value.trim().startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      return []; // Orkestra: a text that does not parse is an empty list, not an error
    }
  }
  return [];
}

function asMap(value: unknown): Readonly<Record<string, unknown>> {
  if (isMap(value)) return value;
  if (typeof value === 'string' && value.trim().startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (isMap(parsed)) return parsed;
    } catch {
      return {}; // Orkestra: a text that does not parse is an empty map, not an error
    }
  }
  return {};
}

/** Orkestra's typeOf names: map, slice, string, number, bool, null. */
function typeName(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return 'slice';
  if (isMap(value)) return 'map';
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'string' ? 'string' : 'unknown';
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export const ORKESTRA_STRING_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  // strings (Go argument order: the subject first)
  trim: { minArgs: 1, maxArgs: 2, call: (args, c) => (args.length === 1 ? noteText(args[0], c).trim() : trimCutset(noteText(args[0], c), noteText(args[1], c))) },
  trimSpace: fixed(1, ([s], c) => noteText(s, c).trim()),
  trimPrefix: fixed(2, ([s, prefix], c) => {
    const [text, p] = [noteText(s, c), noteText(prefix, c)];
    return p !== '' && text.startsWith(p) ? text.slice(p.length) : text;
  }),
  trimSuffix: fixed(2, ([s, suffix], c) => {
    const [text, p] = [noteText(s, c), noteText(suffix, c)];
    return p !== '' && text.endsWith(p) ? text.slice(0, text.length - p.length) : text;
  }),
  replace: fixed(3, ([s, old, replacement], c) => {
    const [text, o, r] = [noteText(s, c), noteText(old, c), noteText(replacement, c)];
    return bounded(o === '' ? text : text.split(o).join(r), 'replace', c);
  }),
  split: fixed(2, ([s, separator], c) => {
    const [text, sep] = [noteText(s, c), noteText(separator, c)];
    return sep === '' ? Array.from(text) : text.split(sep);
  }),
  join: fixed(2, ([list, separator], c) => bounded(asList(list).map((item) => noteText(item, c)).join(noteText(separator, c)), 'join', c)),
  contains: fixed(2, ([s, sub], c) => noteText(s, c).includes(noteText(sub, c))),
  hasPrefix: fixed(2, ([s, prefix], c) => noteText(s, c).startsWith(noteText(prefix, c))),
  hasSuffix: fixed(2, ([s, suffix], c) => noteText(s, c).endsWith(noteText(suffix, c))),
  repeat: fixed(2, ([s, n], c) => {
    const [text, times] = [noteText(s, c), count('repeat', n)];
    if (times < 0) throw new FunctionFailure('repeat: the count must not be negative');
    if (text.length * times > c.maxLength) throw new FunctionFailure(`repeat: the result is longer than ${c.maxLength} characters`);
    return text.repeat(times);
  }),
  /** At most N characters; `...` is appended when cut (Orkestra's truncate; Sprig's trunc adds nothing). */
  truncate: fixed(2, ([s, n], c) => {
    const chars = Array.from(noteText(s, c));
    const max = Math.max(0, count('truncate', n));
    return chars.length <= max ? chars.join('') : `${chars.slice(0, max).join('')}...`;
  }),
  truncateName: fixed(2, ([s, n], c) => Array.from(noteText(s, c)).slice(0, Math.max(0, count('truncateName', n))).join('')),
  concat: variadic(0, (args, c) => bounded(args.map((a) => noteText(a, c)).join(''), 'concat', c)),
  camelToKebab: fixed(1, ([s], c) =>
    noteText(s, c)
      .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
      .toLowerCase(),
  ),
  // data
  /** The first 8 hex characters of the SHA-256 of the text (katalog's own sha256sum gives all 64). */
  sha256sum: fixed(1, ([s], c) => createHash('sha256').update(noteText(s, c), 'utf8').digest('hex').slice(0, 8)),
  repoSlug: fixed(1, ([s], c) => {
    const text = noteText(s, c).trim().replace(/\/+$/, '');
    const last = text.split(/[/:]/).pop() ?? '';
    return slug(last.replace(/\.git$/, ''));
  }),
  /** `lookup KEY K1 V1 K2 V2...`: the value after the first K equal to KEY, else "" (a trailing K is ignored). */
  lookup: variadic(1, ([key, ...pairs], c) => {
    const wanted = noteText(key, c);
    for (let i = 0; i + 1 < pairs.length; i += 2) if (noteText(pairs[i], c) === wanted) return pairs[i + 1];
    return '';
  }),
  // domain
  domainHost: fixed(1, ([s]) => (typeof s === 'string' ? s.trim().replace(/^https?:\/\//, '').replace(/\/+$/, '') : '')),
  domainBare: fixed(1, ([s]) => (typeof s === 'string' ? s.trim().replace(/^https?:\/\//, '').replace(/\/+$/, '').replace(/^www\./, '') : '')),
  // collections
  asList: fixed(1, ([value]) => asList(value)),
  asMap: fixed(1, ([value]) => asMap(value)),
  listGet: fixed(2, ([list, index]) => {
    const items = asList(list);
    const i = typeof index === 'number' ? index : Number(index);
    return Number.isInteger(i) && i >= 0 && i < items.length ? items[i] : undefined;
  }),
  listHas: fixed(2, ([list, value], c) => asList(list).some((item) => item === value || (typeof item !== 'object' && noteText(item, c) === noteText(value, c) && typeof item === typeof value))),
  listLen: fixed(1, ([list]) => (Array.isArray(list) ? list.length : 0)),
  mapGet: fixed(2, ([map, key], c) => (isMap(map) ? getKey(map, noteText(key, c)) : undefined)),
  mapKeys: fixed(1, ([map]) => (isMap(map) ? mapKeys(map) : [])),
  mapValues: fixed(1, ([map]) => (isMap(map) ? mapKeys(map).map((key) => map[key]) : [])),
  // types
  typeOf: fixed(1, ([value]) => typeName(value)),
  typeMap: fixed(1, ([value]) => typeName(value) === 'map'),
  typeList: fixed(1, ([value]) => typeName(value) === 'slice'),
  typeString: fixed(1, ([value]) => typeName(value) === 'string'),
  typeNumber: fixed(1, ([value]) => typeName(value) === 'number'),
  typeBool: fixed(1, ([value]) => typeName(value) === 'bool'),
  typeNull: fixed(1, ([value]) => typeName(value) === 'null'),
  /** A comma-separated text as a list of trimmed texts; "" is an empty list. */
  toList: fixed(1, ([value], c) => {
    if (Array.isArray(value)) return value;
    const text = noteText(value, c).trim();
    return text === '' ? [] : text.split(',').map((part) => part.trim());
  }),
  /** Orkestra's toBool: Go's ParseBool words plus yes/no/on/off; "" is false; other texts are an error. */
  toBool: fixed(1, ([value]) => {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'number') return value !== 0;
    if (value === undefined || value === null) return false;
    const word = String(value as string).trim();
    if (['1', 't', 'T', 'true', 'True', 'TRUE', 'yes', 'YES', 'Yes', 'on', 'ON', 'On'].includes(word)) return true;
    if (['', '0', 'f', 'F', 'false', 'False', 'FALSE', 'no', 'NO', 'No', 'off', 'OFF', 'Off'].includes(word)) return false;
    throw new FunctionFailure(`toBool: the text (${word.length} characters) is not a boolean`);
  }),
  /** True division: `div 7 2` is 3.5 (Orkestra's notes compute in float64 and give a whole number when whole); Sprig's div truncates. */
  div: fixed(2, ([a, b]) => {
    const [x, y] = [numberOf('div', a), numberOf('div', b)];
    if (y === 0) throw new FunctionFailure('div: division by zero');
    return x / y;
  }),
  abs: fixed(1, ([value]) => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isFinite(n)) throw new FunctionFailure(`abs: expected a number, got ${kindOf(value)}`);
    return Math.abs(n);
  }),
};
