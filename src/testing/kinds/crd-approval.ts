/**
 * The approval annotation kube-apiserver requires of a CRD in a protected community group (`k8s.io`, `kubernetes.io`
 * and their subdomains): a URL, or a reason starting with "unapproved"; on update only when its state changes.
 * Probed on kube-apiserver 1.37.2.
 */
import { fieldInvalid, fieldRequired, type FieldProblem } from '../status-errors.js';
import { metadataOf, type KubeObject } from '../store/record.js';
import { obj, str } from './crd-types.js';

const APPROVAL = 'api-approved.kubernetes.io';
const KEP = 'see https://github.com/kubernetes/enhancements/pull/1111';

type Approval = 'missing' | 'bypassed' | 'approved' | 'invalid';

function approvalOf(crd: KubeObject): Approval {
  const annotations = obj(metadataOf(crd)['annotations']);
  const value = str(annotations[APPROVAL]);
  if (value === '') return 'missing';
  if (value.startsWith('unapproved')) return 'bypassed';
  try {
    const url = new URL(value);
    return url.host !== '' && url.protocol !== '' ? 'approved' : 'invalid';
  } catch {
    // Not a URL: an invalid approval, reported below.
    return 'invalid';
  }
}

/**
 * A CRD in a protected group (`k8s.io`, `kubernetes.io` and their subdomains) needs the approval annotation, a URL or
 * a reason starting with "unapproved"; on update only when its state changes, as there.
 */
export function approvalProblems(crd: KubeObject, prev: KubeObject | undefined): FieldProblem[] {
  const group = str(obj(crd['spec'])['group']);
  const protectedGroup = group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
  if (!protectedGroup) return [];
  const state = approvalOf(crd);
  if (prev !== undefined && approvalOf(prev) === state) return [];
  const field = `metadata.annotations[${APPROVAL}]`;
  if (state === 'missing') return [fieldRequired(field, `protected groups must have approval annotation "${APPROVAL}", ${KEP}`)];
  if (state === 'invalid') {
    const value = str(obj(metadataOf(crd)['annotations'])[APPROVAL]);
    return [fieldInvalid(field, value, `protected groups must have approval annotation "${APPROVAL}" with either a URL or a reason starting with "unapproved", ${KEP}`)];
  }
  return [];
}
