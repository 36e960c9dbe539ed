/**
 * Whether Go's `regexp` (RE2 syntax) compiles a pattern, for the CRD check kube-apiserver makes of every schema
 * `pattern`: the errors an author coming from JavaScript or PCRE meets, worded as Go's `regexp/syntax` words them
 * (`error parsing regexp: <code>: `<expr>``). Covered: lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`), unknown flags,
 * bad capture names, backreferences and other escapes RE2 lacks (`\1`, `\u00e9`, `\Z`), a trailing backslash,
 * unbalanced parentheses, an unclosed class, a reversed range of plain characters, a repetition with nothing to
 * repeat or of a repetition (`a**`, possessive `a++`) and a bad repeat count. Not covered (the pattern is taken as
 * valid): bad `\p{…}` names, ranges with escapes, invalid UTF-8.
 */

const fail = (code: string, expr: string): string => `error parsing regexp: ${code}: \`${expr}\``;

/** The letters RE2 accepts after a backslash (besides punctuation): anywhere, in a class, and as a range's end. */
const ESCAPE_LETTERS = new Set('afnrtvxpPdDsSwWbBAzQ');
const CLASS_ESCAPE_LETTERS = new Set('afnrtvxpPdDsSwW');
const RANGE_END_ESCAPE_LETTERS = new Set('afnrtvx');

/** Go's error for `pattern`, or undefined when it compiles (as far as this check sees). */
export function re2SyntaxError(pattern: string): string | undefined {
  let depth = 0;
  /** Whether the last thing read can be repeated, or was itself a repetition. */
  let last: 'none' | 'atom' | 'repeat' = 'none';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i] ?? '';
    if (c === '\\') {
      const escape = escapeError(pattern, i);
      if (escape !== undefined) return escape;
      if (pattern[i + 1] === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        i = end < 0 ? pattern.length : end + 2;
      } else {
        i += 2;
      }
      last = 'atom';
      continue;
    }
    if (c === '[') {
      const end = classEnd(pattern, i);
      if (typeof end === 'string') return end;
      i = end;
      last = 'atom';
      continue;
    }
    if (c === '(') {
      const group = groupHeader(pattern, i);
      if (typeof group === 'string') return group;
      i = group;
      // A flags-only group, `(?i)`, opens nothing, and what came before it can still be repeated.
      if (pattern[group - 1] === ')') continue;
      depth += 1;
      last = 'none';
      continue;
    }
    if (c === ')') {
      if (depth === 0) return fail('unexpected )', pattern);
      depth -= 1;
      last = 'atom';
      i += 1;
      continue;
    }
    if (c === '|') {
      last = 'none';
      i += 1;
      continue;
    }
    if (c === '*' || c === '+' || c === '?' || (c === '{' && /^\{\d+(,\d*)?\}/.test(pattern.slice(i)))) {
      const operator = c === '{' ? (/^\{\d+(,\d*)?\}/.exec(pattern.slice(i))?.[0] ?? c) : c;
      if (c === '{') {
        const counts = operator.slice(1, -1).split(',').filter((part) => part !== '').map(Number);
        if (counts.some((count) => count > 1000) || (counts.length === 2 && (counts[1] ?? 0) < (counts[0] ?? 0))) return fail('invalid repeat count', operator);
      }
      if (last === 'none') return fail('missing argument to repetition operator', operator);
      if (last === 'repeat') return fail('invalid nested repetition operator', `${repeatBefore(pattern, i)}${operator}`);
      i += operator.length;
      if (pattern[i] === '?') i += 1; // non-greedy
      last = 'repeat';
      continue;
    }
    last = 'atom';
    i += 1;
  }
  return depth > 0 ? fail('missing closing )', pattern) : undefined;
}

/**
 * The index after a group's opening (`(`, `(?:`, `(?i:`, `(?i)`, `(?<name>`), or Go's error for one it does not read:
 * a named capture with a bad name, lookaround, an unknown flag.
 */
function groupHeader(pattern: string, at: number): number | string {
  if (pattern[at + 1] !== '?') return at + 1;
  if (pattern.startsWith('(?<', at) || pattern.startsWith('(?P<', at)) {
    const end = pattern.indexOf('>', at);
    if (end < 0) return fail('invalid named capture', pattern.slice(at));
    const name = pattern.slice(pattern[at + 2] === 'P' ? at + 4 : at + 3, end);
    return /^[A-Za-z0-9_]+$/.test(name) ? end + 1 : fail('invalid named capture', pattern.slice(at, end + 1));
  }
  let i = at + 2;
  while (i < pattern.length && 'imsU-'.includes(pattern[i] ?? '')) i += 1;
  if (pattern[i] === ':' || pattern[i] === ')') return i + 1;
  return fail('invalid or unsupported Perl syntax', pattern.slice(at, i + 1));
}

/** The repetition operator that ends just before `at`. */
function repeatBefore(pattern: string, at: number): string {
  const before = pattern.slice(0, at);
  return /(\{\d+(,\d*)?\}|[*+?])\??$/.exec(before)?.[0] ?? '';
}

function escapeError(pattern: string, at: number, letters: ReadonlySet<string> = ESCAPE_LETTERS): string | undefined {
  const next = pattern[at + 1];
  if (next === undefined) return fail('trailing backslash at end of expression', '');
  // A single digit 1–7 followed by an octal digit is an octal escape; any other lone digit is a backreference.
  if (/[1-9]/.test(next) && !(next <= '7' && /[0-7]/.test(pattern[at + 2] ?? ''))) return fail('invalid escape sequence', `\\${next}`);
  if (/[A-Za-z]/.test(next) && !letters.has(next)) return fail('invalid escape sequence', `\\${next}`);
  return undefined;
}

/** The index after the class that opens at `at`, or Go's error when it does not close. */
function classEnd(pattern: string, at: number): number | string {
  let i = at + 1;
  if (pattern[i] === '^') i += 1;
  if (pattern[i] === ']') i += 1; // a leading ] is literal
  while (i < pattern.length) {
    const c = pattern[i] ?? '';
    if (c === ']') return i + 1;
    const high = pattern[i + 2];
    if (c !== '\\' && pattern[i + 1] === '-' && high !== undefined && high !== ']') {
      if (high === '\\') {
        const escape = escapeError(pattern, i + 2, RANGE_END_ESCAPE_LETTERS);
        if (escape !== undefined) return escape;
        i += 4;
        continue;
      }
      if (high < c) return fail('invalid character class range', pattern.slice(i, i + 3));
      i += 3;
      continue;
    }
    if (c === '[' && pattern[i + 1] === ':') {
      const end = pattern.indexOf(':]', i + 2);
      if (end >= 0) {
        i = end + 2;
        continue;
      }
    }
    if (c === '\\') {
      const escape = escapeError(pattern, i, CLASS_ESCAPE_LETTERS);
      if (escape !== undefined) return escape;
      i += 2;
      continue;
    }
    i += 1;
  }
  return fail('missing closing ]', pattern.slice(at));
}
