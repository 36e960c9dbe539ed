/**
 * kube-apiserver's validation of a Pod (Go's ValidatePodCreate and ValidatePodUpdate): a new Pod's spec
 * (pod-spec-validation.ts); an update may change only its containers' images, activeDeadlineSeconds, additions to
 * its tolerations and a negative grace period to 1. kube-apiserver ends that refusal's message with a diff of its
 * internal Go structs; the test server's message stops before the diff (docs/testing.md).
 */
import { jsonEqual } from '../../patch/json-value.js';
import { fieldForbidden, fieldRequired, type FieldProblem } from '../../status-errors.js';
import { objectAt, objectsAt, textAt, type Json } from './fields.js';
import { podSpecProblems } from './pod-spec-validation.js';

const MUTABLE =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,' +
  '`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

export function podProblems(object: Json): FieldProblem[] {
  return podSpecProblems(objectAt(object, 'spec') ?? {}, 'spec');
}

/** The spec with what an update may change taken from `old`: the comparison kube-apiserver makes. */
function withMutableFrom(spec: Json, old: Json): Json {
  const copy: Json = { ...spec };
  const take = (key: string, value: unknown): void => {
    if (value === undefined) delete copy[key];
    else copy[key] = value;
  };
  for (const list of ['containers', 'initContainers']) {
    const before = objectsAt(old, list);
    if (Array.isArray(spec[list])) copy[list] = objectsAt(spec, list).map((container, i) => (before[i] === undefined ? container : { ...container, image: before[i]['image'] }));
  }
  take('activeDeadlineSeconds', old['activeDeadlineSeconds']);
  const grace = old['terminationGracePeriodSeconds'];
  if (typeof grace === 'number' && grace < 0 && spec['terminationGracePeriodSeconds'] === 1) take('terminationGracePeriodSeconds', grace);
  // Tolerations may only be added to: the old ones must all still be there, in order.
  const tolerations = Array.isArray(spec['tolerations']) ? spec['tolerations'] : [];
  const previous = Array.isArray(old['tolerations']) ? old['tolerations'] : [];
  if (previous.every((t, i) => jsonEqual(t, tolerations[i]))) take('tolerations', old['tolerations']);
  return copy;
}

export function podUpdateProblems(object: Json, old: Json): FieldProblem[] {
  const spec = objectAt(object, 'spec') ?? {};
  const oldSpec = objectAt(old, 'spec') ?? {};
  const problems: FieldProblem[] = [];
  for (const list of ['containers', 'initContainers']) {
    objectsAt(spec, list).forEach((container, i) => {
      if (textAt(container, 'image') === '') problems.push(fieldRequired(`spec.${list}[${i}].image`));
    });
  }
  if (!jsonEqual(withMutableFrom(spec, oldSpec), oldSpec)) problems.push(fieldForbidden('spec', MUTABLE));
  return problems;
}
