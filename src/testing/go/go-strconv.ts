/**
 * Go's `strconv.Atoi` on a 64-bit platform, with its error texts: what kube-apiserver's JSON patch library reads an
 * array index with, and quotes when it fails (`strconv.Atoi: parsing "x": invalid syntax`). Pure.
 */
import { goQuote } from './go-values.js';

const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;
/** ParseUint's bound past which one more digit overflows (`maxUint64/10 + 1`). */
const CUTOFF = UINT64_MAX / 10n + 1n;

/** The int `text` holds, or the error Atoi answers: a sign (`+` or `-`) then digits, leading zeros allowed. */
export function goAtoi(text: string): { readonly value: bigint } | { readonly error: string } {
  const syntax = { error: `strconv.Atoi: parsing ${goQuote(text)}: invalid syntax` };
  const range = { error: `strconv.Atoi: parsing ${goQuote(text)}: value out of range` };
  const negative = text.startsWith('-');
  const digits = negative || text.startsWith('+') ? text.slice(1) : text;
  if (digits === '') return syntax;
  // Below 19 characters Atoi's fast path cannot overflow; above, ParseUint reports an overflow as soon as it sees
  // it, before a later character that is not a digit.
  let value = 0n;
  for (const char of digits) {
    if (char < '0' || char > '9') return syntax;
    if (value >= CUTOFF) return range;
    value = value * 10n + BigInt(char.charCodeAt(0) - 48);
    if (value > UINT64_MAX) return range;
  }
  if (value > (negative ? INT64_MAX + 1n : INT64_MAX)) return range;
  return { value: negative ? -value : value };
}
