/**
 * Errors of katalog. Every error the library raises is a {@link KatalogError} with a stable `code`
 * and, where it wraps something, the original `cause`. This module may be imported from any layer.
 */

/** The base class of every error katalog raises. `code` is stable and meant for programs; `message` for people. */
export class KatalogError extends Error {
  /** A stable, machine-readable code such as `E_DEFINITION` or `E_TEMPLATE`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
  }
}

/** One problem found in a definition. Every field but `code`, `path` and `message` is optional. */
export interface DefinitionProblem {
  /** Stable code of the problem, for example `unknown-field`, `invalid-duration`, `dependency-cycle`. */
  readonly code: string;
  /** Document path of the offending value, for example `spec.crds.website.operatorBox.onCreate.deployments[0].replicas`. */
  readonly path: string;
  /** What is wrong, for a person. */
  readonly message: string;
  /** The file the value came from, when it came from a file (or the `source` given to the parser). */
  readonly file?: string;
  /** 1-based line in that file, when known. */
  readonly line?: number;
  /** 1-based column in that file, when known. */
  readonly column?: number;
  /** The nearest known name, for unknown fields. */
  readonly suggestion?: string;
}

/** Formats one problem as `file:line:column: path: message`, leaving out what is unknown. */
export function formatProblem(problem: DefinitionProblem): string {
  let where = '';
  if (problem.file !== undefined) {
    where = problem.file;
    if (problem.line !== undefined) {
      where += `:${problem.line}`;
      if (problem.column !== undefined) where += `:${problem.column}`;
    }
    where += ': ';
  }
  const path = problem.path === '' ? '' : `${problem.path}: `;
  return `${where}${path}${problem.message}`;
}

/**
 * A definition (Katalog, Komposer or Motif) is invalid. Carries every problem found, not only the first;
 * the message lists them all, one per line.
 */
export class DefinitionError extends KatalogError {
  readonly problems: readonly DefinitionProblem[];

  constructor(problems: readonly DefinitionProblem[], options?: { cause?: unknown }) {
    const count = problems.length;
    const head = `invalid definition: ${count} problem${count === 1 ? '' : 's'}`;
    super('E_DEFINITION', [head, ...problems.map((p) => `  - ${formatProblem(p)}`)].join('\n'), options);
    this.problems = Object.freeze([...problems]);
  }
}

/**
 * A template failed to compile or to render. `line` and `column` are 1-based positions inside the
 * template text; `template` names the template (its path in the definition) when the caller gave one.
 */
export class TemplateError extends KatalogError {
  readonly template: string | undefined;
  readonly line: number;
  readonly column: number;
  /** The message without the location prefix. */
  readonly reason: string;

  constructor(
    code: string,
    reason: string,
    where: { template?: string | undefined; line: number; column: number },
    options?: { cause?: unknown },
  ) {
    const name = where.template === undefined ? 'template' : where.template;
    super(code, `${name}:${where.line}:${where.column}: ${reason}`, options);
    this.template = where.template;
    this.line = where.line;
    this.column = where.column;
    this.reason = reason;
  }
}

/** The runtime cannot start or run as configured (unregistered hooks, unreachable API server, forbidden list...). */
export class RuntimeError extends KatalogError {}

/** A call to the Kubernetes API failed. `status` is the HTTP status when there was a response. */
export class KubeError extends KatalogError {
  readonly status: number | undefined;
  readonly reason: string | undefined;

  constructor(message: string, details: { status?: number | undefined; reason?: string | undefined }, options?: { cause?: unknown }) {
    super('E_KUBE', message, options);
    this.status = details.status;
    this.reason = details.reason;
  }
}

/**
 * Normalises anything thrown (by user code or a dependency) to an `Error`, so that nothing downstream
 * has to guess: strings become the message, other values are described, and the original is kept as `cause`.
 */
export function toError(value: unknown): Error {
  if (value instanceof Error) return value;
  if (typeof value === 'string') return new Error(value, { cause: value });
  let description: string;
  try {
    description = JSON.stringify(value) ?? String(value);
  } catch {
    description = Object.prototype.toString.call(value);
  }
  return new Error(`non-error thrown: ${description}`, { cause: value });
}
