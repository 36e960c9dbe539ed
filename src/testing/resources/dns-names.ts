/**
 * The name rules of Kubernetes (apimachinery's `IsDNS1123Label`, `IsDNS1123Subdomain`, `IsDNS1035Label`), each
 * answering Go's messages: one for a name too long, one for a name of the wrong form, with Go's examples and
 * regular expression. An empty list means the name is valid.
 */

/** apimachinery's `rand` alphabet: no vowels (no words), no confusable characters; names' random and hash suffixes. */
export const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

const LABEL_1123 = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const SUBDOMAIN_1123 = `${LABEL_1123}(\\.${LABEL_1123})*`;
const LABEL_1035 = '[a-z]([-a-z0-9]*[a-z0-9])?';

/** Go's `RegexError`: the message, the examples and the expression. */
function regexError(message: string, expression: string, examples: readonly string[]): string {
  return `${message} (e.g. ${examples.map((example) => `'${example}', `).join(' or ')}regex used for validation is '${expression}')`;
}

/**
 * How a rule words a value too long: names are checked by util/validation ("characters"), label keys' prefixes by
 * the newer api/validate/content ("bytes"); both count bytes.
 */
export type LengthUnit = 'characters' | 'bytes';

function check(value: string, max: number, expression: string, message: string, examples: readonly string[], unit: LengthUnit = 'characters'): string[] {
  const problems: string[] = [];
  if (Buffer.byteLength(value) > max) problems.push(`must be no more than ${max} ${unit}`);
  if (!new RegExp(`^${expression}$`).test(value)) problems.push(regexError(message, expression, examples));
  return problems;
}

export function dns1123LabelProblems(value: string): string[] {
  return check(value, 63, LABEL_1123, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character", ['my-name', '123-abc']);
}

export function dns1123SubdomainProblems(value: string, unit: LengthUnit = 'characters'): string[] {
  return check(value, 253, SUBDOMAIN_1123, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", ['example.com'], unit);
}

export function dns1035LabelProblems(value: string): string[] {
  return check(value, 63, LABEL_1035, "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character", ['my-name', 'abc-123']);
}
