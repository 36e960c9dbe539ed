/**
 * The request handler: parse the path, name the request (audit verb, resource, namespace, name), apply injected
 * latency and failures, authorize it (when RBAC is on), serve it, answer errors as Kubernetes Status objects, and record it in the request log.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { coreVersions, groupList, groupOf, resourceList, SERVER_VERSION } from '../discovery.js';
import type { RbacAuthorizer } from '../authorization.js';
import type { FaultInjector, RequestInfo } from '../faults.js';
import { withLostAnswer } from '../faults/lost-answer.js';
import type { RequestLog } from '../requests.js';
import { injected, internalError, methodNotAllowed, NoAnswer, notFound, pathNotFound, StatusError } from '../status-errors.js';
import type { ServerContext } from './context.js';
import { parsePath, type ResourceRoute, type Route } from './paths.js';
import { flag } from './query.js';
import { serveResource, type PostSubresource, type ResourceRequest, type Subresource } from './resource-handlers.js';
import { serveScale } from './scale-handlers.js';
import { serveEviction } from './eviction-handler.js';
import { serveBinding } from './binding-handler.js';
import { sendError, sendObject, sendText } from './respond.js';

export interface DispatchContext extends ServerContext {
  readonly faults: FaultInjector;
  readonly requests: RequestLog;
  /** `host:port`, for `/api`'s serverAddressByClientCIDRs. */
  readonly serverAddress: () => string;
  readonly logRequests: boolean;
  /** RBAC evaluation of resource requests; absent = everything is allowed (the default). */
  readonly authorizer: RbacAuthorizer | undefined;
}

/** What `/status` and `/scale` serve. */
const SUBRESOURCE_VERBS = new Set(['get', 'update', 'patch']);
/** The subresources a kind serves to POST alone (kube-apiserver's `NamedCreater`s): a Pod's eviction and binding. */
const CREATE_SUBRESOURCES: Readonly<Record<string, readonly PostSubresource[]>> = { '/pods': ['eviction', 'binding'] };

function verbOf(method: string, route: ResourceRoute, query: URLSearchParams): string | undefined {
  const watch = route.watchPrefix || flag(query, 'watch');
  switch (method) {
    case 'GET':
      // A subresource is read, never watched: `watch=true` on one is a GET, as kube-apiserver answers it.
      if (watch && route.subresource === undefined) return 'watch';
      return route.name === undefined ? 'list' : 'get';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return route.name === undefined ? 'deletecollection' : 'delete';
    default:
      return undefined;
  }
}

function resolveResource(ctx: DispatchContext, route: ResourceRoute, verb: string | undefined, query: URLSearchParams): ResourceRequest {
  if (verb === undefined) throw methodNotAllowed();
  const view = ctx.cluster.registry.resolve(route.group, route.version, route.plural);
  if (view === undefined) throw pathNotFound();
  const { type } = view;
  if (!type.namespaced && route.namespace !== undefined) throw pathNotFound();
  if (type.namespaced && route.namespace === undefined && route.name !== undefined) throw pathNotFound();
  if (type.namespaced && route.namespace === undefined && (verb === 'create' || verb === 'deletecollection')) throw pathNotFound();
  let subresource: Subresource | undefined;
  const postOnly = CREATE_SUBRESOURCES[type.key]?.find((s) => s === route.subresource);
  if (postOnly !== undefined && route.name !== undefined) {
    if (verb !== 'create') throw methodNotAllowed();
    return { verb, view, namespace: route.namespace, name: route.name, subresource: postOnly, query };
  }
  if (route.subresource !== undefined) {
    if (route.subresource === 'status' && view.statusSubresource) subresource = 'status';
    else if (route.subresource === 'scale' && view.scale !== undefined) subresource = 'scale';
    // apiextensions-apiserver answers a subresource a CRD does not declare as the object's 404.
    else if (!type.builtin && route.name !== undefined) throw notFound(type, route.name);
    else throw pathNotFound();
    if (!SUBRESOURCE_VERBS.has(verb)) throw methodNotAllowed();
  }
  if ((verb === 'update' || verb === 'patch') && route.name === undefined) throw methodNotAllowed();
  return { verb, view, namespace: route.namespace, name: route.name, subresource, query };
}

/**
 * kube-apiserver's legacy `bindings` collection of the core group: a POST of a Binding to
 * `/api/v1/namespaces/{ns}/bindings` binds the Pod it names (http/binding-handler.ts). Not a registry resource: it
 * has no objects, no names in its paths (404) and no other verb (405).
 */
function resolveLegacyBindings(ctx: DispatchContext, route: ResourceRoute, verb: string | undefined, query: URLSearchParams): ResourceRequest {
  if (route.namespace === undefined || route.name !== undefined || route.watchPrefix) throw pathNotFound();
  if (verb !== 'create') throw methodNotAllowed();
  const view = ctx.cluster.registry.resolve('', 'v1', 'pods');
  if (view === undefined) throw pathNotFound();
  return { verb, view, namespace: route.namespace, name: undefined, subresource: 'binding', query };
}

