/**
 * A `v1` Binding request body decoded as kube-apiserver's decoder decodes it, with its 400s in its words:
 *
 * - A body that is empty, not a JSON object, or whose `apiVersion`/`kind` are not strings is "unrecognized", quoted
 *   at its start (Go's `summarizeData`: the text of an object, the hex of anything else, 30 bytes at most).
 * - A missing `kind`/`apiVersion` is a `v1` Binding; another kind is an unknown conversion when kube-apiserver's
 *   scheme knows it at that version (told here by the built-in kinds the registry serves, their list kinds and the
 *   `meta/v1` option kinds), and "not registered" otherwise.
 * - The first field holding a value of the wrong type, in the order of the text (as Go's `encoding/json` reports
 *   the first error it met), is refused as Go words it.
 * - Then `fieldValidation`: unknown and duplicate fields refused (`Strict`) or warned of (`Warn`), and pruned.
 *
 * A body that is not JSON at all is answered by {@link parseJsonBody} (Go's syntax error messages are not copied).
 */
import { isJsonObject } from '../patch/json-value.js';
import { BINDING_FIELDS, pruneUnknown } from '../resources/known-fields.js';
import { badRequest } from '../status-errors.js';
import type { KubeObject } from '../store/record.js';
import { parseJsonBody } from './body.js';
import { scanFields, type FieldValidation } from './field-validation.js';
import { notAnObject, unmarshalProblem, type GoField } from '../go/go-json.js';

/** Whether kube-apiserver's scheme has `kind` at `apiVersion` (a kind it can decode, though not as a Binding). */
export type KindRegistered = (apiVersion: string, kind: string) => boolean;

export interface DecodedBinding {
  /** The Binding: `apiVersion`/`kind` set, unknown fields pruned. */
  readonly binding: KubeObject;
  /** `unknown field` and `duplicate field` warnings (`fieldValidation=Warn`). */
  readonly warnings: readonly string[];
}

const string = (go: string): GoField => ({ go, type: 'string', holds: 'string' });
const uid = (go: string): GoField => ({ go, type: 'types.UID', holds: 'string' });
const int64 = (go: string): GoField => ({ go, type: 'int64', holds: 'int64' });
const stringMap = (go: string): GoField => ({ go, type: 'map[string]string', holds: 'object' });

/** The typed fields of ObjectMeta and ObjectReference that Go refuses a value of another type in. */
const META_FIELDS: Readonly<Record<string, GoField>> = {
  name: string('ObjectMeta.metadata.name'),
  generateName: string('ObjectMeta.metadata.generateName'),
  namespace: string('ObjectMeta.metadata.namespace'),
  selfLink: string('ObjectMeta.metadata.selfLink'),
  uid: uid('ObjectMeta.metadata.uid'),
  resourceVersion: string('ObjectMeta.metadata.resourceVersion'),
  generation: int64('ObjectMeta.metadata.generation'),
  deletionGracePeriodSeconds: int64('ObjectMeta.metadata.deletionGracePeriodSeconds'),
  labels: stringMap('ObjectMeta.metadata.labels'),
  annotations: stringMap('ObjectMeta.metadata.annotations'),
  finalizers: { go: 'ObjectMeta.metadata.finalizers', type: '[]string', holds: 'strings' },
};
const TARGET_FIELDS: Readonly<Record<string, GoField>> = Object.fromEntries([
  ...['kind', 'namespace', 'name', 'apiVersion', 'resourceVersion', 'fieldPath'].map((field) => [field, string(`ObjectReference.target.${field}`)] as const),
  ['uid', uid('ObjectReference.target.uid')] as const,
]);
const PARTS: Readonly<Record<string, { readonly field: GoField; readonly inner: Readonly<Record<string, GoField>> }>> = {
  metadata: { field: { go: 'Binding.metadata', type: 'v1.ObjectMeta', holds: 'object' }, inner: META_FIELDS },
  target: { field: { go: 'Binding.target', type: 'v1.ObjectReference', holds: 'object' }, inner: TARGET_FIELDS },
};

/** The kinds `meta/v1` registers in every group version of kube-apiserver's scheme. */
const OPTION_KINDS = new Set(['WatchEvent', 'ListOptions', 'GetOptions', 'DeleteOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions']);
/** The kinds `meta/v1` registers in the core `v1` only (its unversioned types). */
const CORE_META_KINDS = new Set(['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList']);

