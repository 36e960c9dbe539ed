/**
 * `cross[].source` into the model: exactly one of `endpoint` and `host` (`protocol` chooses `host`'s route),
 * durations checked, defaults applied (5 s, 64 KiB, as Orkestra's reads). Which entries may read over HTTP (a CRD
 * this definition does not declare) is decided with every CRD at hand (cross-targets.ts).
 */
import { DEFAULT_CROSS_SOURCE_MAX_BYTES, DEFAULT_CROSS_SOURCE_TIMEOUT_MS, type CrossSource } from './cross-types.js';
import type { Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';
import type { Loose } from './operator-box.js';
import type { CrossEntryInput } from './schema-operator-box.js';
import { formatDuration, parseDuration } from '../util/duration.js';

type SourceInput = NonNullable<Loose<CrossEntryInput>['source']>;

/** The entry's source, or undefined (none written, or a problem reported at its place). */
export function normalizeCrossSource(input: SourceInput | undefined, origin: Origin, path: Path, problems: ProblemList): CrossSource | undefined {
  if (input === undefined) return undefined;
  if ((input.endpoint === undefined) === (input.host === undefined)) {
    problems.add(origin, path, 'invalid-value', 'cross source needs exactly one of endpoint (a URL) and host (with protocol)');
    return undefined;
  }
  if (input.host !== undefined && !/^https?:\/\/[^/\s]+/.test(input.host)) {
    problems.add(origin, [...path, 'host'], 'invalid-value', 'cross source host must be an http:// or https:// base URL (such as http://loader-operator:8080)');
    return undefined;
  }
  const duration = (key: 'cacheFor' | 'timeout', fallback: number | undefined): number | undefined => {
    const text = input[key];
    if (text === undefined) return fallback;
    const ms = parseDuration(text);
    if (ms === undefined || ms <= 0) problems.add(origin, [...path, key], 'invalid-value', `cross source ${key} "${text}" is not a positive duration (such as 10s, 1m)`);
    return ms ?? fallback;
  };
  const auth = input.auth?.secretRef;
  return {
    endpoint: input.endpoint,
    host: input.host?.replace(/\/+$/, ''),
    protocol: input.protocol,
    namespace: input.namespace,
    cacheForMs: duration('cacheFor', undefined),
    timeoutMs: duration('timeout', DEFAULT_CROSS_SOURCE_TIMEOUT_MS) ?? DEFAULT_CROSS_SOURCE_TIMEOUT_MS,
    maxResponseBytes: input.maxResponseBytes ?? DEFAULT_CROSS_SOURCE_MAX_BYTES,
    auth:
      auth?.name === undefined || auth.key === undefined
        ? undefined
        : { secretRef: { name: auth.name, namespace: auth.namespace, key: auth.key }, header: input.auth?.header },
  };
}

/** A source written back as katalog.dev/v1 input (defaults left out); loading it gives an equal source. */
export function crossSourceToInput(source: CrossSource): Record<string, unknown> {
  const auth = source.auth;
  return {
    ...(source.endpoint === undefined ? {} : { endpoint: source.endpoint }),
    ...(source.host === undefined ? {} : { host: source.host }),
    ...(source.protocol === undefined ? {} : { protocol: source.protocol }),
    ...(source.namespace === undefined ? {} : { namespace: source.namespace }),
    ...(source.cacheForMs === undefined ? {} : { cacheFor: formatDuration(source.cacheForMs) }),
    ...(source.timeoutMs === DEFAULT_CROSS_SOURCE_TIMEOUT_MS ? {} : { timeout: formatDuration(source.timeoutMs) }),
    ...(source.maxResponseBytes === DEFAULT_CROSS_SOURCE_MAX_BYTES ? {} : { maxResponseBytes: source.maxResponseBytes }),
    ...(auth === undefined
      ? {}
      : {
          auth: {
            secretRef: { name: auth.secretRef.name, ...(auth.secretRef.namespace === undefined ? {} : { namespace: auth.secretRef.namespace }), key: auth.secretRef.key },
            ...(auth.header === undefined ? {} : { header: auth.header }),
          },
        }),
  };
}
