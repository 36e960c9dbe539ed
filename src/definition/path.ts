/**
 * Document paths: where a value sits in a definition, written the way people read it:
 * `spec.crds.website.operatorBox.onCreate.deployments[0].replicas`. Keys that are not plain identifiers are
 * quoted (`labels["app.kubernetes.io/name"]`), so a printed path always names exactly one place.
 */

/** A path as segments: strings are map keys, numbers are list indices. */
export type Path = readonly (string | number)[];

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/** Formats a path; the empty path is `''` (the document itself). */
export function formatPath(path: Path): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

/**
 * How to name the object at `path` in a message: from its last key on (`operatorBox`, `deployments[0]`,
 * `crds[1]`), or `the document` for the root.
 */
export function describeObject(path: Path): string {
  let start = path.length - 1;
  while (start > 0 && typeof path[start] === 'number') start--;
  return start < 0 ? 'the document' : formatPath(path.slice(start));
}