/** Go's `summarizeData(body, 30)`: how a refused body is quoted. */
function summary(text: string): string {
  const data = Buffer.from(text, 'utf8');
  if (data.length === 0) return '<empty>';
  const head = data.subarray(0, 30);
  const more = data.length > 30 ? ' ...' : '';
  return data[0] === 0x7b ? `${head.toString('utf8')}${more}` : `${head.toString('hex')}${more}`;
}

function unrecognized(problem: string, text: string): never {
  throw badRequest(`the object provided is unrecognized (must be of type Binding): ${problem} (${summary(text)})`);
}

/** Go's first refusal of a value in a map of strings: a value that is not a string (null is the empty string). */
function mapProblem(value: Record<string, unknown>, field: GoField): string | undefined {
  for (const item of Object.values(value)) {
    const problem = unmarshalProblem(item, { ...field, type: 'string', holds: 'string' });
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** The first typed field of `body` holding another type, in the order of the text. */
function typeProblem(body: KubeObject): string | undefined {
  for (const key of Object.keys(body)) {
    const part = PARTS[key];
    if (part === undefined) continue;
    const value = body[key];
    const problem = unmarshalProblem(value, part.field);
    if (problem !== undefined) return problem;
    if (!isJsonObject(value)) continue;
    for (const inner of Object.keys(value)) {
      const field = part.inner[inner];
      if (field === undefined) continue;
      const held = value[inner];
      const found = unmarshalProblem(held, field) ?? (field.type === 'map[string]string' && isJsonObject(held) ? mapProblem(held, field) : undefined);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The `apiVersion` and `kind` the decoder reads first (an absent or null one is empty; another type is refused). */
function typeMeta(body: KubeObject, text: string): { apiVersion: string; kind: string } {
  const found = { apiVersion: '', kind: '' };
  for (const key of Object.keys(body)) {
    if (key !== 'apiVersion' && key !== 'kind') continue;
    const value = body[key];
    const problem = unmarshalProblem(value, { go: `.${key}`, type: 'string', holds: 'string' });
    if (problem !== undefined) unrecognized(`couldn't get version/kind; json parse error: ${problem}`, text);
    if (typeof value === 'string') found[key] = value;
  }
  return found;
}

/**
 * Decodes a Binding body; `registered` tells a kind kube-apiserver knows from one it does not. Throws its 400s;
 * answers the Binding (owned by the caller) and the field warnings.
 */
export function decodeBinding(text: string, mode: FieldValidation, registered: KindRegistered): DecodedBinding {
  if (text.trim() === '') unrecognized("couldn't get version/kind; json parse error: unexpected end of JSON input", text);
  const value = parseJsonBody(text);
  if (!isJsonObject(value)) unrecognized(notAnObject(value), text);
  const body = value as KubeObject;
  const meta = typeMeta(body, text);
  if (meta.apiVersion.split('/').length > 2) unrecognized(`unexpected GroupVersion string: ${meta.apiVersion}`, text);
  const kind = meta.kind === '' ? 'Binding' : meta.kind;
  // Go's ParseGroupVersion reads `/v1` as the core group's v1; a missing apiVersion is the request's, v1.
  const given = meta.apiVersion.startsWith('/') ? meta.apiVersion.slice(1) : meta.apiVersion;
  const apiVersion = given === '' ? 'v1' : given;
  const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
  const cannot = `${kind} in version ${JSON.stringify(version)} cannot be handled as a Binding`;
  const known = kind === 'Binding' ? apiVersion === 'v1' : OPTION_KINDS.has(kind) || (apiVersion === 'v1' && CORE_META_KINDS.has(kind)) || registered(apiVersion, kind);
  if (!known) throw badRequest(`${cannot}: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "pkg/runtime/scheme.go:111"`);
  if (kind !== 'Binding') throw badRequest(`${cannot}: converting (${version}.${kind}) to (core.Binding): unknown conversion`);
  const problem = typeProblem(body);
  if (problem !== undefined) throw badRequest(`${cannot}: ${problem}`);
  const problems = mode === 'Ignore' ? [] : scanFields(text, BINDING_FIELDS, true);
  if (mode === 'Strict' && problems.length > 0) throw badRequest(`${cannot}: strict decoding error: ${problems.join(', ')}`);
  pruneUnknown(body, BINDING_FIELDS);
  return { binding: { ...body, apiVersion: 'v1', kind: 'Binding' }, warnings: problems };
}
