/**
 * The base64 fields of built-in kinds (a Secret's `data`, a ConfigMap's `binaryData`) as kube-apiserver decodes them:
 * Go's standard encoding with padding (line breaks skipped), whose error names the byte where it gave up. A value that does not
 * decode fails the whole request with 400 before anything else is looked at.
 */
import { badRequest } from '../../status-errors.js';
import { objectAt, type Json } from './fields.js';

const ALPHABET = /[A-Za-z0-9+/]/;

/** Where Go's `base64.StdEncoding` gives up on `text` (its CorruptInputError), or -1 when it decodes. */
function badByte(text: string): number {
  let si = 0;
  const skipNewlines = (): void => {
    while (si < text.length && (text[si] === '\n' || text[si] === '\r')) si++;
  };
  while (si < text.length) {
    for (let j = 0; j < 4; j++) {
      skipNewlines();
      // A quantum cut short is refused where it began.
      if (si === text.length) return j === 0 ? -1 : si - j;
      const c = text.charAt(si);
      si++;
      if (ALPHABET.test(c)) continue;
      if (c !== '=' || j < 2) return si - 1;
      if (j === 2) {
        skipNewlines();
        if (si === text.length) return si;
        if (text[si] !== '=') return si - 1;
        si++;
      }
      skipNewlines();
      return si < text.length ? si : -1;
    }
  }
  return -1;
}

const FIELDS: Readonly<Record<string, string>> = { '/secrets': 'data', '/configmaps': 'binaryData' };

/** Throws kube-apiserver's 400 when a base64 field of `object` (of the resource `key`, kind `kind`) does not decode. */
export function checkBase64Fields(key: string, kind: string, object: Json): void {
  const field = FIELDS[key];
  if (field === undefined) return;
  for (const value of Object.values(objectAt(object, field) ?? {})) {
    const at = typeof value === 'string' ? badByte(value) : 0;
    if (at >= 0) throw badRequest(`${kind} in version "v1" cannot be handled as a ${kind}: illegal base64 data at input byte ${at}`);
  }
}
