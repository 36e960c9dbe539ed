/**
 * Go-style durations (`30s`, `1m30s`, `2h`, `500ms`), parsed to and printed from milliseconds.
 * Printing follows Go's `time.Duration.String()`: `90s` prints `1m30s`, five minutes prints `5m0s`,
 * zero prints `0s`, and anything under a second prints in `ms`, `µs` or `ns`.
 */

const UNITS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const PART = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/;

/**
 * Parses a Go duration into milliseconds. Returns `undefined` for text that is not a duration
 * (the caller owns the error message, since only it knows where the text came from).
 * A bare `0` is accepted, as in Go; negative durations are not (no setting of ours can be negative).
 */
export function parseDuration(text: string): number | undefined {
  if (text === '0') return 0;
  if (text === '') return undefined;
  let rest = text;
  let total = 0;
  while (rest.length > 0) {
    const match = PART.exec(rest);
    if (match === null) return undefined;
    const [whole, number = '', unit = ''] = match;
    const scale = UNITS[unit];
    if (scale === undefined) return undefined;
    total += Number(number) * scale;
    rest = rest.slice(whole.length);
  }
  return Number.isFinite(total) ? total : undefined;
}

/** Prints milliseconds the way Go prints a `time.Duration`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 0) return `-${formatDuration(-ms)}`;
  if (ms === 0) return '0s';
  if (ms < 1) {
    const ns = Math.round(ms * 1e6);
    return ns < 1000 ? `${ns}ns` : `${trim(ns / 1000)}µs`;
  }
  if (ms < 1000) return `${trim(ms)}ms`;
  const totalSeconds = ms / 1000;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds - hours * 3600) / 60);
  const seconds = totalSeconds - hours * 3600 - minutes * 60;
  const s = `${trim(seconds)}s`;
  if (hours > 0) return `${hours}h${minutes}m${s}`;
  if (minutes > 0) return `${minutes}m${s}`;
  return s;
}

/** Up to nine significant decimals, no trailing zeros (Go prints `1.5s`, not `1.500s`). */
function trim(value: number): string {
  return String(Number(value.toFixed(9)));
}
