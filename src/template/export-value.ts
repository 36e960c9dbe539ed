/**
 * Type preservation's last step, shared by the evaluator path and the fast paths: a single-action template hands
 * its value out; strings are charged to the output budget, lists and maps are copied (never the data's own).
 */
import { templateError, type TemplateSourceInfo } from './failure.js';
import type { RenderState } from './state.js';
import { copyValue, utf8Length } from './values.js';

export function exportValue(state: RenderState, info: TemplateSourceInfo, value: unknown): unknown {
  if (typeof value === 'string') {
    state.bytes += utf8Length(value);
    if (state.bytes > state.limits.maxOutputBytes) {
      throw templateError('E_TEMPLATE_LIMIT', `output larger than the limit of ${state.limits.maxOutputBytes} bytes`, info, 0);
    }
    return value;
  }
  return typeof value === 'object' && value !== null ? copyValue(value, state.limits.maxDepth) : value;
}
