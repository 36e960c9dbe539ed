/**
 * The value rules kube-apiserver's validation of built-in kinds shares, with apimachinery's messages: label keys and
 * values, label selectors, config keys, IANA port names, port numbers, IPv4 addresses, non-negative counts and
 * int-or-percent values. Each answers Go's
 * messages (an empty list: valid) or field problems at the path given.
 */
import { dns1123SubdomainProblems } from '../../resources/dns-names.js';
import { fieldInvalid, type FieldProblem } from '../../status-errors.js';
import { objectAt, objectsAt, textAt, type Json } from './fields.js';

/** Go's `RegexError`: the message, each example followed by `, ` and joined by ` or `, then the expression. */
function regexError(message: string, expression: string, examples: readonly string[]): string {
  return `${message} (e.g. ${examples.map((example) => `'${example}', `).join(' or ')}regex used for validation is '${expression}')`;
}

const LABEL_VALUE = '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?';
const QUALIFIED_NAME = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_MESSAGE = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const CONFIG_KEY = '[-._a-zA-Z0-9]+';

/** apimachinery's IsLabelValue (api/validate/content): at most 63 bytes, of Go's form. */
export function labelValueProblems(value: string): string[] {
  const problems: string[] = [];
  if (Buffer.byteLength(value) > 63) problems.push('must be no more than 63 bytes');
  if (!new RegExp(`^${LABEL_VALUE}$`).test(value)) {
    problems.push(regexError("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", LABEL_VALUE, ['MyValue', 'my_value', '12345']));
  }
  return problems;
}

/**
 * apimachinery's IsQualifiedName (api/validate/content's IsLabelKey in 1.37): an optional DNS subdomain prefix and
 * `/`, then a name of at most 63 bytes of Go's form (an empty name fails both).
 */
