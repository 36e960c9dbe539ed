/**
 * A DELETE's options as kube-apiserver decodes them: from the body when the request has one (its query is then not
 * read at all), else from the query; then checked (`orphanDependents` and `propagationPolicy` not both, a known
 * policy, `dryRun` only `All`), 422 on `DeleteOptions` otherwise; a value of the wrong type is Go's 400.
 */
import type { DeleteOptions, PropagationPolicy } from '../operations/delete-options.js';
import { badRequest } from '../status-errors.js';
import { isJsonObject } from '../patch/json-value.js';
import { parseJsonBody } from './body.js';
import { notAnObject, unmarshalProblem, type GoField } from '../go/go-json.js';
import { dryRunOf, flag, goInt, invalidOption, optional } from './query.js';

const POLICIES: readonly string[] = ['Foreground', 'Background', 'Orphan'];

/** What was asked, before it is checked. */
export interface AskedDeleteOptions {
  policy?: string;
  orphanDependents?: boolean;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: unknown[];
}

/** A typed field of DeleteOptions (or its Preconditions) and what Go's decoder holds it in. */
interface TypedField {
  readonly struct: 'DeleteOptions' | 'Preconditions';
  readonly type: string;
  readonly holds: GoField['holds'];
}

/** The typed fields of DeleteOptions, where Go's decoder refuses a value of another type (400). */
const TYPED: Readonly<Record<string, TypedField>> = {
  gracePeriodSeconds: { struct: 'DeleteOptions', type: 'int64', holds: 'int64' },
  propagationPolicy: { struct: 'DeleteOptions', type: 'v1.DeletionPropagation', holds: 'string' },
  orphanDependents: { struct: 'DeleteOptions', type: 'bool', holds: 'bool' },
  dryRun: { struct: 'DeleteOptions', type: '[]string', holds: 'strings' },
};
const PRECONDITIONS: Readonly<Record<string, TypedField>> = {
  uid: { struct: 'Preconditions', type: 'types.UID', holds: 'string' },
  resourceVersion: { struct: 'Preconditions', type: 'string', holds: 'string' },
};

/** Refuses a typed field holding a value of another type, as Go's decoder does (`path`: where the holder is). */
function checkTypes(holder: Record<string, unknown>, fields: Readonly<Record<string, TypedField>>, path: string): void {
  for (const [name, field] of Object.entries(fields)) {
    const problem = unmarshalProblem(holder[name], { go: `${field.struct}.${path}${name}`, type: field.type, holds: field.holds });
    if (problem !== undefined) throw badRequest(problem);
  }
}

/**
 * DeleteOptions decoded from a JSON object, Go's 400 for a field of the wrong type; `path` is where they sit in the
 * body (`deleteOptions.` inside an Eviction), as Go's error names the field.
 */
export function decodeDeleteOptions(body: Record<string, unknown>, path = ''): AskedDeleteOptions {
  checkTypes(body, TYPED, path);
  const asked: AskedDeleteOptions = {};
  if (typeof body['propagationPolicy'] === 'string') asked.policy = body['propagationPolicy'];
  if (typeof body['orphanDependents'] === 'boolean') asked.orphanDependents = body['orphanDependents'];
  if (typeof body['gracePeriodSeconds'] === 'number') asked.gracePeriodSeconds = body['gracePeriodSeconds'];
  const preconditions = body['preconditions'];
  if (isJsonObject(preconditions)) {
    checkTypes(preconditions, PRECONDITIONS, `${path}preconditions.`);
    asked.preconditions = {
      ...(typeof preconditions['uid'] === 'string' ? { uid: preconditions['uid'] } : {}),
      ...(typeof preconditions['resourceVersion'] === 'string' ? { resourceVersion: preconditions['resourceVersion'] } : {}),
    };
  }
  if (Array.isArray(body['dryRun'])) asked.dryRun = body['dryRun'];
  return asked;
}

function fromBody(body: unknown): AskedDeleteOptions {
  if (body === null) return {};
  if (!isJsonObject(body)) throw badRequest(notAnObject(body));
  return decodeDeleteOptions(body);
}

function fromQuery(query: URLSearchParams): AskedDeleteOptions {
  const asked: AskedDeleteOptions = {};
  const policy = optional(query, 'propagationPolicy');
  if (policy !== undefined) asked.policy = policy;
  if (query.has('orphanDependents')) asked.orphanDependents = flag(query, 'orphanDependents');
  const grace = goInt(query, 'gracePeriodSeconds');
  if (grace !== undefined) asked.gracePeriodSeconds = grace;
  const dryRun = query.getAll('dryRun');
  if (dryRun.length > 0) asked.dryRun = dryRun;
  return asked;
}

/** The options checked as kube-apiserver checks them before a deletion (422 on `DeleteOptions`). */
export function checkDeleteOptions(asked: AskedDeleteOptions): DeleteOptions {
  const { policy } = asked;
  if (policy !== undefined && asked.orphanDependents !== undefined) {
    throw invalidOption('DeleteOptions', 'propagationPolicy', 'FieldValueInvalid', `Invalid value: ${JSON.stringify(policy)}: orphanDependents and deletionPropagation cannot be both set`);
  }
  if (policy !== undefined && !POLICIES.includes(policy)) {
    throw invalidOption('DeleteOptions', 'propagationPolicy', 'FieldValueNotSupported', `Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan", "nil"`);
  }
  const dryRun = dryRunOf(asked.dryRun ?? [], 'DeleteOptions');
  return {
    ...(policy === undefined ? {} : { propagationPolicy: policy as PropagationPolicy }),
    ...(asked.orphanDependents === undefined ? {} : { orphanDependents: asked.orphanDependents }),
    ...(asked.gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds: asked.gracePeriodSeconds }),
    ...(asked.preconditions === undefined ? {} : { preconditions: asked.preconditions }),
    ...(dryRun ? { dryRun: true } : {}),
  };
}

/** The DELETE's options from its query and body text. */
export function deleteOptionsOf(query: URLSearchParams, body: string): DeleteOptions {
  return checkDeleteOptions(body.trim() === '' ? fromQuery(query) : fromBody(parseJsonBody(body)));
}

/** The options of a DELETE as admission webhooks are sent them: DeleteOptions' fields in Go's order. */
export function deleteOptionsForAdmission(options: DeleteOptions): Record<string, unknown> {
  return {
    ...(options.gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds: options.gracePeriodSeconds }),
    ...(options.preconditions === undefined ? {} : { preconditions: options.preconditions }),
    ...(options.orphanDependents === undefined ? {} : { orphanDependents: options.orphanDependents }),
    ...(options.propagationPolicy === undefined ? {} : { propagationPolicy: options.propagationPolicy }),
    ...(options.dryRun === true ? { dryRun: ['All'] } : {}),
  };
}
