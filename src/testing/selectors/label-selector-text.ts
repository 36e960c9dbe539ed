/**
 * A `metav1.LabelSelector` (`matchLabels`, `matchExpressions`) as the text selector it stands for, as
 * apimachinery's `LabelSelectorAsSelector(...).String()` writes it: one requirement per label and expression,
 * sorted by key, `k=v`, `k in (a,b)`, `k notin (a,b)` (values sorted), `k`, `!k`; `''` for an empty or absent
 * selector. What a Scale's `status.selector` holds, and what `kubectl get -l` reads.
 */
import { asObject } from '../patch/json-value.js';

const OPERATORS: Readonly<Record<string, (key: string, values: string[]) => string>> = {
  In: (key, values) => `${key} in (${values.join(',')})`,
  NotIn: (key, values) => `${key} notin (${values.join(',')})`,
  Exists: (key) => key,
  DoesNotExist: (key) => `!${key}`,
};

/** The text of `selector` (a stored, validated label selector). */
export function labelSelectorText(selector: unknown): string {
  const { matchLabels, matchExpressions } = asObject(selector);
  const requirements: { key: string; text: string }[] = [];
  for (const [key, value] of Object.entries(asObject(matchLabels))) requirements.push({ key, text: `${key}=${String(value)}` });
  for (const expression of Array.isArray(matchExpressions) ? matchExpressions : []) {
    const { key, operator, values } = asObject(expression);
    const write = OPERATORS[String(operator)];
    // A stored selector was validated: every expression has a key and one of the four operators.
    if (typeof key !== 'string' || write === undefined) continue;
    const sorted = [...new Set(Array.isArray(values) ? values.map(String) : [])].sort();
    requirements.push({ key, text: write(key, sorted) });
  }
  // Go's sort.Sort by key is not stable; requirements of one key keep the order they were written in here.
  requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return requirements.map((r) => r.text).join(',');
}
