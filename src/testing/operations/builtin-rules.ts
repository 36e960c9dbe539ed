/**
 * The rules of a write of a built-in kind, as kube-apiserver's decoder and registry strategy apply them: the object,
 * defaulted by the caller before its registry behaviour ran (kinds/builtin/builtin-defaults.ts, as kube-apiserver's
 * decoder leaves it), has base64 fields that decode, then passes its kind's validation
 * (kinds/builtin/builtin-validation.ts), after ObjectMeta's (the caller's). Problems are one 422 `Invalid` with every
 * cause, in kube-apiserver's order.
 */
import { checkBase64Fields } from '../kinds/builtin/base64-data.js';
import { builtinProblems, builtinStatusProblems, builtinWarnings } from '../kinds/builtin/builtin-validation.js';
import type { ResourceView } from '../resources/resource-type.js';
import { invalid, type FieldProblem } from '../status-errors.js';
import { metadataOf, type KubeObject } from '../store/record.js';

/**
 * Validates `next`, the defaulted built-in object a write would store (`prev`: the stored one of an update).
 * A write to `/status` is judged by the kind's status rules alone, as kube-apiserver's status strategies do (most
 * kinds have none here: operators' tests write statuses as controllers would).
 */
export function checkBuiltin(
  view: ResourceView,
  next: KubeObject,
  prev: KubeObject | undefined,
  subresource: 'status' | undefined,
  warn: ((warning: string) => void) | undefined,
  metadata: readonly FieldProblem[] = [],
): KubeObject {
  checkBase64Fields(view.type.key, view.type.kind, next);
  const status = subresource === 'status';
  const problems = [...metadata, ...(status ? builtinStatusProblems(view.type.key, next) : builtinProblems(view.type.key, next, prev))];
  if (problems.length > 0) {
    const name = metadataOf(next)['name'];
    throw invalid(view.type, typeof name === 'string' ? name : '', problems);
  }
  // The strategy's warnings come once the object passed its validation (rest.BeforeCreate, BeforeUpdate).
  if (!status) for (const warning of builtinWarnings(view.type.key, next)) warn?.(warning);
  return next;
}
