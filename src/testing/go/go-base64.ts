/**
 * Go's standard base64 decoding (`base64.StdEncoding`: padding required, line breaks skipped), as kube-apiserver
 * decodes a `[]byte` field from JSON: where it gives up, which its error names (`illegal base64 data at input byte 4`).
 */

const ALPHABET = /[A-Za-z0-9+/]/;

/** Where Go's `base64.StdEncoding` gives up on `text` (its CorruptInputError), or -1 when it decodes. */
export function goBase64Error(text: string): number {
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
