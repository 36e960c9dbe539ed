/**
 * "Did you mean": the nearest known name to a misspelt one, by optimal-string-alignment distance
 * (Levenshtein plus adjacent transpositions), compared case-insensitively.
 */

/** Edit distance where inserting, deleting or substituting a character, or swapping two adjacent ones, costs 1. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j] ?? 0;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i * cols + j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The known name nearest to `name`, or `undefined` when none is close enough. Close enough means: an edit
 * distance of at most a third of the longer name (at least 2), or one name being a prefix of the other with
 * the shorter at least 4 characters long (`reconcileMode` → `reconcile`). Ties go to the earlier candidate.
 */
export function nearest(name: string, candidates: Iterable<string>): string | undefined {
  const wanted = name.toLowerCase();
  let best: string | undefined;
  let bestScore = Infinity;
  for (const candidate of candidates) {
    const known = candidate.toLowerCase();
    const distance = editDistance(wanted, known);
    const limit = Math.max(2, Math.floor(Math.max(wanted.length, known.length) / 3));
    const shorter = Math.min(wanted.length, known.length);
    const prefix = shorter >= 4 && (wanted.startsWith(known) || known.startsWith(wanted));
    if (distance > limit && !prefix) continue;
    if (distance < bestScore) {
      best = candidate;
      bestScore = distance;
    }
  }
  return best;
}

/** `; did you mean "x"?` or nothing. */
export function didYouMean(suggestion: string | undefined): string {
  return suggestion === undefined ? '' : `; did you mean "${suggestion}"?`;
}