/** The handler of a resource request: the object's, or one of its subresources' own. */
function serverOf(request: ResourceRequest): typeof serveResource {
  switch (request.subresource) {
    case 'scale':
      return serveScale;
    case 'eviction':
      return serveEviction;
    case 'binding':
      return serveBinding;
    default:
      return serveResource;
  }
}

function serveNonResource(ctx: DispatchContext, res: ServerResponse, route: Route): void {
  const { registry } = ctx.cluster;
  let document: object | undefined;
  switch (route.kind) {
    case 'health':
      sendText(res, 200, 'ok');
      return;
    case 'version':
      document = SERVER_VERSION;
      break;
    case 'core-versions':
      document = coreVersions(ctx.serverAddress());
      break;
    case 'groups':
      document = groupList(registry);
      break;
    case 'group':
      document = groupOf(registry, route.group);
      break;
    case 'resources':
      document = resourceList(registry, route.group, route.version);
      break;
    default:
      document = undefined;
  }
  if (document === undefined) throw pathNotFound();
  sendObject(res, 200, document);
}

/** Builds the `(req, res)` handler of the HTTP server. */
export function createDispatcher(ctx: DispatchContext): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void dispatch(ctx, req, res);
  };
}

/**
 * As kube-apiserver's request info does: a list or watch without a name in its path that selects one object by
 * `fieldSelector=metadata.name=<name>` is authorized as a request for that name (so `resourceNames` rules apply).
 */
function nameFromFieldSelector(verb: string, query: URLSearchParams): string {
  if (verb !== 'list' && verb !== 'watch') return '';
  const selector = query.get('fieldSelector') ?? '';
  for (const term of selector.split(',')) {
    const match = /^metadata\.name==?(.+)$/.exec(term.trim());
    if (match?.[1] !== undefined) return match[1];
  }
  return '';
}

async function dispatch(ctx: DispatchContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = performance.now();
  const url = req.url ?? '/';
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const query = new URLSearchParams(mark < 0 ? '' : url.slice(mark + 1));
  const method = req.method ?? 'GET';
  const route = parsePath(path);
  const resourceRoute = route.kind === 'resource' ? route : undefined;
  const verb = resourceRoute === undefined ? (method === 'GET' ? 'get' : method.toLowerCase()) : verbOf(method, resourceRoute, query);
  const info: RequestInfo = {
    verb: verb ?? method.toLowerCase(),
    resource: resourceRoute?.plural ?? '',
    subresource: resourceRoute?.subresource ?? '',
    namespace: resourceRoute?.namespace ?? '',
    name: resourceRoute?.name ?? '',
    nonResource: resourceRoute === undefined,
  };
  try {
    const wait = ctx.faults.latencyFor(info);
    if (wait > 0) await delay(wait);
    const failure = ctx.faults.failureFor(info);
    if (failure !== undefined) throw failure;
    if (resourceRoute !== undefined) {
      if (ctx.authorizer !== undefined && verb !== undefined) {
        ctx.authorizer.check({
          verb,
          group: resourceRoute.group,
          resource: resourceRoute.plural,
          subresource: resourceRoute.subresource ?? '',
          namespace: resourceRoute.namespace ?? '',
          name: resourceRoute.name ?? nameFromFieldSelector(verb, query),
        });
      }
      const legacyBindings = resourceRoute.group === '' && resourceRoute.version === 'v1' && resourceRoute.plural === 'bindings';
      const request = legacyBindings ? resolveLegacyBindings(ctx, resourceRoute, verb, query) : resolveResource(ctx, resourceRoute, verb, query);
      const serve = serverOf(request);
      const lost = ctx.faults.lostAnswerFor(info);
      if (lost === undefined) await serve(ctx, req, res, request);
      else await withLostAnswer(req, res, () => serve(ctx, req, res, request), (r) => sendError(r, injected(lost.kind === 'error' ? lost.status : 504)), lost.kind === 'cut');
    } else {
      if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed();
      serveNonResource(ctx, res, route);
    }
  } catch (error) {
    if (error instanceof NoAnswer) {
      res.statusCode = 0;
      res.destroy();
      req.socket.destroy();
    } else if (!res.headersSent) sendError(res, error instanceof StatusError ? error : internalError(error));
    else res.end();
  }
  ctx.requests.record({
    method,
    verb: info.verb,
    resource: info.resource,
    namespace: info.namespace,
    name: info.name,
    subresource: resourceRoute?.subresource ?? '',
    status: res.statusCode,
    path: url,
  });
  if (ctx.logRequests) process.stderr.write(`[katalog/testing] ${method} ${url} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms\n`);
}
