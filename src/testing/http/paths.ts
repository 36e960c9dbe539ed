/**
 * The URL path grammar of the Kubernetes API:
 * `/api/v1/…` and `/apis/{group}/{version}/…`, then `[namespaces/{ns}/]{plural}[/{name}[/{subresource}]]`, with the
 * legacy `watch/` prefix; plus discovery (`/api`, `/apis`, `/apis/{group}`, group-version roots), `/version`,
 * health endpoints and the OpenAPI paths (answered 404).
 */

export type Route =
  | { readonly kind: 'health' }
  | { readonly kind: 'version' }
  | { readonly kind: 'openapi' }
  | { readonly kind: 'core-versions' }
  | { readonly kind: 'groups' }
  | { readonly kind: 'group'; readonly group: string }
  | { readonly kind: 'resources'; readonly group: string; readonly version: string }
  | ResourceRoute
  | { readonly kind: 'unknown' };

export interface ResourceRoute {
  readonly kind: 'resource';
  readonly group: string;
  readonly version: string;
  readonly namespace: string | undefined;
  readonly plural: string;
  readonly name: string | undefined;
  readonly subresource: string | undefined;
  /** The legacy `/watch/` path prefix was used. */
  readonly watchPrefix: boolean;
}

const HEALTH = new Set(['healthz', 'livez', 'readyz']);
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function resourceRoute(group: string, version: string, rest: string[]): Route {
  let watchPrefix = false;
  if (rest[0] === 'watch') {
    watchPrefix = true;
    rest = rest.slice(1);
  }
  if (rest.length === 0) return { kind: 'unknown' };
  let namespace: string | undefined;
  const namespacedPath = rest[0] === 'namespaces' && rest.length >= 3 && !(group === '' && rest.length === 3 && NAMESPACE_SUBRESOURCES.has(rest[2] ?? ''));
  if (namespacedPath) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  if (rest.length > 3) return { kind: 'unknown' };
  const [plural, name, subresource] = rest;
  if (plural === undefined || plural === '' || name === '' || subresource === '') return { kind: 'unknown' };
  return { kind: 'resource', group, version, namespace, plural, name, subresource, watchPrefix };
}

/** Parses the path part of a request URL (without the query). */
export function parsePath(path: string): Route {
  const raw = path.split('/').filter((s, i, all) => !(s === '' && (i === 0 || i === all.length - 1)));
  const segments: string[] = [];
  for (const s of raw) {
    const decoded = decode(s);
    if (decoded === undefined) return { kind: 'unknown' };
    segments.push(decoded);
  }
  const [first, second, third] = segments;
  if (first === undefined) return { kind: 'unknown' };
  if (HEALTH.has(first)) return { kind: 'health' };
  if (first === 'version' && segments.length === 1) return { kind: 'version' };
  if (first === 'openapi' || first.startsWith('swagger')) return { kind: 'openapi' };
  if (first === 'api') {
    if (second === undefined) return { kind: 'core-versions' };
    if (segments.length === 2) return { kind: 'resources', group: '', version: second };
    return resourceRoute('', second, segments.slice(2));
  }
  if (first === 'apis') {
    if (second === undefined) return { kind: 'groups' };
    if (third === undefined) return { kind: 'group', group: second };
    if (segments.length === 3) return { kind: 'resources', group: second, version: third };
    return resourceRoute(second, third, segments.slice(3));
  }
  return { kind: 'unknown' };
}
