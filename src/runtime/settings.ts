/**
 * Per-CRD settings and where each came from (SPEC §5). Four settings: `workers`, `resync`, `maxDepth` (queue
 * depth) and `failureThreshold`. Each is taken from the first source that sets it, highest precedence first:
 *
 * `override` (options.crds[name]) › `komposer` / `definition` (the normalised CRD entry) › `options`
 * (options.defaults) › `env` (options.env, never the process environment) › `default` ({@link BUILTIN_SETTINGS}).
 *
 * Every value that is given is validated, even when a higher source hides it: a typo in an environment variable
 * is an error today, not on the day someone removes the override that masked it. Problems are collected and thrown
 * together as one {@link SettingsError}. Pure: no I/O, no clock.
 */
import type { CrdDefinition, SettingSource } from '../definition/types.js';
import { RuntimeError } from '../errors.js';
import { formatDuration, parseDuration } from '../util/duration.js';

/** Settings as a caller writes them: `resync` in milliseconds or as a Go duration (`"30s"`, `"5m"`). */
export interface CrdSettingsInput {
  workers?: number;
  resync?: number | string;
  maxDepth?: number;
  failureThreshold?: number;
}

export interface SettingsOptions {
  /** Per-CRD overrides, keyed by CRD name. Naming a CRD that is not in the definition is an error. */
  crds?: Readonly<Record<string, CrdSettingsInput>>;
  /** Defaults for every CRD, below the definition. */
  defaults?: CrdSettingsInput;
  /** Read for KATALOG_WORKERS, KATALOG_RESYNC, KATALOG_QUEUE_DEPTH, KATALOG_FAILURE_THRESHOLD. Empty strings count as unset. */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface ValueWithSource<T> {
  readonly value: T;
  readonly source: SettingSource;
}

export interface ResolvedSettings {
  readonly workers: ValueWithSource<number>;
  /** Milliseconds; 0 means no periodic resync. */
  readonly resync: ValueWithSource<number>;
  readonly maxDepth: ValueWithSource<number>;
  readonly failureThreshold: ValueWithSource<number>;
}

export type SettingName = keyof ResolvedSettings;

/** The settings, in the order they are reported. */
export const SETTING_NAMES: readonly SettingName[] = Object.freeze(['workers', 'resync', 'maxDepth', 'failureThreshold']);

/** Built-in defaults: 2 workers, resync 10m, queue depth 1000, failure threshold 5. */
export const BUILTIN_SETTINGS: Readonly<Record<SettingName, number>> = Object.freeze({
  workers: 2,
  resync: 600_000,
  maxDepth: 1000,
  failureThreshold: 5,
});

/** The environment variable read for each setting. */
export const SETTING_ENV_VARS: Readonly<Record<SettingName, string>> = Object.freeze({
  workers: 'KATALOG_WORKERS',
  resync: 'KATALOG_RESYNC',
  maxDepth: 'KATALOG_QUEUE_DEPTH',
  failureThreshold: 'KATALOG_FAILURE_THRESHOLD',
});

/** The longest resync a Node timer can wait (2^31 - 1 ms, about 24.8 days); longer ones would fire at once. */
export const MAX_RESYNC_MS = 2_147_483_647;

/** One invalid setting value. */
export interface SettingsProblem {
  /** The CRD being resolved; `undefined` for a shared source (defaults, env) checked once for all CRDs. */
  readonly crd: string | undefined;
  /** The setting name (or the unknown key that was given). */
  readonly setting: string;
  readonly source: SettingSource;
  /** Where the value was written: `options.crds.website.workers`, `env KATALOG_RESYNC`, ... */
  readonly where: string;
  readonly value: unknown;
  readonly message: string;
}

/** Settings are invalid. `code` is `E_SETTINGS`; `problems` lists every problem, and so does the message. */
export class SettingsError extends RuntimeError {
  readonly problems: readonly SettingsProblem[];

