/**
 * The request and the result of a `protocol: prometheus` external call: an instant query on Prometheus's HTTP
 * API (`GET <url>/api/v1/query?query=<PromQL>`, answered with `{status, data: {resultType, result}}`).
 *
 * - **URL**: `url` is the server's base URL (`http://prometheus:9090`, a path prefix kept) or already its query
 *   endpoint; `/api/v1/query` is appended when the path does not contain it, as Orkestra's client does. The
 *   query goes in the `query` parameter (the URL's own parameters are kept).
 * - **Result** (Orkestra's map for non-HTTP protocols): `result` is the canonical value as text (a scalar's
 *   value, a vector's first series' value, a string's text; "" for an empty vector and for a matrix), `raw` the
 *   parsed answer as Prometheus sent it (`raw.data.result` holds every series), `error` "" on success, `called`.
 * - **Failure**: a status other than 2xx, an answer that is not Prometheus JSON, or `status` other than
 *   "success". The reason names the HTTP status and Prometheus's `errorType` (a fixed word such as `bad_data`),
 *   never the `error` text (it may quote the query, which is rendered from the custom resource); templates may
 *   still read that text in `raw.error` when the call has `continueOnError`.
 */
import type { ExternalHttpResponse } from './external-http.js';

/** What `.external.<name>` holds for a `prometheus` call. */
export interface PrometheusResult {
  readonly result: string;
  readonly raw: Readonly<Record<string, unknown>>;
  readonly error: string;
  readonly called: 'true' | 'false';
}

/** A skipped call (its conditions did not hold), as Orkestra writes it. */
export const SKIPPED_PROMETHEUS: PrometheusResult = Object.freeze({ result: '', raw: Object.freeze({}), error: '', called: 'false' });

const QUERY_PATH = '/api/v1/query';

/**
 * The request URL for `base` (the rendered `url`) and `query` (the rendered PromQL); undefined when `base` is not
 * a URL (the HTTP client reports that).
 */
export function prometheusQueryUrl(base: string, query: string): string | undefined {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return undefined;
  }
  if (!url.pathname.includes(QUERY_PATH)) url.pathname = `${url.pathname.replace(/\/+$/, '')}${QUERY_PATH}`;
  url.searchParams.set('query', query);
  return url.toString();
}

/** A call that failed before Prometheus answered usefully. */
export function failedPrometheus(reason: string, raw: Readonly<Record<string, unknown>> = {}): PrometheusResult {
  return { result: '', raw, error: reason, called: 'true' };
}

const ERROR_TYPE = /^[a-z_]{1,40}$/;

/** Shapes Prometheus's answer into the call's result (see the module comment). */
export function prometheusResult(response: ExternalHttpResponse): PrometheusResult {
  const raw = parseAnswer(response.body);
  const ok = response.status >= 200 && response.status < 300;
  const errorType = typeof raw?.['errorType'] === 'string' && ERROR_TYPE.test(raw['errorType']) ? raw['errorType'] : undefined;
  const typed = errorType === undefined ? '' : ` (errorType ${errorType})`;
  if (!ok) return failedPrometheus(`HTTP status ${response.status} (expected 2xx)${typed}`, raw ?? {});
  if (raw === undefined) return failedPrometheus('the answer is not Prometheus API JSON ({status, data})');
  if (raw['status'] !== 'success') return failedPrometheus(`Prometheus answered status "${raw['status'] === 'error' ? 'error' : 'other'}"${typed}`, raw);
  return { result: canonicalValue(raw['data']), raw, error: '', called: 'true' };
}

function parseAnswer(body: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    return isRecord(parsed) && typeof parsed['status'] === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `[<unix time>, "<value>"]` → the value text; anything else → "". */
function sampleValue(sample: unknown): string {
  return Array.isArray(sample) && typeof sample[1] === 'string' ? sample[1] : '';
}

function canonicalValue(data: unknown): string {
  if (!isRecord(data)) return '';
  const { resultType, result } = data;
  if (resultType === 'scalar' || resultType === 'string') return sampleValue(result);
  if (resultType === 'vector' && Array.isArray(result)) {
    const first: unknown = result[0];
    return isRecord(first) ? sampleValue(first['value']) : '';
  }
  return '';
}
