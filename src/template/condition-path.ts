/**
 * Field paths of conditions: `spec.tier`, `.metadata.labels.app`, `spec.ports[0].port`, `spec.ports.0.port`,
 * `metadata.labels["app.kubernetes.io/name"]`. Resolution reads own properties only, like templates.
 */
import { getKey } from './values.js';

export type PathSegment = string | number;

/** Parses a field path; `undefined` when it is malformed or empty. A leading dot is allowed. */
export function parseFieldPath(field: string): PathSegment[] | undefined {
  let s = field.trim();
  if (s.startsWith('.')) s = s.slice(1);
  const segments: PathSegment[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === '[') {
      const close = readBracket(s, i);
      if (close === undefined) return undefined;
      segments.push(close.segment);
      i = close.end;
    } else {
      let end = i;
      while (end < s.length && s[end] !== '.' && s[end] !== '[') end++;
      if (end === i) return undefined;
      segments.push(s.slice(i, end));
      i = end;
    }
    if (s[i] === '.') {
      i++;
      if (i >= s.length) return undefined;
    } else if (i < s.length && s[i] !== '[') return undefined;
  }
  return segments.length > 0 ? segments : undefined;
}

function readBracket(s: string, start: number): { segment: PathSegment; end: number } | undefined {
  const quote = s[start + 1];
  if (quote === '"' || quote === "'") {
    let i = start + 2;
    let text = '';
    while (i < s.length && s[i] !== quote) {
      if (s[i] === '\\' && i + 1 < s.length) i++;
      text += s[i] ?? '';
      i++;
    }
    if (s[i] !== quote || s[i + 1] !== ']') return undefined;
    return { segment: text, end: i + 2 };
  }
  const close = s.indexOf(']', start);
  if (close < 0) return undefined;
  const digits = s.slice(start + 1, close);
  if (!/^\d+$/.test(digits)) return undefined;
  return { segment: Number(digits), end: close + 1 };
}

/** Resolves a parsed path against data: maps by own key, lists by position; anything else is missing. */
export function resolvePath(data: unknown, segments: readonly PathSegment[]): unknown {
  let current = data;
  for (const segment of segments) {
    if (current === undefined || current === null) return undefined;
    if (Array.isArray(current)) {
      const position = typeof segment === 'number' ? segment : /^\d+$/.test(segment) ? Number(segment) : -1;
      current = position >= 0 && position < current.length ? (current[position] as unknown) : undefined;
    } else {
      current = getKey(current, String(segment));
    }
  }
  return current;
}
