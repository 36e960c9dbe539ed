/**
 * The setup-and-assertion calls of a real API server (create, get, patch, delete, applyCrd) over HTTP through
 * `@kubernetes/client-node`, with the semantics of the in-process server's direct calls: namespace `default` when
 * none is given, merge patch by default, `get` resolving to undefined for a missing object, and `applyCrd`
 * resolving only once every served version of the CRD answers requests.
 */
import { ApiException, KubernetesObjectApi, PatchStrategy, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
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

function isNotFound(error: unknown): boolean {
  return error instanceof ApiException && error.code === 404;
}

export class ObjectClient {
  private readonly api: KubernetesObjectApi;

  constructor(
    kubeConfig: KubeConfig,
    private readonly endpoint: Endpoint,
    private readonly fieldManager: string,
  ) {
    this.api = KubernetesObjectApi.makeApiClient(kubeConfig);
  }

  async create(object: unknown): Promise<Json> {
    const body = plain(object);
    return plain(await this.api.create(body as KubernetesObject, undefined, undefined, this.fieldManager));
  }

  async get(apiVersion: string, kind: string, name: string, namespace?: string): Promise<Json | undefined> {
    try {
      return plain(await this.api.read({ apiVersion, kind, metadata: { name, ...(namespace === undefined ? {} : { namespace }) } }));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async update(object: unknown): Promise<Json> {
    return plain(await this.api.replace(plain(object) as KubernetesObject, undefined, undefined, this.fieldManager));
  }

  async patch(apiVersion: string, kind: string, name: string, patch: unknown, options: DirectPatchOptions = {}): Promise<Json> {
    const path = await this.pathOf({ apiVersion, kind, metadata: { name, namespace: options.namespace ?? 'default' } });
    const subresource = options.subresource === 'status' ? '/status' : '';
    const manager = encodeURIComponent(options.fieldManager ?? this.fieldManager);
    const force = options.force === true ? '&force=true' : '';
    return this.send('PATCH', `${path}${subresource}?fieldManager=${manager}${force}`, patch, PATCH_TYPES[options.type ?? 'merge']);
  }

  async delete(apiVersion: string, kind: string, name: string, namespace?: string, options: DirectDeleteOptions = {}): Promise<Json | undefined> {
    const spec = { apiVersion, kind, metadata: { name, ...(namespace === undefined ? {} : { namespace }) } };
    await this.api.delete(spec, undefined, undefined, undefined, undefined, options.propagationPolicy);
    return this.get(apiVersion, kind, name, namespace);
  }

  /** Creates or replaces the CRD, then waits (up to `timeoutMs`) until every served version answers a list. */
  async applyCrd(crd: unknown, timeoutMs = 60_000): Promise<Json> {
    const body = plain(crd);
    body['apiVersion'] ??= 'apiextensions.k8s.io/v1';
    body['kind'] ??= 'CustomResourceDefinition';
    const name = String(metadataOf(body)['name']);
    const existing = await this.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', name);
    let stored: Json;
    if (existing === undefined) stored = await this.create(body);
    else {
      metadataOf(body)['resourceVersion'] = metadataOf(existing)['resourceVersion'];
      stored = await this.update(body);
    }
    await this.waitServed(stored, timeoutMs);
    return (await this.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', name)) ?? stored;
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
  private async pathOf(object: Json): Promise<string> {
    const apiVersion = String(object['apiVersion']);
    const kind = String(object['kind']);
    const metadata = metadataOf(object);
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const discovery = await rawRequest(this.endpoint, 'GET', base);
    const list = discovery.status === 200 ? (JSON.parse(discovery.text) as { resources?: Array<{ name: string; kind: string; namespaced: boolean }> }) : {};
    const resource = list.resources?.find((r) => r.kind === kind && !r.name.includes('/'));
    if (resource === undefined) throw new KatalogError('E_CONTROL_PLANE', `the server has no resource for apiVersion ${apiVersion} kind ${kind}`);
    const namespace = resource.namespaced ? `/namespaces/${String(metadata['namespace'] ?? 'default')}` : '';
    return `${base}${namespace}/${resource.name}/${String(metadata['name'])}`;
  }

  private async send(method: string, path: string, body: unknown, contentType: string): Promise<Json> {
    const response = await rawRequest(this.endpoint, method, path, body, 30_000, contentType);
    if (response.status < 200 || response.status > 299) {
      throw new ApiException(response.status, `${method} ${path} failed with HTTP ${response.status}`, response.text, {});
    }
    return JSON.parse(response.text) as Json;
  }
}
