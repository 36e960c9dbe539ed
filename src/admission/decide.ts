/**
 * The two decisions of the admission router, as pure functions from a request to a response:
 *
 * - validate: CREATE/UPDATE run the validation rules (deny → `allowed: false`, code 400, Orkestra's message;
 *   warn → `warnings`); DELETE of an object labelled `orkestra.io/deletion-protection: "true"` of a protected CRD
 *   is refused with 403.
 * - mutate: CREATE/UPDATE apply the mutation rules as a JSONPatch; CREATE of a protected CRD's object also adds
 *   the deletion-protection label (which is how the protection reaches new objects without the runtime).
 *
 * Messages carry the CRD's kind, the object's name and namespace and the rules' own text, never a field's value.
 */
import { TemplateError } from '../errors.js';
import { DELETION_PROTECTION_LABEL, type CompiledCrdRules } from './crd-rules.js';
import type { JsonPatchOperation } from '../rules/object-fields.js';
import type { AdmissionRequest, AdmissionResponse } from './review.js';
import type { Violation } from '../rules/validation.js';

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectOf(request: AdmissionRequest): Record<string, unknown> {
  return isMap(request.object) ? request.object : {};
}

function labelsOf(object: unknown): Record<string, unknown> {
  const metadata = isMap(object) ? object.metadata : undefined;
  return isMap(metadata) && isMap(metadata.labels) ? metadata.labels : {};
}

function nameOf(request: AdmissionRequest): string {
  if (request.name !== undefined && request.name !== '') return request.name;
  const metadata = objectOf(request).metadata;
  return isMap(metadata) && typeof metadata.name === 'string' ? metadata.name : '';
}

/** The text of one violation, as Orkestra words it (without the value it found). */
function policyText(violation: Violation): string {
  return `field ${JSON.stringify(violation.field)}: ${violation.message}`;
}

/** A rule that could not be evaluated: refuse, naming the CRD and the failure's kind, not the object's data. */
function evaluationFailure(uid: string, rules: CompiledCrdRules, error: unknown): AdmissionResponse {
  if (!(error instanceof TemplateError)) throw error;
  const where = error.template === undefined ? '' : ` (${error.template})`;
  return { uid, allowed: false, status: { code: 500, reason: 'InternalError', message: `katalog: the admission rules of CRD "${rules.crd.name}" failed to render${where}: ${error.code}` } };
}

/** The validating decision for one request. */
export function decideValidation(request: AdmissionRequest, rules: CompiledCrdRules | undefined): AdmissionResponse {
  const uid = request.uid;
  const admission = rules?.crd.admission;
  if (rules === undefined || admission === undefined) return { uid, allowed: true };
  const kind = request.kind.kind;
  const namespace = request.namespace ?? '';
  if (request.operation === 'DELETE') {
    if (!admission.protectDelete || labelsOf(request.oldObject)[DELETION_PROTECTION_LABEL] !== 'true') return { uid, allowed: true };
    const where = namespace === '' ? '' : ` in namespace ${namespace}`;
    return {
      uid,
      allowed: false,
      status: {
        code: 403,
        reason: 'Forbidden',
        message: `[Orkestra Deletion Protection] ${kind}/${nameOf({ ...request, object: request.oldObject ?? null })}${where} is protected from deletion; remove its label ${DELETION_PROTECTION_LABEL} to delete it`,
      },
    };
  }
  if (!admission.validate || admission.validation.length === 0 || (request.operation !== 'CREATE' && request.operation !== 'UPDATE')) return { uid, allowed: true };
  let result;
  try {
    result = rules.validate(objectOf(request), 'admission');
  } catch (error) {
    return evaluationFailure(uid, rules, error);
  }
  const warnings = result.warnings.map((warning) => `orkestra: ${policyText(warning)}`);
  const withWarnings = warnings.length === 0 ? {} : { warnings };
  if (result.denials.length === 0) return { uid, allowed: true, ...withWarnings };
  return {
    uid,
    allowed: false,
    ...withWarnings,
    status: {
      code: 400,
      message: `\n\n[Orkestra Validation] validation failed\n\n${kind}/${nameOf(request)}/${namespace} was blocked due to the following policies:\n ${result.denials.map(policyText).join('; ')}\n\n`,
      details: { causes: result.denials.map((denial) => ({ reason: 'FieldValueInvalid', field: denial.field, message: denial.message })) },
    },
  };
}

/** The mutating decision for one request. */
export function decideMutation(request: AdmissionRequest, rules: CompiledCrdRules | undefined): AdmissionResponse {
  const uid = request.uid;
  const admission = rules?.crd.admission;
  if (rules === undefined || admission === undefined || (request.operation !== 'CREATE' && request.operation !== 'UPDATE')) return { uid, allowed: true };
  const patch: JsonPatchOperation[] = [];
  let object = objectOf(request);
  if (admission.mutate && admission.mutation.length > 0) {
    try {
      const result = rules.mutate(object, 'admission');
      object = result.object;
      patch.push(...result.patch);
    } catch (error) {
      return evaluationFailure(uid, rules, error);
    }
  }
  if (admission.protectDelete && request.operation === 'CREATE' && labelsOf(object)[DELETION_PROTECTION_LABEL] === undefined) {
    const metadata = isMap(object.metadata) ? object.metadata : undefined;
    const path = `/metadata/labels/${DELETION_PROTECTION_LABEL.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (metadata === undefined) patch.push({ op: 'add', path: '/metadata', value: { labels: { [DELETION_PROTECTION_LABEL]: 'true' } } });
    else if (!isMap(metadata.labels)) patch.push({ op: 'add', path: '/metadata/labels', value: { [DELETION_PROTECTION_LABEL]: 'true' } });
    else patch.push({ op: 'add', path, value: 'true' });
  }
  if (patch.length === 0) return { uid, allowed: true };
  return { uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
}
