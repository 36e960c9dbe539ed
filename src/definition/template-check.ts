/**
 * Template syntax at load time: every string that contains `{{` in template entries, status fields and
 * conditions is compiled once, and each failure becomes a `template-syntax` problem placed at the exact
 * character when the string maps one-to-one to the file (see positions.ts), else at the string itself.
 */
import { TemplateError } from '../errors.js';
import { compileTemplate } from '../template/index.js';
import { formatPath, type Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';

/** Compiles a template source, throwing `TemplateError` on a syntax error. Injected for tests. */
export type CompileCheck = (source: string, name: string) => void;

function compileFor(origin: Origin): CompileCheck {
  return (source, name) => {
    const notes = origin.notes?.list ?? [];
    compileTemplate(source, { name, ...(origin.dialect === undefined ? {} : { dialect: origin.dialect }), ...(notes.length === 0 ? {} : { notes }) });
  };
}

/**
 * Compiles every string leaf containing `{{` under `value` (a checked input subtree at `path` of `origin`).
 * Errors other than `TemplateError` are reported too (as the template module's bug, not the user's), so that
 * loading never crashes on a template.
 */
export function checkTemplates(
  value: unknown,
  path: Path,
  origin: Origin,
  problems: ProblemList,
  compile: CompileCheck = compileFor(origin),
): void {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return;
    try {
      compile(value, formatPath(path));
    } catch (error) {
      // A note that does not compile is reported once, at the note (definition/notes.ts), not at every caller.
      if (error instanceof TemplateError && error.template?.startsWith('notes.') === true && (origin.notes?.list.length ?? 0) > 0) return;
      if (error instanceof TemplateError) {
        problems.add(origin, path, 'template-syntax', `invalid template: ${error.reason}`, { within: clamp(value, error.line, error.column) });
      } else {
        problems.add(origin, path, 'template-syntax', `invalid template: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item: unknown, index) => checkTemplates(item, [...path, index], origin, problems, compile));
    return;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) checkTemplates(item, [...path, key], origin, problems, compile);
  }
}

/**
 * A place inside `source`, moved back onto the text when it lies past the end (an "unexpected EOF" after a final
 * newline): then it points just after the last character, which is in the file.
 */
function clamp(source: string, line: number, column: number): { line: number; column: number } {
  const lines = source.replace(/\n+$/, '').split('\n');
  const last = lines.length;
  const lastLength = (lines[last - 1] ?? '').length;
  if (line > last || (line === last && column > lastLength + 1)) return { line: last, column: lastLength + 1 };
  return { line, column };
}
