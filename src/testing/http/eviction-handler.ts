/**
 * `POST pods/{name}/eviction` (`operations/eviction.ts` does the work): decode the Eviction as kube-apiserver's
 * decoder does (`policy/v1` or `policy/v1beta1`, kind and version defaulted when absent, Go's type errors in its
 * words), check it as EvictionREST does (the name in the URL, `ignoreStoreReadErrorWithClusterBreakingPotential`,
 * the dry-run of the query against the body's), run admission with the Eviction as the object (resource `pods`,
 * subresource `eviction`), and answer `201` with a `Success` Status.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { admitWrite } from '../admission/admit.js';
import { checkNamespaceOpen } from '../operations/create.js';
import { evictPod, type Eviction } from '../operations/eviction.js';
import { unstoredRecord } from '../operations/object-rules.js';
import { isJsonObject } from '../patch/json-value.js';
import { badRequest, invalid, StatusError } from '../status-errors.js';
import type { KubeObject } from '../store/record.js';
import { parseJsonBody, readBody } from './body.js';
import type { ServerContext } from './context.js';
import { checkDeleteOptions, decodeDeleteOptions, type AskedDeleteOptions } from './delete-options.js';
import { notAnObject, unmarshalProblem } from '../go/go-json.js';
import { dryRun, writeOptionsOf } from './query.js';
import type { ResourceRequest } from './resource-handlers.js';
import { sendJson, withWarnings } from './respond.js';

const EVICTION_KIND = { group: 'policy', version: 'v1', kind: 'Eviction' } as const;
const VERSIONS = ['policy/v1', 'policy/v1beta1'];

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The body as an Eviction, or Go's decoder's 400: a prefix names what could not be handled. */
function decode(body: unknown): { eviction: KubeObject; cannot: string } {
  if (!isJsonObject(body)) throw badRequest(`the object provided is unrecognized (must be of type Eviction): ${notAnObject(body)}`);
  const kind = text(body['kind']) || 'Eviction';
  const apiVersion = text(body['apiVersion']) || 'policy/v1';
  const version = apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
  const cannot = `${kind} in version ${JSON.stringify(version)} cannot be handled as a Eviction`;
  if (kind !== 'Eviction') throw badRequest(`${cannot}: converting (${version}.${kind}) to (policy.Eviction): unknown conversion`);
  if (!VERSIONS.includes(apiVersion)) throw badRequest(`${cannot}: no kind "Eviction" is registered for version ${JSON.stringify(apiVersion)} in scheme "pkg/runtime/scheme.go:111"`);
  return { eviction: body, cannot };
}

/** The Eviction's deleteOptions as Go decodes them (400 for a value of the wrong type). */
function askedOptions(eviction: KubeObject, cannot: string): AskedDeleteOptions {
  const options = eviction['deleteOptions'];
  if (options === undefined || options === null) return {};
  const problem = unmarshalProblem(options, { go: 'Eviction.deleteOptions', type: 'v1.DeleteOptions', holds: 'object' });
  if (problem !== undefined || !isJsonObject(options)) throw badRequest(`${cannot}: ${problem ?? ''}`);
  try {
    return decodeDeleteOptions(options, 'deleteOptions.');
  } catch (error) {
    if (error instanceof StatusError && error.body.code === 400) throw badRequest(`${cannot}: ${error.body.message ?? ''}`);
    throw error;
  }
}

/** Go's `%v` of a string slice: `[a b]`. */
function goList(values: readonly unknown[]): string {
  return `[${values.map(String).join(' ')}]`;
}

/** The Eviction checked as EvictionREST checks it, with the dry run of the query carried into its options. */
function evictionOf(eviction: KubeObject, cannot: string, namespace: string, name: string, queryDryRun: readonly string[]): Eviction {
  const asked = askedOptions(eviction, cannot);
  const metadata = isJsonObject(eviction['metadata']) ? eviction['metadata'] : {};
  if (text(metadata['name']) !== name) throw badRequest('name in URL does not match name in Eviction object');
  const options = isJsonObject(eviction['deleteOptions']) ? eviction['deleteOptions'] : {};
  if (options['ignoreStoreReadErrorWithClusterBreakingPotential'] === true) {
    const field = 'deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential';
    throw invalid(EVICTION_KIND, name, [{ field, reason: 'FieldValueInvalid', message: 'Invalid value: true: can not be set for pod eviction, try after removing the option' }]);
  }
  const bodyDryRun = asked.dryRun ?? [];
  if (bodyDryRun.length > 0 && queryDryRun.length > 0 && goList(bodyDryRun) !== goList(queryDryRun)) {
    throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Non-matching dry-run options in request and content: ${goList(queryDryRun)} and ${goList(bodyDryRun)}`, code: 500 });
  }
  const withDryRun: AskedDeleteOptions = bodyDryRun.length > 0 || queryDryRun.length === 0 ? asked : { ...asked, dryRun: [...queryDryRun] };
  const dry = (withDryRun.dryRun ?? []).length > 0;
  try {
    return { namespace, name, deleteOptions: checkDeleteOptions(withDryRun), dryRun: dry };
  } catch (error) {
    if (!(error instanceof StatusError)) throw error;
    return { namespace, name, deleteOptions: {}, refusal: error, dryRun: dry };
  }
}

export async function serveEviction(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, r: ResourceRequest): Promise<void> {
  const { cluster } = ctx;
  const { view, query } = r;
  const namespace = r.namespace ?? '';
  const name = r.name ?? '';
  const queryDryRun = query.getAll('dryRun');
  const dry = dryRun(query, 'CreateOptions');
  const { eviction, cannot } = decode(parseJsonBody(await readBody(req)));
  const metadata = isJsonObject(eviction['metadata']) ? eviction['metadata'] : {};
  if (text(metadata['namespace']) !== '' && metadata['namespace'] !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  checkNamespaceOpen(cluster, namespace, view.type, name);
  // Go's decoder refuses options of the wrong types before admission.
  askedOptions(eviction, cannot);
  const admitted = await admitWrite(cluster, { operation: 'CREATE', view, namespace, name, subresource: 'eviction', object: eviction, oldObject: undefined, dryRun: dry, options: writeOptionsOf(query), kind: EVICTION_KIND }, (object, checkOnly) => {
    const asked = object ?? eviction;
    // EvictionREST's own checks come before the validating webhooks (admission's check run), the eviction after
    // them, once; a dry run's eviction is its check run (its refusal then comes before the webhooks').
    const checked = evictionOf(asked, cannot, namespace, name, queryDryRun);
    if (!checkOnly || dry) evictPod(cluster, view, checked);
    return unstoredRecord(view, asked);
  });
  sendJson(res, 201, JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }), withWarnings({}, admitted.warnings));
}
