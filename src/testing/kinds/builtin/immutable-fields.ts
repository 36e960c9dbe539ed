/**
 * What an update of a built-in kind may not change, as kube-apiserver's ValidateUpdate functions refuse it, each
 * after the new object's own problems: a workload's selector, a StatefulSet's service name, pod management policy
 * and claim templates, a Job's completions, selector and pod template, an unbound claim's spec. A refused struct is
 * printed as the API's JSON, where kube-apiserver prints its internal Go struct (docs/testing.md).
 */
import { jsonEqual } from '../../patch/json-value.js';
import { fieldForbidden, fieldInvalid, type FieldProblem } from '../../status-errors.js';
import { objectAt, type Json } from './fields.js';
import { persistentVolumeClaimProblems } from './other-validation.js';
import { daemonSetProblems, deploymentProblems, jobProblems, replicaSetProblems, statefulSetProblems } from './workload-validation.js';

const IMMUTABLE = 'field is immutable';

function same(a: unknown, b: unknown): boolean {
  return jsonEqual(a ?? null, b ?? null);
}

/** `spec.<field>` of the new object when it differs from the old one's. */
function immutable(spec: Json, oldSpec: Json, field: string): FieldProblem[] {
  return same(spec[field], oldSpec[field]) ? [] : [fieldInvalid(`spec.${field}`, spec[field] ?? null, IMMUTABLE)];
}

function specs(object: Json, old: Json): [Json, Json] {
  return [objectAt(object, 'spec') ?? {}, objectAt(old, 'spec') ?? {}];
}

export function deploymentUpdateProblems(object: Json, old: Json): FieldProblem[] {
  return [...deploymentProblems(object), ...immutable(...specs(object, old), 'selector')];
}

export function replicaSetUpdateProblems(object: Json, old: Json): FieldProblem[] {
  return [...replicaSetProblems(object), ...immutable(...specs(object, old), 'selector')];
}

export function daemonSetUpdateProblems(object: Json, old: Json): FieldProblem[] {
  return [...daemonSetProblems(object), ...immutable(...specs(object, old), 'selector')];
}

export function statefulSetUpdateProblems(object: Json, old: Json): FieldProblem[] {
  const [spec, oldSpec] = specs(object, old);
  return [...statefulSetProblems(object), ...['selector', 'serviceName', 'podManagementPolicy', 'volumeClaimTemplates'].flatMap((field) => immutable(spec, oldSpec, field))];
}

export function jobUpdateProblems(object: Json, old: Json): FieldProblem[] {
  const [spec, oldSpec] = specs(object, old);
  return [...jobProblems(object, false), ...['completions', 'selector'].flatMap((field) => immutable(spec, oldSpec, field)), ...templateImmutable(spec, oldSpec)];
}

/** A Job's pod template, printed as kube-apiserver prints it: its metadata's fields beside `spec`. */
function templateImmutable(spec: Json, oldSpec: Json): FieldProblem[] {
  const template = objectAt(spec, 'template') ?? {};
  if (same(template, oldSpec['template'])) return [];
  return [fieldInvalid('spec.template', { ...(objectAt(template, 'metadata') ?? {}), spec: template['spec'] ?? null }, IMMUTABLE)];
}

/**
 * A claim's spec cannot change but for a bound claim's storage request and volume attributes class (no controller
 * binds claims here, so they stay Pending); its volume mode is also reported on its own. kube-apiserver goes on with
 * a diff of its internal spec after the first line, which the test server does not print.
 */
export function persistentVolumeClaimUpdateProblems(object: Json, old: Json): FieldProblem[] {
  const [spec, oldSpec] = specs(object, old);
  const bound = objectAt(old, 'status')?.['phase'] === 'Bound';
  const comparable = (value: Json): Json => {
    if (!bound) return value;
    const copy = structuredClone(value);
    delete copy['volumeAttributesClassName'];
    delete objectAt(copy, 'resources')?.['requests'];
    return copy;
  };
  const problems = persistentVolumeClaimProblems(object);
  if (!same(comparable(spec), comparable(oldSpec))) problems.push(fieldForbidden('spec', 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims'));
  if (!same(spec['volumeMode'], oldSpec['volumeMode'])) problems.push(fieldInvalid('volumeMode', spec['volumeMode'] ?? null, IMMUTABLE));
  return problems;
}
