/**
 * The inspection router (SPEC §6, DESIGN.md habit 9): a plain Hono sub-app with six GET routes, built from an
 * {@link InspectionView}. The host mounts it with `app.route('/ops', router)`, serves it with {@link listen}, or
 * calls `router.request('/katalog')` in tests without a port.
 *
 * - GET and HEAD only (Hono answers HEAD with the GET route's status and headers, without a body); any other
 *   method on the six paths gets 405 with `Allow: GET, HEAD`.
 * - JSON bodies are served as `application/json`, exactly; `/metrics` with the registry's own content type.
 * - Every error the router produces is `{"error","message","status"}` JSON. Unknown paths under `/katalog/` are
 *   404 wherever the router is mounted; other unknown paths are 404 JSON when the router is the top-level app
 *   (when mounted, the host's not-found handler answers them: the rest of the host's namespace is not ours).
 * - Handlers are total: a view that throws (or metrics that fail to collect) gives a 500 JSON body without the
 *   error's text, and `options.onError` is told.
 * - Every answer reads the view when asked. `GET /katalog` reuses the JSON of summaries whose inputs are unchanged
 *   (katalog-list.ts), which keeps it cheap under load without ever serving a stale state.
 */
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { toError } from '../errors.js';
import { crdNotFound, detailOf, internalError, methodNotAllowed, pathNotFound } from './bodies.js';
import { katalogListWriter } from './katalog-list.js';
import type { CrdView, InspectionView } from './view.js';

export interface InspectionRouterOptions {
  /**
   * The prefix the router is mounted under, used in the `endpoints` of `GET /katalog` (`"/ops"` gives
   * `"/ops/katalog/website/health"`). When omitted it is derived from each request's path, so that
   * `app.route('/ops', router)` needs no configuration.
   */
  readonly mountPath?: string;
  /** Told about an unexpected error while answering (the client gets a 500 JSON body without its text). */
  readonly onError?: (error: Error, request: { readonly method: string; readonly path: string }) => void;
}

/** The six paths, relative to the mount point. */
export const INSPECTION_PATHS = Object.freeze(['/health', '/ready', '/metrics', '/katalog', '/katalog/:crd', '/katalog/:crd/health'] as const);

/** RFC 1123 label: what a CRD name in a Katalog must be. */
const CRD_NAME = /^[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?$/;

/** True when `name` is an RFC 1123 label (lowercase alphanumerics and `-`, at most 63, alphanumeric at both ends). */
export function isCrdName(name: string): boolean {
  return CRD_NAME.test(name);
}

const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' });
const NOT_ALLOWED_HEADERS = Object.freeze({ 'content-type': 'application/json', allow: 'GET, HEAD' });

function json(c: Context, status: ContentfulStatusCode, body: unknown): Response {
  return c.body(JSON.stringify(body), status, JSON_HEADERS);
}

/** Trims trailing slashes and makes sure a non-empty prefix starts with one: `"ops/"` → `"/ops"`, `"/"` → `""`. */
export function normalizeMountPath(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  const trimmed = path.slice(0, end);
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** The prefix before `suffix` at the end of the request path (trailing slashes ignored); `""` when not found. */
function mountOf(path: string, suffix: string): string {
  const trimmed = normalizeMountPath(path);
  return trimmed.endsWith(suffix) ? trimmed.slice(0, trimmed.length - suffix.length) : '';
}

/** Builds the inspection router. See the module comment for the contract. */
export function createInspectionRouter(view: InspectionView, options: InspectionRouterOptions = {}): Hono {
  const fixedMount = options.mountPath === undefined ? undefined : normalizeMountPath(options.mountPath);
  const app = new Hono();
  const list = katalogListWriter();

  /** The CRD named by the `crd` parameter; undefined for a name that is unknown, disabled or not a label. */
  const lookup = (name: string): CrdView | undefined => (isCrdName(name) ? view.crd(name) : undefined);

  app.get('/health', (c) => {
    const answer = view.liveness();
    return json(c, answer.httpStatus, answer.body);
  });
  app.get('/ready', (c) => {
    const answer = view.readiness();
    return json(c, answer.httpStatus, answer.body);
  });
  app.get('/metrics', async (c) => {
    const metrics = await view.metrics();
    return c.body(metrics.text, 200, { 'content-type': metrics.contentType });
  });
  app.get('/katalog', (c) => c.body(list.write(view.crds(), fixedMount ?? mountOf(c.req.path, '/katalog'), view.leader?.()), 200, JSON_HEADERS));
  app.get('/katalog/:crd', (c) => {
    const name = c.req.param('crd');
    const crd = lookup(name);
    return crd === undefined ? json(c, 404, crdNotFound(name)) : json(c, 200, detailOf(crd));
  });
  app.get('/katalog/:crd/health', (c) => {
    const name = c.req.param('crd');
    const crd = lookup(name);
    if (crd === undefined) return json(c, 404, crdNotFound(name));
    const record = crd.health.healthRecord();
    return json(c, record.httpStatus, record.body);
  });

  const notAllowed = (c: Context): Response => c.body(JSON.stringify(methodNotAllowed(c.req.method, c.req.path)), 405, NOT_ALLOWED_HEADERS);
  const notFound = (c: Context): Response => json(c, 404, pathNotFound(c.req.path));
  for (const path of INSPECTION_PATHS) app.all(path, notAllowed);
  // The /katalog subtree is ours wherever we are mounted: deeper or trailing-slash paths are a JSON 404.
  app.all('/katalog/*', notFound);
  app.notFound(notFound);
  app.onError((error, c) => {
    const request = { method: c.req.method, path: c.req.path };
    try {
      options.onError?.(toError(error), request);
    } catch {
      // A failing error callback must not turn a 500 into an unhandled rejection.
    }
    return json(c, 500, internalError(request.method, request.path));
  });
  return app;
}
