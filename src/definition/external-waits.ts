/**
 * The waits of one external call, normalised: `sleep` (a delay before each request) and `retryBackoff` (the
 * call's own retries within the cycle), both on the runtime's clock at run time. Each is bounded at load: a
 * `sleep` over {@link MAX_EXTERNAL_WAIT_MS}, or retries whose worst case (every attempt to its `timeout`, every
 * wait in full) is over it, are errors at the field — a call that may wait longer than a reconcile is allowed
 * to run by default (reconcileTimeout 5m) is a mistake, not a setting.
 */
import { DEFAULT_EXTERNAL_RETRY, MAX_EXTERNAL_WAIT_MS, retryDelays, type ExternalCall, type ExternalRetry } from './external-types.js';
import type { Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';
import type { ExternalCallInput } from './schema-operator-box.js';
import type { Loose } from './operator-box.js';
import { formatDuration, parseDuration } from '../util/duration.js';

const LIMIT = formatDuration(MAX_EXTERNAL_WAIT_MS);

function positive(text: string, origin: Origin, path: Path, problems: ProblemList): number | undefined {
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0) {
    problems.add(origin, path, 'invalid-value', `"${text}" is not a positive duration (such as 500ms, 5s, 1m)`);
    return undefined;
  }
  return ms;
}

/** `sleep` → milliseconds; undefined when absent or wrong (reported). */
export function readSleep(input: Loose<ExternalCallInput>, origin: Origin, at: Path, problems: ProblemList): number | undefined {
  if (input.sleep === undefined) return undefined;
  const ms = positive(input.sleep, origin, [...at, 'sleep'], problems);
  if (ms !== undefined && ms > MAX_EXTERNAL_WAIT_MS) {
    problems.add(origin, [...at, 'sleep'], 'invalid-value', `sleep "${input.sleep}" is longer than ${LIMIT}, the longest a reconcile runs by default (reconcileTimeout); a call waits at most that long`);
    return undefined;
  }
  return ms;
}

/** `retryBackoff` → the call's retry, Orkestra's defaults filling the rest; undefined when absent or wrong (reported). */
export function readRetry(input: Loose<ExternalCallInput>, timeoutMs: number, origin: Origin, at: Path, problems: ProblemList): ExternalRetry | undefined {
  const written = input.retryBackoff;
  if (written === undefined) return undefined;
  const path = [...at, 'retryBackoff'];
  const initialMs = written.initial === undefined ? DEFAULT_EXTERNAL_RETRY.initialMs : positive(written.initial, origin, [...path, 'initial'], problems);
  const maxMs = written.max === undefined ? Math.max(DEFAULT_EXTERNAL_RETRY.maxMs, initialMs ?? 0) : positive(written.max, origin, [...path, 'max'], problems);
  if (initialMs === undefined || maxMs === undefined) return undefined;
  if (maxMs < initialMs) {
    problems.add(origin, [...path, 'max'], 'invalid-value', `retryBackoff.max (${String(written.max)}) must not be shorter than initial (${formatDuration(initialMs)})`);
    return undefined;
  }
  const retry: ExternalRetry = {
    maxAttempts: written.maxAttempts ?? DEFAULT_EXTERNAL_RETRY.maxAttempts,
    initialMs,
    maxMs,
    multiplier: written.multiplier ?? DEFAULT_EXTERNAL_RETRY.multiplier,
  };
  const worst = retry.maxAttempts * timeoutMs + retryDelays(retry).reduce((sum, delay) => sum + delay, 0);
  if (worst > MAX_EXTERNAL_WAIT_MS) {
    problems.add(
      origin,
      path,
      'invalid-value',
      `retryBackoff may take ${formatDuration(worst)} (${retry.maxAttempts} attempts of up to ${formatDuration(timeoutMs)} and their waits), longer than ${LIMIT}, the longest a reconcile runs by default (reconcileTimeout); use fewer attempts or shorter waits`,
    );
    return undefined;
  }
  return retry;
}

/** The waits of `call` written back as katalog.dev/v1 input (defaults left out). */
export function waitsToInput(call: ExternalCall): Record<string, unknown> {
  const retry = call.retry;
  const d = DEFAULT_EXTERNAL_RETRY;
  return {
    ...(call.sleepMs === undefined ? {} : { sleep: formatDuration(call.sleepMs) }),
    ...(retry === undefined
      ? {}
      : {
          retryBackoff: {
            ...(retry.initialMs === d.initialMs ? {} : { initial: formatDuration(retry.initialMs) }),
            max: formatDuration(retry.maxMs),
            ...(retry.multiplier === d.multiplier ? {} : { multiplier: retry.multiplier }),
            ...(retry.maxAttempts === d.maxAttempts ? {} : { maxAttempts: retry.maxAttempts }),
          },
        }),
    ...(call.firesAtReconcile === false ? { fires: { reconcile: false } } : {}),
  };
}
