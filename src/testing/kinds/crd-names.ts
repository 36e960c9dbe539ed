/**
 * kube-apiserver's checks of a CRD's `spec.names` (read in 1.37.2 and probed), after its v1 defaults
 * (crd-spec-defaults.ts): plural, singular and kind are required and listKind too; plural, singular, short names and
 * categories are DNS-1035 labels, kind and listKind too but of mixed case, and listKind is not the kind. Duplicate
 * short names or categories, and a singular equal to the plural, are accepted, as there.
 */
import { dns1035LabelProblems } from '../resources/dns-names.js';
import { fieldInvalid, fieldRequired, type FieldProblem } from '../status-errors.js';
import { str } from './crd-types.js';

type Json = Readonly<Record<string, unknown>>;

const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(str) : []);

/** The names kube-apiserver requires, in its order. */
export function requiredNameProblems(names: Json): FieldProblem[] {
  return ['plural', 'singular', 'kind', 'listKind'].filter((name) => str(names[name]) === '').map((name) => fieldRequired(`spec.names.${name}`));
}

/** The form of each name, in kube-apiserver's order. */
export function nameFormProblems(names: Json): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const label = (name: string): void => {
    const value = str(names[name]);
    const found = dns1035LabelProblems(value);
    if (value !== '' && found.length > 0) problems.push(fieldInvalid(`spec.names.${name}`, value, found.join(',')));
  };
  const mixedCase = (name: string): void => {
    const value = str(names[name]);
    const found = dns1035LabelProblems(value.toLowerCase());
    if (value !== '' && found.length > 0) problems.push(fieldInvalid(`spec.names.${name}`, value, `may have mixed case, but should otherwise match: ${found.join(',')}`));
  };
  label('plural');
  label('singular');
  mixedCase('kind');
  mixedCase('listKind');
  list(names['shortNames']).forEach((shortName, i) => {
    const found = dns1035LabelProblems(shortName);
    if (found.length > 0) problems.push(fieldInvalid(`spec.names.shortNames[${i}]`, shortName, found.join(',')));
  });
  const kind = str(names['kind']);
  if (kind !== '' && kind === str(names['listKind'])) problems.push(fieldInvalid('spec.names.listKind', kind, 'kind and listKind may not be the same'));
  list(names['categories']).forEach((category, i) => {
    const found = dns1035LabelProblems(category);
    if (found.length > 0) problems.push(fieldInvalid(`spec.names.categories[${i}]`, category, found.join(',')));
  });
  return problems;
}
