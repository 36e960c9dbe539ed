/**
 * `cross[].source`: another Orkestra process's answer, read over HTTP into `.cross.<as>` (Orkestra's cross-binary
 * reads, `pkg/utils/common/cross.go` and `pkg/types/cross_oncop.go`). Each entry is one GET made with the client,
 * limits, cache and Secret credentials of external calls ({@link ExternalCalls}): a deadline (5 s by default),
 * a response size limit (64 KiB by default), `cacheFor` as a bounded cache of successful answers per rendered URL,
 * `auth.secretRef` read for each call.
 *
 * The URL is `source.endpoint` rendered over the reading custom resource, or built from `source.host` and
 * `protocol` as Orkestra builds it: `<host>/katalog/<crd>` (`info`, `metrics`, none), `<host>/katalog/<crd>/health`,
 * `<host>/katalog/<crd>/cr/<namespace>/<name>` (`cr`) and `…/events` (`events`); the name and namespace are the
 * selector's, rendered (namespace: `source.namespace`, else `selector.namespace`, else the reading object's).
 *
 * What a template sees, as Orkestra shapes it: the answer's JSON object with `found` added when it has none
 * (`"true"` when the answer has a `name`, else `"false"`); a 404 is `{found: "false"}`. Any other failure (no
 * answer, the deadline, a body over the limit, a status other than 200, an answer that is not a JSON object) is
 * Orkestra's empty value `{found: "false", name, namespace, spec: {}, status: {}}` and is never silent: `onFailure`
 * hears the entry and a reason that names neither the URL nor the answer (both may carry custom-resource data).
 */
import type { CrossEntry } from '../definition/types.js';
import type { KubeObject } from '../kube/resource.js';
import { compileTemplate, type CompiledTemplate, type TemplateData, type TemplateDialect, type UserNote } from '../template/index.js';
import { ExternalCalls, type HttpResult, type SecretReader } from './external-calls.js';
import type { ExternalHttpRequest, ExternalHttpResponse } from './external-http.js';

export interface CrossSourceReadsOptions {
  /** The reading CRD's name, for template names. */
  readonly crd: string;
  /** The cross entries that have a `source` (others are ignored). */
  readonly entries: readonly CrossEntry[];
  readonly dialect?: TemplateDialect | undefined;
  readonly notes?: readonly UserNote[] | undefined;
  readonly readSecret: SecretReader;
  readonly now: () => number;
  /** Told about each failed read (the value is Orkestra's empty one); the reason is safe to log. */
  readonly onFailure: (entry: CrossEntry, reason: string) => void;
  /** The HTTP client (tests may count requests through it); default node:http. */
  readonly request?: ((input: ExternalHttpRequest) => Promise<ExternalHttpResponse>) | undefined;
  /** Most cached answers kept per entry (with cacheFor); the oldest go first. Default 1,000. */
  readonly cacheEntries?: number;
}

interface CompiledSource {
  readonly entry: CrossEntry;
  /** The rendered URL of one read, from the reading object's data. */
  readonly url: (data: TemplateData) => string;
  readonly name: CompiledTemplate | undefined;
  readonly namespace: CompiledTemplate | undefined;
  /** One GET of `{{ .route }}`, so that the rendered URL is the cache key and the request. */
  readonly call: ExternalCalls;
}

/** The cross entries read over HTTP. */
export function sourceEntries(list: readonly CrossEntry[] | undefined): CrossEntry[] {
  return (list ?? []).filter((entry) => entry.source !== undefined);
}

/** The cross entries read from informers. */
export function informerEntries(list: readonly CrossEntry[] | undefined): CrossEntry[] {
  return (list ?? []).filter((entry) => entry.source === undefined);
}

export class CrossSourceReads {
  private readonly compiled: readonly CompiledSource[];

