/**
 * `hooks` and `constructor` of an operatorBox (the names code registers under) with their `args` (Orkestra's
 * `hooks.args` / `constructor.args`, the same in both dialects): a map handed to the code as written, except that
 * a hook's text values containing `{{` are templates, rendered for each object (docs/orkestra-compatibility.md#
 * hook-and-constructor-args). Template syntax in hook args is checked here, at file:line:column.
 */
import type { Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';
import type { OperatorBox } from './types.js';
import { toPlain } from './freeze.js';
import { checkTemplates } from './template-check.js';

interface HooksInput {
  readonly function?: string;
  readonly runHooksFirst?: boolean;
  readonly args?: Readonly<Record<string, unknown>>;
}

interface ConstructorInput {
  readonly function?: string;
  readonly args?: Readonly<Record<string, unknown>>;
}

/** The model's `hooks` and `constructor`; `args` only when declared. */
export function codeRefs(
  hooks: HooksInput | undefined,
  constructor: ConstructorInput | undefined,
  origin: Origin,
  path: Path,
  problems: ProblemList,
): Pick<OperatorBox, 'hooks' | 'constructor'> {
  if (hooks?.args !== undefined) checkTemplates(hooks.args, [...path, 'hooks', 'args'], origin, problems);
  const args = (input: { readonly args?: Readonly<Record<string, unknown>> } | undefined): { args?: Readonly<Record<string, unknown>> } =>
    input?.args === undefined ? {} : { args: toPlain(input.args) as Readonly<Record<string, unknown>> };
  return {
    hooks: hooks?.function === undefined ? undefined : { function: hooks.function, runHooksFirst: hooks.runHooksFirst ?? false, ...args(hooks) },
    constructor: constructor?.function === undefined ? undefined : { function: constructor.function, ...args(constructor) },
  };
}
