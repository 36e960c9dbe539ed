/**
 * The review versions a webhook accepts, as kube-apiserver checks them for an admission webhook
 * (`admissionReviewVersions`) and for a CRD's conversion webhook (`conversionReviewVersions`): at least one, each a
 * DNS-1035 label and given once, and (unless an update keeps what was stored) one the server speaks, v1 or v1beta1.
 */
import { dns1035LabelProblems } from '../resources/dns-names.js';
import { fieldInvalid, fieldRequired, type FieldProblem } from '../status-errors.js';

/** The review versions kube-apiserver speaks. */
export const REVIEW_VERSIONS: readonly string[] = ['v1', 'v1beta1'];

/** `requiredDetail`: what the Required error adds (the admission check says which versions, the CRD's nothing). */
export function reviewVersionProblems(versions: readonly string[], at: string, options: { readonly requireKnown: boolean; readonly requiredDetail?: string }): FieldProblem[] {
  if (versions.length === 0) return [fieldRequired(at, options.requiredDetail ?? '')];
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  versions.forEach((version, i) => {
    if (seen.has(version)) {
      problems.push(fieldInvalid(`${at}[${i}]`, version, 'duplicate version'));
      return;
    }
    seen.add(version);
    for (const problem of dns1035LabelProblems(version)) problems.push(fieldInvalid(`${at}[${i}]`, version, problem));
  });
  if (options.requireKnown && !versions.some((version) => REVIEW_VERSIONS.includes(version))) problems.push(fieldInvalid(at, versions, `must include at least one of ${REVIEW_VERSIONS.join(', ')}`));
  return problems;
}
