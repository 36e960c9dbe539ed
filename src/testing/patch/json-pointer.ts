/**
 * JSON Pointer (RFC 6901): parsing to reference tokens and resolving array indices.
 */
import { PatchError } from './patch-error.js';

/**
 * Splits a JSON Pointer into its unescaped reference tokens (`~1` is `/`, `~0` is `~`). The empty pointer is the
 * whole document and gives no tokens. Throws {@link PatchError} for a pointer that does not start with `/` or
 * holds a `~` not followed by `0` or `1`.
 */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new PatchError(`invalid JSON pointer "${pointer}": must be empty or start with "/"`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      if (/~[^01]|~$/.test(token)) throw new PatchError(`invalid JSON pointer "${pointer}": "~" must be followed by 0 or 1`);
      return token.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

/** Formats reference tokens back into a pointer (the inverse of {@link parsePointer}). */
export function formatPointer(tokens: readonly string[]): string {
  return tokens.map((token) => `/${token.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * The array index a token names, or `undefined` when the token is not an index: RFC 6901 allows `0` or digits
 * without a leading zero (no sign, no `-`).
 */
export function arrayIndex(token: string): number | undefined {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
  const index = Number(token);
  return Number.isSafeInteger(index) ? index : undefined;
}
