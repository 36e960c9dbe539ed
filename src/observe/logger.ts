/**
 * The logger katalog writes to. The host passes its own (pino, winston and most others fit the interface through a
 * three-line adapter) or uses {@link consoleLogger}; the default everywhere is {@link silentLogger}, because an
 * embedded library must not write to a process's output unless asked to.
 */
import { type Clock, systemClock } from '../util/clock.js';

/** Structured context attached to a log line. Values should be JSON-serialisable; `Error`s are reduced to name, message and code. */
export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger that adds `bindings` to every line (a line's own fields win on conflict). */
  child(bindings: LogFields): Logger;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const LEVELS: Readonly<Record<LogLevel | 'silent', number>> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** A logger that drops everything. Its `child` returns itself. */
export const silentLogger: Logger = Object.freeze({
  debug(): void {},
  info(): void {},
  warn(): void {},
  error(): void {},
  child(): Logger {
    return silentLogger;
  },
});

export interface ConsoleLoggerOptions {
  /** Lowest level written; default `info`. `silent` writes nothing. */
  level?: LogLevel | 'silent';
  /** `json` (default): one JSON object per line, keys `time`, `level`, `msg`, then fields. `text`: `time LEVEL msg key=value...`. */
  format?: 'json' | 'text';
  /** Where lines go, each ending in a newline; default `process.stderr.write`. */
  write?: (line: string) => void;
  /** Source of the `time` of each line; default the system clock. */
  clock?: Clock;
}

const RESERVED = new Set(['time', 'level', 'msg']);

function plain(value: unknown): unknown {
  if (value instanceof Error) {
    const out: Record<string, unknown> = { name: value.name, message: value.message };
    const code = (value as { code?: unknown }).code;
    if (typeof code === 'string' || typeof code === 'number') out['code'] = code;
    return out;
  }
  if (typeof value === 'bigint') return value.toString();
  return value;
}

function replacer(_key: string, value: unknown): unknown {
  return plain(value);
}

function stringify(record: Record<string, unknown>): string {
  try {
    return JSON.stringify(record, replacer);
  } catch {
    // Circular fields: keep the line, lose the fields.
    return JSON.stringify({ time: record['time'], level: record['level'], msg: record['msg'], fieldsError: 'fields could not be serialised' });
  }
}

function textValue(value: unknown): string {
  const reduced = plain(value);
  if (typeof reduced === 'string') return /^[^\s="]+$/.test(reduced) ? reduced : JSON.stringify(reduced);
  try {
    return JSON.stringify(reduced, replacer) ?? String(reduced);
  } catch {
    return '[unserialisable]';
  }
}

/**
 * A logger writing one line per call to stderr (or `write`). Fields named `time`, `level` or `msg` are renamed to
 * `field.time` and so on rather than overwriting the line's own keys.
 */
export function consoleLogger(options: ConsoleLoggerOptions = {}): Logger {
  const threshold = LEVELS[options.level ?? 'info'];
  const format = options.format ?? 'json';
  const clock = options.clock ?? systemClock;
  const write =
    options.write ??
    ((line: string): void => {
      process.stderr.write(line);
    });

  const make = (bindings: LogFields): Logger => {
    const log = (level: LogLevel, message: string, fields?: LogFields): void => {
      if (LEVELS[level] < threshold) return;
      const time = new Date(clock.now()).toISOString();
      const extra: Record<string, unknown> = {};
      for (const source of [bindings, fields ?? {}]) {
        for (const [key, value] of Object.entries(source)) extra[RESERVED.has(key) ? `field.${key}` : key] = value;
      }
      if (format === 'json') {
        write(`${stringify({ time, level, msg: message, ...extra })}\n`);
        return;
      }
      const pairs = Object.entries(extra).map(([key, value]) => ` ${key}=${textValue(value)}`);
      write(`${time} ${level.toUpperCase()} ${message}${pairs.join('')}\n`);
    };
    return {
      debug: (message, fields) => log('debug', message, fields),
      info: (message, fields) => log('info', message, fields),
      warn: (message, fields) => log('warn', message, fields),
      error: (message, fields) => log('error', message, fields),
      child: (more) => make({ ...bindings, ...more }),
    };
  };
  return make({});
}
