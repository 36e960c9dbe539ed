/**
 * A DELETE's options as kube-apiserver decodes them: from the body when the request has one (its query is then not
 * read at all), else from the query; then checked (`orphanDependents` and `propagationPolicy` not both, a known
 * policy, `dryRun` only `All`), 422 on `DeleteOptions` otherwise.
 */
import type { DeleteOptions, PropagationPolicy } from '../operations/delete-options.js';
import { badRequest } from '../status-errors.js';
import { parseJsonBody } from './body.js';
import { flag, goInt, invalidOption, optional } from './query.js';

const POLICIES: readonly string[] = ['Foreground', 'Background', 'Orphan'];

/** What was asked, before it is checked. */
interface Asked {
  policy?: unknown;
  orphanDependents?: boolean;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: unknown[];
}

function fromBody(body: unknown): Asked {
  if (body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('the DeleteOptions body must be an object');
  const options = body as Record<string, unknown>;
  const asked: Asked = {};
  if (options['propagationPolicy'] !== undefined && options['propagationPolicy'] !== null) asked.policy = options['propagationPolicy'];
  if (typeof options['orphanDependents'] === 'boolean') asked.orphanDependents = options['orphanDependents'];
  const grace = options['gracePeriodSeconds'];
  if (grace !== undefined && grace !== null) {
    if (typeof grace !== 'number' || !Number.isInteger(grace)) throw badRequest(`json: cannot unmarshal ${typeof grace === 'number' ? 'number' : typeof grace} into Go struct field DeleteOptions.gracePeriodSeconds of type int64`);
    asked.gracePeriodSeconds = grace;
  }
  const preconditions = options['preconditions'];
  if (typeof preconditions === 'object' && preconditions !== null) {
    const p = preconditions as Record<string, unknown>;
    asked.preconditions = {
      ...(typeof p['uid'] === 'string' ? { uid: p['uid'] } : {}),
      ...(typeof p['resourceVersion'] === 'string' ? { resourceVersion: p['resourceVersion'] } : {}),
    };
  }
  if (Array.isArray(options['dryRun'])) asked.dryRun = options['dryRun'];
  return asked;
}

function fromQuery(query: URLSearchParams): Asked {
  const asked: Asked = {};
  const policy = optional(query, 'propagationPolicy');
  if (policy !== undefined) asked.policy = policy;
  if (query.has('orphanDependents')) asked.orphanDependents = flag(query, 'orphanDependents');
  const grace = goInt(query, 'gracePeriodSeconds');
  if (grace !== undefined) asked.gracePeriodSeconds = grace;
  const dryRun = query.getAll('dryRun');
  if (dryRun.length > 0) asked.dryRun = dryRun;
  return asked;
}

/** The DELETE's options from its query and body text. */
export function deleteOptionsOf(query: URLSearchParams, body: string): DeleteOptions {
  const asked = body.trim() === '' ? fromQuery(query) : fromBody(parseJsonBody(body));
  const { policy } = asked;
  if (policy !== undefined && asked.orphanDependents !== undefined) {
    throw invalidOption('DeleteOptions', 'propagationPolicy', 'FieldValueInvalid', `Invalid value: ${JSON.stringify(policy)}: orphanDependents and deletionPropagation cannot be both set`);
  }
  if (policy !== undefined && (typeof policy !== 'string' || !POLICIES.includes(policy))) {
    throw invalidOption('DeleteOptions', 'propagationPolicy', 'FieldValueNotSupported', `Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan", "nil"`);
  }
  if (asked.dryRun !== undefined && !asked.dryRun.every((v) => v === 'All')) {
    throw invalidOption('DeleteOptions', 'dryRun', 'FieldValueNotSupported', `Unsupported value: ${JSON.stringify(asked.dryRun)}: supported values: "All"`);
  }
  return {
    ...(policy === undefined ? {} : { propagationPolicy: policy as PropagationPolicy }),
    ...(asked.orphanDependents === undefined ? {} : { orphanDependents: asked.orphanDependents }),
    ...(asked.gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds: asked.gracePeriodSeconds }),
    ...(asked.preconditions === undefined ? {} : { preconditions: asked.preconditions }),
    ...(asked.dryRun !== undefined && asked.dryRun.length > 0 ? { dryRun: true } : {}),
  };
}