export function qualifiedNameProblems(value: string): string[] {
  const parts = value.split('/');
  if (parts.length > 2) {
    return [`a valid label key ${regexError(QUALIFIED_NAME_MESSAGE, QUALIFIED_NAME, ['MyName', 'my.name', '123-abc'])} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  const problems: string[] = [];
  const name = parts.length === 2 ? (parts[1] ?? '') : value;
  if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    if (prefix === '') problems.push('prefix part must be non-empty');
    else problems.push(...dns1123SubdomainProblems(prefix, 'bytes').map((problem) => `prefix part ${problem}`));
  }
  if (name === '') problems.push('name part must be non-empty');
  else if (Buffer.byteLength(name) > 63) problems.push('name part must be no more than 63 bytes');
  if (!new RegExp(`^${QUALIFIED_NAME}$`).test(name)) problems.push(`name part ${regexError(QUALIFIED_NAME_MESSAGE, QUALIFIED_NAME, ['MyName', 'my.name', '123-abc'])}`);
  return problems;
}

/** Go's ValidateLabels: each key a qualified name, each value a label value, reported at `field`. */
export function labelProblems(labels: Json | undefined, field: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    for (const message of qualifiedNameProblems(key)) problems.push(fieldInvalid(field, key, message));
    for (const message of labelValueProblems(String(value))) problems.push(fieldInvalid(field, value, message));
  }
  return problems;
}

const OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/** Go's ValidateLabelSelector (label values checked strictly): its matchLabels and matchExpressions. */
export function labelSelectorProblems(selector: Json, field: string): FieldProblem[] {
  const problems = labelProblems(objectAt(selector, 'matchLabels'), `${field}.matchLabels`);
  objectsAt(selector, 'matchExpressions').forEach((requirement, i) => {
    const at = `${field}.matchExpressions[${i}]`;
    const operator = textAt(requirement, 'operator');
    const values = Array.isArray(requirement['values']) ? requirement['values'] : [];
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0) problems.push({ field: `${at}.values`, reason: 'FieldValueRequired', message: 'Required value: must be specified when `operator` is \'In\' or \'NotIn\'' });
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length > 0) problems.push({ field: `${at}.values`, reason: 'FieldValueForbidden', message: 'Forbidden: may not be specified when `operator` is \'Exists\' or \'DoesNotExist\'' });
    } else {
      problems.push(fieldInvalid(`${at}.operator`, operator, 'not a valid selector operator'));
    }
    for (const message of qualifiedNameProblems(textAt(requirement, 'key'))) problems.push(fieldInvalid(`${at}.key`, textAt(requirement, 'key'), message));
    values.forEach((value, j) => {
      for (const message of labelValueProblems(String(value))) problems.push(fieldInvalid(`${at}.values[${j}]`, value, message));
    });
  });
  return problems;
}

/** Whether apimachinery can make a selector of `selector` (LabelSelectorAsSelector): valid keys, values and operators. */
export function selectorParses(selector: Json): boolean {
  const labels = Object.entries(objectAt(selector, 'matchLabels') ?? {});
  if (labels.some(([key, value]) => qualifiedNameProblems(key).length > 0 || labelValueProblems(String(value)).length > 0)) return false;
  return objectsAt(selector, 'matchExpressions').every((requirement) => {
    const values = Array.isArray(requirement['values']) ? requirement['values'] : [];
    const operator = textAt(requirement, 'operator');
    if (!OPERATORS.includes(operator) || qualifiedNameProblems(textAt(requirement, 'key')).length > 0) return false;
    if ((operator === 'In' || operator === 'NotIn') === (values.length === 0)) return false;
    return values.every((value) => labelValueProblems(String(value)).length === 0);
  });
}

/** Whether `selector` selects `labels`; a missing selector selects nothing, an empty one everything. */
export function selectorMatches(selector: Json | undefined, labels: Json | undefined): boolean {
  if (selector === undefined) return false;
  const set = labels ?? {};
  for (const [key, value] of Object.entries(objectAt(selector, 'matchLabels') ?? {})) if (set[key] !== value) return false;
  return objectsAt(selector, 'matchExpressions').every((requirement) => {
    const key = textAt(requirement, 'key');
    const values = (Array.isArray(requirement['values']) ? requirement['values'] : []).map(String);
    const has = Object.hasOwn(set, key);
    switch (requirement['operator']) {
      case 'In':
        return has && values.includes(String(set[key]));
      case 'NotIn':
        return !has || !values.includes(String(set[key]));
      case 'Exists':
        return has;
      default:
        return !has;
    }
  });
}

/** Whether a selector selects everything (no matchLabels, no matchExpressions). */
export function selectorEmpty(selector: Json): boolean {
  return Object.keys(objectAt(selector, 'matchLabels') ?? {}).length + objectsAt(selector, 'matchExpressions').length === 0;
}

/** apimachinery's IsConfigMapKey (keys of ConfigMaps and Secrets). */
export function configKeyProblems(key: string): string[] {
  const problems: string[] = [];
  if (key.length > 253) problems.push('must be no more than 253 characters');
  if (!new RegExp(`^${CONFIG_KEY}$`).test(key)) problems.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", CONFIG_KEY, ['key.name', 'KEY_NAME', 'key-name']));
  if (key === '.') problems.push("must not be '.'");
  else if (key === '..') problems.push("must not be '..'");
  else if (key.startsWith('..')) problems.push("must not start with '..'");
  return problems;
}

/** apimachinery's IsValidPortName: an IANA service name (a container port's or Service port's name, a named targetPort). */
export function portNameProblems(name: string): string[] {
  const problems: string[] = [];
  if (name.length > 15) problems.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) problems.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) problems.push('must contain at least one letter (a-z)');
  if (name.includes('--')) problems.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) problems.push('must not begin or end with a hyphen');
  return problems;
}

/** A dotted IPv4 address (a Service's cluster IP on this single-stack IPv4 server). */
export const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** apimachinery's IsValidPortNum. */
export function portNumberProblems(port: number): string[] {
  return port >= 1 && port <= 65_535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/** Go's ValidatePortNumOrName: a number in range (absent: 0), or an IANA port name. */
export function portNumOrNameProblems(value: unknown, field: string): FieldProblem[] {
  if (typeof value === 'string') return portNameProblems(value).map((message) => fieldInvalid(field, value, message));
  const port = typeof value === 'number' ? value : 0;
  return portNumberProblems(port).map((message) => fieldInvalid(field, port, message));
}

const PERCENT = '[0-9]+%';

/** Go's ValidatePositiveIntOrPercent: a count not below zero, or a percent string. */
export function intOrPercentProblems(value: unknown, field: string): FieldProblem[] {
  if (typeof value === 'number') return nonNegative(value, field);
  if (typeof value === 'string' && !new RegExp(`^${PERCENT}$`).test(value)) {
    return [fieldInvalid(field, value, `a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '${PERCENT}')`)];
  }
  return [];
}

/** The number an int-or-percent stands for, as Go's getIntOrPercentValue reads it (a percent's number, -1 when unreadable). */
export function intOrPercentValue(value: unknown): number {
  if (typeof value === 'number') return value;
  const match = typeof value === 'string' ? /^([0-9]+)%$/.exec(value) : null;
  return match === null ? -1 : Number(match[1]);
}

/** Go's IsNotMoreThan100Percent. */
export function atMost100Percent(value: unknown, field: string): FieldProblem[] {
  return typeof value === 'string' && intOrPercentValue(value) > 100 ? [fieldInvalid(field, value, 'must not be greater than 100%')] : [];
}

/** Go's ValidateNonnegativeField, for a number present at `field`. */
export function nonNegative(value: unknown, field: string): FieldProblem[] {
  return typeof value === 'number' && value < 0 ? [fieldInvalid(field, value, 'must be greater than or equal to 0')] : [];
}
