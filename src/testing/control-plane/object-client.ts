/**
 * The setup-and-assertion calls of a real API server (create, get, patch, delete, applyCrd) as plain JSON over
 * HTTPS (client-node's generic object API deserialises through its models, which drop a custom resource's `spec`
 * and `status` and turn timestamps into Dates), with the semantics of the in-process server's direct calls: namespace `default` when
 * none is given, merge patch by default, `get` resolving to undefined for a missing object, and `applyCrd`
 * resolving only once every served version of the CRD answers requests.
 */
import { ApiException, PatchStrategy } from '@kubernetes/client-node';
import { KatalogError } from '../../errors.js';
import type { DirectDeleteOptions, DirectPatchOptions } from '../direct-access.js';
import { rawRequest, type Endpoint } from './raw-request.js';

type Json = Record<string, unknown>;

const PATCH_TYPES: Record<NonNullable<DirectPatchOptions['type']>, PatchStrategy> = {
  merge: PatchStrategy.MergePatch,
  json: PatchStrategy.JsonPatch,
  strategic: PatchStrategy.StrategicMergePatch,
  apply: PatchStrategy.ServerSideApply,
};

function plain(value: unknown): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}

function metadataOf(object: Json): Json {
  const metadata = object['metadata'];
  if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)) return metadata as Json;
  const created: Json = {};
  object['metadata'] = created;
  return created;
}

export class ObjectClient {
  constructor(
    private readonly endpoint: Endpoint,
    private readonly fieldManager: string,
  ) {}

  async create(object: unknown): Promise<Json> {
    const body = plain(object);
    const path = await this.pathOf(body);
    const collection = path.slice(0, path.lastIndexOf('/'));
    return this.send('POST', `${collection}?fieldManager=${encodeURIComponent(this.fieldManager)}`, body, 'application/json');
  }

  async get(apiVersion: string, kind: string, name: string, namespace?: string): Promise<Json | undefined> {
    const path = await this.pathOf({ apiVersion, kind, metadata: { name, ...(namespace === undefined ? {} : { namespace }) } }, true);
    if (path === undefined) return undefined; // the kind is not served (any more): a GET would be 404 too
    const response = await rawRequest(this.endpoint, 'GET', path);
    if (response.status === 404) return undefined;
    return this.parse('GET', path, response);
  }

  async update(object: unknown): Promise<Json> {
    const body = plain(object);
    const path = await this.pathOf(body);
    return this.send('PUT', `${path}?fieldManager=${encodeURIComponent(this.fieldManager)}`, body, 'application/json');
  }

  async patch(apiVersion: string, kind: string, name: string, patch: unknown, options: DirectPatchOptions = {}): Promise<Json> {
    const path = await this.pathOf({ apiVersion, kind, metadata: { name, namespace: options.namespace ?? 'default' } });
    const subresource = options.subresource === 'status' ? '/status' : '';
    const manager = encodeURIComponent(options.fieldManager ?? this.fieldManager);
    const force = options.force === true ? '&force=true' : '';
    return this.send('PATCH', `${path}${subresource}?fieldManager=${manager}${force}`, patch, PATCH_TYPES[options.type ?? 'merge']);
  }

