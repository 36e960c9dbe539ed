/**
 * Content negotiation of responses, as kube-apiserver does it: the `Accept` header's media types in order of
 * preference (`q`), the first one the server can produce wins. JSON (also `*\/*`, `application/*`), YAML, and the
 * `meta.k8s.io` transformations `as=Table` and `as=PartialObjectMetadata[List]` (v1 or v1beta1) are served;
 * protobuf is not (clients list JSON after it). Nothing acceptable is 406 NotAcceptable.
 */
import { StatusError } from '../status-errors.js';

/** How to write an answer. */
export type Rendering =
  | { readonly as: 'json' }
  | { readonly as: 'yaml' }
  | { readonly as: 'table'; readonly version: string }
  | { readonly as: 'metadata'; readonly version: string };

const JSON_RENDERING: Rendering = { as: 'json' };
export const ACCEPTED_MEDIA_TYPES = 'application/json, application/yaml';

interface MediaRange {
  readonly type: string;
  readonly params: Record<string, string>;
  readonly q: number;
  readonly order: number;
}

function parseAccept(header: string): MediaRange[] {
  return header
    .split(',')
    .map((part, order) => {
      const [type = '', ...rest] = part.split(';').map((s) => s.trim());
      const params: Record<string, string> = {};
      for (const param of rest) {
        const eq = param.indexOf('=');
        if (eq > 0) params[param.slice(0, eq).trim().toLowerCase()] = param.slice(eq + 1).trim().replace(/^"|"$/g, '');
      }
      const q = params['q'] === undefined ? 1 : Number(params['q']);
      return { type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0, order };
    })
    .filter((range) => range.type !== '' && range.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
}

function renderingOf(range: MediaRange, verb: string): Rendering | undefined {
  const { type, params } = range;
  const json = type === 'application/json' || type === '*/*' || type === 'application/*';
  const as = params['as'];
  if (as === undefined) {
    if (json) return JSON_RENDERING;
    if (type === 'application/yaml' && verb !== 'watch') return { as: 'yaml' };
    return undefined;
  }
  if (!json || params['g'] !== 'meta.k8s.io' || (params['v'] !== 'v1' && params['v'] !== 'v1beta1')) return undefined;
  if (as === 'Table' && (verb === 'get' || verb === 'list' || verb === 'watch')) return { as: 'table', version: params['v'] };
  if ((as === 'PartialObjectMetadata' && (verb === 'get' || verb === 'watch')) || (as === 'PartialObjectMetadataList' && verb === 'list')) {
    return { as: 'metadata', version: params['v'] };
  }
  return undefined;
}

/** The rendering the `Accept` header asks for; 406 when the server can produce none of the types it lists. */
export function negotiate(accept: string | undefined, verb: string): Rendering {
  if (accept === undefined || accept.trim() === '') return JSON_RENDERING;
  for (const range of parseAccept(accept)) {
    const rendering = renderingOf(range, verb);
    if (rendering !== undefined) return rendering;
  }
  throw new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `only the following media types are accepted: ${ACCEPTED_MEDIA_TYPES}`,
    reason: 'NotAcceptable',
    code: 406,
  });
}
