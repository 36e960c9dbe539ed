/**
 * Names as Kubernetes validates them, checked at load so that a definition the API server would refuse later fails
 * with a path and line now: `metadata.name` (DNS-1123 subdomain), finalizers (qualified names; a name without a
 * prefix only when it is one of Kubernetes' own), the CRD name `<plural>.<group>` (plural a DNS label, group a
 * subdomain with a dot), and label keys and values written literally under an operatorBox (`labels`, `matchLabels`;
 * strings holding a template are checked when rendered, by the API server). A Katalog must declare a CRD.
 */
import type { Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';

const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME_PART = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

function rec(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function isTemplate(value: string): boolean {
  return value.includes('{{');
}

/** Why `name` is not a DNS-1123 subdomain, or undefined. */
export function subdomainProblem(name: string): string | undefined {
  if (name.length > 253) return 'must be no more than 253 characters';
  if (!SUBDOMAIN.test(name)) return "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
  return undefined;
}

/** Why `name` is not a qualified name (`[prefix/]name`, as label keys and finalizers), or undefined. */
export function qualifiedNameProblem(name: string): string | undefined {
  const parts = name.split('/');
  if (parts.length > 2) return "a qualified name must consist of an optional DNS subdomain prefix and '/' and a name";
  const [prefix, local] = parts.length === 2 ? [parts[0] ?? '', parts[1] ?? ''] : [undefined, parts[0] ?? ''];
  if (prefix !== undefined) {
    if (prefix === '') return 'prefix part must be non-empty';
    const problem = subdomainProblem(prefix);
    if (problem !== undefined) return `prefix part ${problem}`;
  }
  if (local === '') return 'name part must be non-empty';
  if (local.length > 63) return 'name part must be no more than 63 characters';
  if (!QUALIFIED_NAME_PART.test(local)) return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  return undefined;
}

/** Why `value` is not a label value, or undefined. */
export function labelValueProblem(value: string): string | undefined {
  if (value.length > 63) return 'must be no more than 63 characters';
  if (!LABEL_VALUE.test(value)) return "must be empty or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  return undefined;
}

/** Why `name` is not a valid finalizer, or undefined. */
export function finalizerProblem(name: string): string | undefined {
  const problem = qualifiedNameProblem(name);
  if (problem !== undefined) return problem;
  if (!name.includes('/') && !STANDARD_FINALIZERS.has(name)) return 'name is neither a standard finalizer name nor is it fully qualified (prefix/name)';
  return undefined;
}

function checkFinalizers(value: unknown, path: Path, origin: Origin, problems: ProblemList): void {
  if (!Array.isArray(value)) return;
  value.forEach((finalizer, index) => {
    if (typeof finalizer !== 'string' || isTemplate(finalizer)) return;
    const problem = finalizerProblem(finalizer);
    if (problem !== undefined) problems.add(origin, [...path, index], 'invalid-finalizer', `finalizer "${finalizer}" is invalid: ${problem}`);
  });
}

function checkLabels(map: Record<string, unknown>, path: Path, origin: Origin, problems: ProblemList): void {
  for (const [key, value] of Object.entries(map)) {
    if (!isTemplate(key)) {
      const problem = qualifiedNameProblem(key);
      if (problem !== undefined) problems.add(origin, [...path, key], 'invalid-label', `label key "${key}" is invalid: ${problem}`, { at: 'key' });
    }
    if (typeof value === 'string' && !isTemplate(value)) {
      const problem = labelValueProblem(value);
      if (problem !== undefined) problems.add(origin, [...path, key], 'invalid-label', `label value "${value}" of "${key}" is invalid: ${problem}`);
    }
  }
}

/** Walks an operatorBox for literal `labels` and `matchLabels` maps. */
function walkLabels(value: unknown, path: Path, origin: Origin, problems: ProblemList, depth = 0): void {
  if (depth > 12) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => walkLabels(item, [...path, index], origin, problems, depth + 1));
    return;
  }
  const map = rec(value);
  if (map === undefined) return;
  for (const [key, child] of Object.entries(map)) {
    const labels = rec(child);
    if ((key === 'labels' || key === 'matchLabels') && labels !== undefined) checkLabels(labels, [...path, key], origin, problems);
    else walkLabels(child, [...path, key], origin, problems, depth + 1);
  }
}

function checkCrdName(apiTypes: Record<string, unknown>, path: Path, origin: Origin, problems: ProblemList): void {
  const { group, plural } = apiTypes;
  if (typeof group !== 'string' || group === '' || typeof plural !== 'string' || plural === '') return;
  // An upper-case plural is already reported by the apiTypes checks ("must be lowercase").
  if (plural === plural.toLowerCase() && !DNS_LABEL.test(plural)) {
    problems.add(origin, [...path, 'plural'], 'invalid-crd-name', `plural "${plural}" is invalid: must be a lower case DNS label (alphanumeric characters or '-', starting and ending with an alphanumeric character)`);
  }
  const groupProblem = subdomainProblem(group) ?? (group.includes('.') ? undefined : 'should be a domain with at least one dot');
  if (groupProblem !== undefined) problems.add(origin, [...path, 'group'], 'invalid-crd-name', `group "${group}" is invalid: ${groupProblem}`);
  const name = `${plural}.${group}`;
  const nameProblem = subdomainProblem(name.toLowerCase());
  if (nameProblem !== undefined && groupProblem === undefined) problems.add(origin, path, 'invalid-crd-name', `CRD name "${name}" is invalid: ${nameProblem}`);
}

/** Checks the names in a Katalog or Komposer document as written (before normalisation). */
export function checkNames(document: unknown, origin: Origin, problems: ProblemList): void {
  const root = rec(document);
  // Other formats (Orkestra's) and unknown apiVersions are reported and shaped elsewhere.
  if (root === undefined || root['apiVersion'] !== 'katalog.dev/v1') return;
  const name = rec(root['metadata'])?.['name'];
  if (typeof name === 'string' && name !== '') {
    const problem = subdomainProblem(name);
    if (problem !== undefined) problems.add(origin, ['metadata', 'name'], 'invalid-name', `metadata.name "${name}" is invalid: ${problem} (a DNS-1123 subdomain)`);
  }
  const spec = rec(root['spec']);
  if (spec === undefined) return;
  checkFinalizers(spec['finalizers'], ['spec', 'finalizers'], origin, problems);
  const entries = rec(spec['crds']);
  // A missing spec.crds is already reported as a missing field; an empty one is refused here.
  if (root['kind'] === 'Katalog' && entries !== undefined && Object.keys(entries).length === 0) {
    problems.add(origin, ['spec', 'crds'], 'no-crds', 'a Katalog must declare at least one CRD under spec.crds');
  }
  for (const [key, entry] of Object.entries(entries ?? {})) {
    const crd = rec(entry);
    if (crd === undefined) continue;
    const apiTypes = rec(crd['apiTypes']);
    if (apiTypes !== undefined) checkCrdName(apiTypes, ['spec', 'crds', key, 'apiTypes'], origin, problems);
    const box = rec(crd['operatorBox']);
    if (box === undefined) continue;
    checkFinalizers(box['finalizers'], ['spec', 'crds', key, 'operatorBox', 'finalizers'], origin, problems);
    walkLabels(box, ['spec', 'crds', key, 'operatorBox'], origin, problems);
  }
}