  async delete(apiVersion: string, kind: string, name: string, namespace?: string, options: DirectDeleteOptions = {}): Promise<Json | undefined> {
    const path = await this.pathOf({ apiVersion, kind, metadata: { name, ...(namespace === undefined ? {} : { namespace }) } });
    const asked = {
      ...(options.propagationPolicy === undefined ? {} : { propagationPolicy: options.propagationPolicy }),
      ...(options.gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds: options.gracePeriodSeconds }),
    };
    const body = Object.keys(asked).length === 0 ? undefined : { kind: 'DeleteOptions', apiVersion: 'v1', ...asked };
    await this.send('DELETE', path, body, 'application/json');
    return this.get(apiVersion, kind, name, namespace);
  }

  /**
   * Creates or replaces the CRD, then waits (up to `timeoutMs`) until every served version answers a list. A replace
   * that meets a write of kube-apiserver's own CRD controllers in between (409 Conflict) reads the CRD again and
   * replaces it again, a few times, as `kubectl apply` does.
   */
  async applyCrd(crd: unknown, timeoutMs = 60_000): Promise<Json> {
    const body = plain(crd);
    body['apiVersion'] ??= 'apiextensions.k8s.io/v1';
    body['kind'] ??= 'CustomResourceDefinition';
    const name = String(metadataOf(body)['name']);
    const stored = await this.createOrReplace(body, name);
    await this.waitServed(stored, timeoutMs);
    return (await this.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', name)) ?? stored;
  }

  private async createOrReplace(body: Json, name: string, attempt = 1): Promise<Json> {
    const existing = await this.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', name);
    if (existing === undefined) return this.create(body);
    metadataOf(body)['resourceVersion'] = metadataOf(existing)['resourceVersion'];
    try {
      return await this.update(body);
    } catch (error) {
      if (!(error instanceof ApiException && error.code === 409) || attempt >= 5) throw error;
      return this.createOrReplace(body, name, attempt + 1);
    }
  }

  private async waitServed(crd: Json, timeoutMs: number): Promise<void> {
    const spec = (crd['spec'] ?? {}) as { group?: string; names?: { plural?: string }; versions?: Array<{ name: string; served?: boolean }> };
    const paths = (spec.versions ?? []).filter((v) => v.served !== false).map((v) => `/apis/${String(spec.group)}/${v.name}/${String(spec.names?.plural)}?limit=1`);
    const deadline = Date.now() + timeoutMs;
    for (const path of paths) {
      for (;;) {
        const response = await rawRequest(this.endpoint, 'GET', path).catch(() => undefined);
        if (response?.status === 200) break;
        if (Date.now() > deadline) throw new KatalogError('E_CONTROL_PLANE', `CRD ${String(metadataOf(crd)['name'])} was not served at ${path} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  /** PUT on `/status`. */
  async replaceStatus(object: unknown): Promise<Json> {
    const body = plain(object);
    const path = await this.pathOf(body);
    return this.send('PUT', `${path}/status?fieldManager=${encodeURIComponent(this.fieldManager)}`, body, 'application/json');
  }

  /** The object's URL path, from discovery of its group version (read fresh each time: CRDs come and go). */
  private async pathOf(object: Json): Promise<string>;
  private async pathOf(object: Json, missingOk: true): Promise<string | undefined>;
  private async pathOf(object: Json, missingOk = false): Promise<string | undefined> {
    const apiVersion = String(object['apiVersion']);
    const kind = String(object['kind']);
    const metadata = metadataOf(object);
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const discovery = await rawRequest(this.endpoint, 'GET', base);
    const list = discovery.status === 200 ? (JSON.parse(discovery.text) as { resources?: Array<{ name: string; kind: string; namespaced: boolean }> }) : {};
    const resource = list.resources?.find((r) => r.kind === kind && !r.name.includes('/'));
    if (resource === undefined && missingOk) return undefined;
    if (resource === undefined) throw new KatalogError('E_CONTROL_PLANE', `the server has no resource for apiVersion ${apiVersion} kind ${kind}`);
    const namespace = resource.namespaced ? `/namespaces/${String(metadata['namespace'] ?? 'default')}` : '';
    return `${base}${namespace}/${resource.name}/${String(metadata['name'])}`;
  }

  private async send(method: string, path: string, body: unknown, contentType: string): Promise<Json> {
    return this.parse(method, path, await rawRequest(this.endpoint, method, path, body, 30_000, contentType));
  }

  private parse(method: string, path: string, response: { readonly status: number; readonly text: string }): Json {
    if (response.status < 200 || response.status > 299) {
      throw new ApiException(response.status, `${method} ${path} failed with HTTP ${response.status}`, response.text, {});
    }
    return JSON.parse(response.text) as Json;
  }
}