  constructor(problems: readonly SettingsProblem[]) {
    const count = problems.length;
    const head = `invalid settings: ${count} problem${count === 1 ? '' : 's'}`;
    super('E_SETTINGS', [head, ...problems.map((p) => `  - ${p.message}`)].join('\n'));
    this.problems = Object.freeze([...problems]);
  }
}

/** What a shared source (defaults, env) contributes once validated. */
interface SharedLayer {
  readonly options: Partial<Record<SettingName, number>>;
  readonly env: Partial<Record<SettingName, number>>;
}

type Check = { ok: true; value: number } | { ok: false; reason: string };

const INTEGER_TEXT = /^\d+$/;

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  return typeof value;
}

function checkCount(value: unknown): Check {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) return { ok: false, reason: 'must be an integer of at least 1' };
  return { ok: true, value };
}

function checkResync(value: unknown): Check {
  let ms: number | undefined;
  if (typeof value === 'number') ms = value;
  else if (typeof value === 'string') {
    ms = parseDuration(value.trim());
    if (ms === undefined) return { ok: false, reason: 'must be a duration such as "30s", "5m" or "1h30m"' };
  } else return { ok: false, reason: 'must be a number of milliseconds or a duration such as "30s"' };
  if (!Number.isFinite(ms) || ms < 0) return { ok: false, reason: 'must be a non-negative number of milliseconds' };
  if (ms > MAX_RESYNC_MS) return { ok: false, reason: `must be at most ${formatDuration(MAX_RESYNC_MS)}` };
  return { ok: true, value: ms };
}

function check(setting: SettingName, value: unknown): Check {
  return setting === 'resync' ? checkResync(value) : checkCount(value);
}

/** Environment values are text: counts must be plain digits, resync a Go duration (a bare number is ambiguous). */
function checkEnv(setting: SettingName, text: string): Check {
  if (setting === 'resync') {
    if (text !== '0' && INTEGER_TEXT.test(text)) return { ok: false, reason: 'must be a duration with a unit such as "30s" or "5m"' };
    return checkResync(text);
  }
  if (!INTEGER_TEXT.test(text)) return { ok: false, reason: 'must be an integer of at least 1' };
  return checkCount(Number(text));
}

function problem(crd: string | undefined, setting: string, source: SettingSource, where: string, value: unknown, reason: string): SettingsProblem {
  const prefix = crd === undefined ? '' : `${crd}: `;
  return { crd, setting, source, where, value, message: `${prefix}${setting} from ${source} (${where}) ${reason}, got ${describe(value)}` };
}

const SUGGESTIONS: Readonly<Record<string, SettingName>> = { queueDepth: 'maxDepth', worker: 'workers', threshold: 'failureThreshold', resyncPeriod: 'resync' };

/** Validates a settings object written in code (override or defaults). Unknown keys are problems too. */
function readInput(
  input: unknown,
  crd: string | undefined,
  source: 'override' | 'options',
  where: string,
  problems: SettingsProblem[],
): Partial<Record<SettingName, number>> {
  const out: Partial<Record<SettingName, number>> = {};
  if (input === undefined) return out;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    problems.push(problem(crd, '(settings)', source, where, input, 'must be an object'));
    return out;
  }
  const record = input as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if ((SETTING_NAMES as readonly string[]).includes(key)) continue;
    const hint = SUGGESTIONS[key] === undefined ? `known: ${SETTING_NAMES.join(', ')}` : `did you mean ${SUGGESTIONS[key]}?`;
    problems.push({ crd, setting: key, source, where: `${where}.${key}`, value: record[key], message: `${crd === undefined ? '' : `${crd}: `}unknown setting "${key}" in ${where} (${hint})` });
  }
  for (const setting of SETTING_NAMES) {
    const raw = record[setting];
    if (raw === undefined) continue;
    const result = check(setting, raw);
    if (result.ok) out[setting] = result.value;
    else problems.push(problem(crd, setting, source, `${where}.${setting}`, raw, result.reason));
  }
  return out;
}

