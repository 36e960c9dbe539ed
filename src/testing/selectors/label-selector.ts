/**
 * Label selectors as the API server parses them from `labelSelector`: comma-separated requirements
 * `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`, `k>n`, `k<n`.
 */
import { badRequest } from '../status-errors.js';

type Requirement =
  | { readonly op: 'eq' | 'ne'; readonly key: string; readonly value: string }
  | { readonly op: 'in' | 'notin'; readonly key: string; readonly values: ReadonlySet<string> }
  | { readonly op: 'exists' | 'absent'; readonly key: string }
  | { readonly op: 'gt' | 'lt'; readonly key: string; readonly bound: number };

/** A parsed label selector; the empty selector matches everything. */
export interface LabelSelector {
  readonly empty: boolean;
  matches(labels: Readonly<Record<string, string>>): boolean;
  /** A `key=value` (or `key==value`) requirement of the selector, when it has one: nothing else can match. */
  readonly equality?: { readonly key: string; readonly value: string };
}

const KEY = /^(?:[a-z0-9A-Z]([-a-z0-9A-Z.]*[a-z0-9A-Z])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts.map((p) => p.trim());
}

function checkKey(key: string, source: string): string {
  if (!KEY.test(key) || key.length > 316) throw badRequest(`unable to parse requirement: invalid label key "${key}" in "${source}"`);
  return key;
}

function checkValue(value: string, source: string): string {
  if (!VALUE.test(value) || value.length > 63) throw badRequest(`unable to parse requirement: invalid label value "${value}" in "${source}"`);
  return value;
}

function parseRequirement(part: string): Requirement {
  let m = /^!\s*(\S+)$/.exec(part);
  if (m !== null) return { op: 'absent', key: checkKey(m[1] ?? '', part) };
  m = /^(\S+?)\s+(in|notin)\s*\(([^()]*)\)$/.exec(part);
  if (m !== null) {
    const values = (m[3] ?? '').split(',').map((v) => checkValue(v.trim(), part));
    return { op: m[2] === 'in' ? 'in' : 'notin', key: checkKey(m[1] ?? '', part), values: new Set(values) };
  }
  m = /^([^\s=!<>]+)\s*(==|=|!=)\s*(\S*)$/.exec(part);
  if (m !== null) {
    return { op: m[2] === '!=' ? 'ne' : 'eq', key: checkKey(m[1] ?? '', part), value: checkValue(m[3] ?? '', part) };
  }
  m = /^([^\s=!<>]+)\s*([<>])\s*(-?\d+)$/.exec(part);
  if (m !== null) return { op: m[2] === '>' ? 'gt' : 'lt', key: checkKey(m[1] ?? '', part), bound: Number(m[3]) };
  m = /^([^\s=!<>()]+)$/.exec(part);
  if (m !== null) return { op: 'exists', key: checkKey(m[1] ?? '', part) };
  throw badRequest(`unable to parse requirement: "${part}"`);
}

function has(labels: Readonly<Record<string, string>>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(labels, key);
}

function matchOne(r: Requirement, labels: Readonly<Record<string, string>>): boolean {
  switch (r.op) {
    case 'eq':
      return has(labels, r.key) && labels[r.key] === r.value;
    case 'ne':
      return !has(labels, r.key) || labels[r.key] !== r.value;
    case 'in':
      return has(labels, r.key) && r.values.has(labels[r.key] ?? '');
    case 'notin':
      return !has(labels, r.key) || !r.values.has(labels[r.key] ?? '');
    case 'exists':
      return has(labels, r.key);
    case 'absent':
      return !has(labels, r.key);
    case 'gt':
    case 'lt': {
      if (!has(labels, r.key)) return false;
      const n = Number(labels[r.key]);
      if (!Number.isInteger(n)) return false;
      return r.op === 'gt' ? n > r.bound : n < r.bound;
    }
  }
}

const EVERYTHING: LabelSelector = { empty: true, matches: () => true };

/** Parses a `labelSelector` query value; throws a 400 StatusError on bad syntax. */
export function parseLabelSelector(text: string | undefined): LabelSelector {
  if (text === undefined || text.trim() === '') return EVERYTHING;
  const requirements = splitTopLevel(text).filter((p) => p !== '').map(parseRequirement);
  const equality = requirements.find((r) => r.op === 'eq');
  return {
    empty: false,
    matches: (labels) => requirements.every((r) => matchOne(r, labels)),
    ...(equality?.op === 'eq' ? { equality: { key: equality.key, value: equality.value } } : {}),
  };
}