  /** Compiles the entries' templates; throws a TemplateError when one does not compile. */
  constructor(private readonly options: CrossSourceReadsOptions) {
    const dialect = { ...(options.dialect === undefined ? {} : { dialect: options.dialect }), ...(options.notes === undefined ? {} : { notes: options.notes }), now: options.now };
    this.compiled = sourceEntries(options.entries).map((entry) => {
      const source = entry.source;
      if (source === undefined) throw new TypeError('unreachable: filtered above');
      const at = `spec.crds.${options.crd}.operatorBox.cross.${entry.as}`;
      const template = (text: string | undefined, key: string): CompiledTemplate | undefined => (text === undefined ? undefined : compileTemplate(text, { name: `${at}.${key}`, ...dialect }));
      const name = template(entry.name, 'selector.name');
      const namespace = template(source.namespace ?? entry.namespace, 'namespace');
      const endpoint = template(source.endpoint, 'source.endpoint');
      const call = sourceGet(at, entry, '{{ .route }}', options);
      const url = (data: TemplateData): string => {
        if (endpoint !== undefined) return endpoint.renderString(data);
        return routeOf(source.host ?? '', entry.crd, source.protocol, renderOr(namespace, data, data['metadata']), renderOr(name, data, undefined));
      };
      return { entry, url, name, namespace, call };
    });
  }

  get size(): number {
    return this.compiled.length;
  }

  /** `.cross` entries of `object` by `as`, read now (or from the cache); never rejects for an HTTP failure. */
  async read(object: KubeObject, data: TemplateData, signal: AbortSignal): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const compiled of this.compiled) {
      const { entry } = compiled;
      const name = compiled.name?.renderString(data) ?? '';
      const namespace = compiled.namespace?.renderString(data) ?? object.metadata?.namespace ?? '';
      const results = await compiled.call.run(object, { route: compiled.url(data) }, signal);
      const answer = valueOf(results['read'] as HttpResult | undefined);
      if (typeof answer === 'string') {
        this.options.onFailure(entry, answer);
        out[entry.as] = { found: 'false', name, namespace, spec: {}, status: {} };
      } else out[entry.as] = answer;
    }
    return out;
  }
}

/**
 * One GET of a cross source as an external call: the source's deadline, limit, cache and credential; 200 alone is an
 * answer (Orkestra's rule); never fails the run (the caller decides what a failed read is).
 */
export function sourceGet(
  name: string,
  entry: CrossEntry,
  url: string,
  options: Pick<CrossSourceReadsOptions, 'readSecret' | 'now' | 'request' | 'cacheEntries' | 'dialect' | 'notes'>,
): ExternalCalls {
  const source = entry.source;
  if (source === undefined) throw new TypeError(`${entry.path} has no source`);
  return new ExternalCalls({
    name,
    calls: [
      {
        name: 'read',
        protocol: 'http',
        url,
        query: undefined,
        method: 'GET',
        headers: { accept: 'application/json' },
        body: undefined,
        timeoutMs: source.timeoutMs,
        maxResponseBytes: source.maxResponseBytes,
        expectedStatus: 200,
        continueOnError: true,
        cacheForMs: source.cacheForMs,
        auth: source.auth,
        when: [],
        anyOf: [],
        path: entry.path,
      },
    ],
    dialect: options.dialect,
    notes: options.notes,
    readSecret: options.readSecret,
    now: options.now,
    request: options.request,
    ...(options.cacheEntries === undefined ? {} : { cacheEntries: options.cacheEntries }),
  });
}

/** Orkestra's routes of another process (`BuildONCOPURL`), path segments escaped. */
export function routeOf(host: string, crd: string, protocol: string | undefined, namespace: string, name: string): string {
  const base = `${host}/katalog/${encodeURIComponent(crd)}`;
  const one = (): string => (namespace === '' ? `/cr/${encodeURIComponent(name)}` : `/cr/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`);
  switch (protocol) {
    case 'health':
      return `${base}/health`;
    case 'cr':
      return `${base}${one()}`;
    case 'events':
      return `${base}${one()}/events`;
    default:
      return base;
  }
}

function renderOr(template: CompiledTemplate | undefined, data: TemplateData, metadata: unknown): string {
  if (template !== undefined) return template.renderString(data);
  const namespace = (metadata as { namespace?: unknown } | undefined)?.namespace;
  return typeof namespace === 'string' ? namespace : '';
}

/** The answer as a template sees it, or the reason it is not one. */
function valueOf(result: HttpResult | undefined): Record<string, unknown> | string {
  if (result === undefined) return 'no answer';
  if (result.status === '404') return { found: 'false' };
  if (result.error !== '') return result.error;
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.body);
  } catch {
    return 'the answer is not JSON';
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return 'the answer is not a JSON object';
  const object = parsed as Record<string, unknown>;
  if (Object.hasOwn(object, 'found')) return object;
  return { ...object, found: object['name'] !== undefined && object['name'] !== null ? 'true' : 'false' };
}