function readShared(options: SettingsOptions, crd: string | undefined, problems: SettingsProblem[]): SharedLayer {
  const fromOptions = readInput(options.defaults, crd, 'options', 'options.defaults', problems);
  const fromEnv: Partial<Record<SettingName, number>> = {};
  const env = options.env ?? {};
  for (const setting of SETTING_NAMES) {
    const name = SETTING_ENV_VARS[setting];
    const text = env[name]?.trim();
    if (text === undefined || text === '') continue;
    const result = checkEnv(setting, text);
    if (result.ok) fromEnv[setting] = result.value;
    else problems.push(problem(crd, setting, 'env', `env ${name}`, env[name], result.reason));
  }
  return { options: fromOptions, env: fromEnv };
}

function resolveOne(crd: CrdDefinition, options: SettingsOptions, shared: SharedLayer, problems: SettingsProblem[]): ResolvedSettings {
  const override = readInput(options.crds?.[crd.name], crd.name, 'override', `options.crds.${crd.name}`, problems);
  const where = crd.file === undefined ? `CRD ${crd.name}` : `CRD ${crd.name} in ${crd.file}`;
  const one = (setting: SettingName): ValueWithSource<number> => {
    const written = crd.settings[setting];
    let fromDefinition: ValueWithSource<number> | undefined;
    if (written !== undefined) {
      const result = check(setting, written.value);
      if (result.ok) fromDefinition = { value: result.value, source: written.source };
      else problems.push(problem(crd.name, setting, written.source, where, written.value, result.reason));
    }
    const builtIn: ValueWithSource<number> = { value: BUILTIN_SETTINGS[setting], source: 'default' };
    const chosen =
      sourced(override[setting], 'override') ?? fromDefinition ?? sourced(shared.options[setting], 'options') ?? sourced(shared.env[setting], 'env') ?? builtIn;
    return Object.freeze({ value: chosen.value, source: chosen.source });
  };
  return Object.freeze({ workers: one('workers'), resync: one('resync'), maxDepth: one('maxDepth'), failureThreshold: one('failureThreshold') });
}

function sourced(value: number | undefined, source: SettingSource): ValueWithSource<number> | undefined {
  return value === undefined ? undefined : { value, source };
}

/**
 * Resolves the settings of one CRD. Throws a {@link SettingsError} naming the CRD, the source and the bad value
 * for every invalid value in the override, the definition, options.defaults or options.env.
 */
export function resolveSettings(crd: CrdDefinition, options: SettingsOptions): ResolvedSettings {
  const problems: SettingsProblem[] = [];
  const shared = readShared(options, crd.name, problems);
  const resolved = resolveOne(crd, options, shared, problems);
  if (problems.length > 0) throw new SettingsError(problems);
  return resolved;
}

/**
 * Resolves the settings of every given CRD, keyed by name in iteration order. Pass every CRD of the definition,
 * enabled or not: an override naming a CRD that is not among them is an error. All problems of all CRDs are
 * collected into one {@link SettingsError}; problems of options.defaults and options.env are reported once,
 * without a CRD name.
 */
export function resolveAllSettings(crds: Iterable<CrdDefinition>, options: SettingsOptions): Map<string, ResolvedSettings> {
  const problems: SettingsProblem[] = [];
  const shared = readShared(options, undefined, problems);
  const result = new Map<string, ResolvedSettings>();
  for (const crd of crds) result.set(crd.name, resolveOne(crd, options, shared, problems));
  for (const name of Object.keys(options.crds ?? {})) {
    if (result.has(name)) continue;
    const known = [...result.keys()];
    problems.push({
      crd: name,
      setting: '(settings)',
      source: 'override',
      where: `options.crds.${name}`,
      value: options.crds?.[name],
      message: `options.crds names CRD "${name}", which is not in the definition (known: ${known.length === 0 ? 'none' : known.join(', ')})`,
    });
  }
  if (problems.length > 0) throw new SettingsError(problems);
  return result;
}
