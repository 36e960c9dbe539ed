/**
 * Orkestra's `cronDescribe` (`pkg/note/cron.go`) and `timeFormat` (`pkg/note/time.go`): functions of their
 * arguments only (neither reads the clock), unlike the clock notes (functions-orkestra-clock.ts).
 */
import { FunctionFailure } from './failure.js';
import { fixed, type TemplateFunction } from './function-type.js';
import { cronNormalize } from './functions-orkestra-formats.js';
import { formatGoTime, parseGoTimestamp } from './go-time.js';

/**
 * A sentence for a cron text, as Orkestra words it: the text is normalised first (macros expanded; anything
 * without five fields becomes `* * * * *`), then the first rule that fits.
 */
function cronDescribe(value: unknown): string {
  const norm = cronNormalize(value);
  const [min = '*', hr = '*', dom = '*', mon = '*', dow = '*'] = norm.split(' ');
  if (min.startsWith('*/') && hr === '*' && dom === '*' && mon === '*' && dow === '*') return `Every ${min.slice(2)} minutes`;
  if (min === '0' && hr === '*' && dom === '*' && mon === '*' && dow === '*') return 'Every hour';
  if (dom === '*' && mon === '*' && dow === '*' && min !== '*' && hr !== '*') return `At ${hr}:${min} every day`;
  if (dom === '*' && mon === '*' && dow !== '*') return `At ${hr}:${min} on day-of-week ${dow}`;
  if (dom !== '*' && mon === '*' && dow === '*') return `At ${hr}:${min} on day ${dom} of every month`;
  return `Cron: ${norm}`;
}

/** Go's fmt.Sprint of a template value, for the timestamp argument (only texts can parse). */
function sprint(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '<nil>';
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

export const ORKESTRA_TIME_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  cronDescribe: fixed(1, ([value]) => cronDescribe(value)),
  timeFormat: fixed(2, ([timestamp, layout]) => {
    if (typeof layout !== 'string') throw new FunctionFailure('timeFormat: the layout must be a text (a Go layout such as "Jan 2, 2006")');
    const instant = parseGoTimestamp(sprint(timestamp));
    return instant === undefined ? '' : formatGoTime(instant, layout);
  }),
};
