/**
 * Field selectors (`fieldSelector`): comma-separated `field=value`, `field==value`, `field!=value`, on the labels
 * a version of a kind supports (`ServedVersion.fieldLabels`: `metadata.name`, mostly `metadata.namespace`, the labels
 * a real server adds for some built-in kinds and a CRD version's selectable fields). Other labels are answered 400.
 */
import type { KubeObject } from '../store/record.js';
import { badRequest } from '../status-errors.js';

interface FieldRequirement {
  readonly path: readonly string[];
  readonly equal: boolean;
  readonly value: string;
}

/** A parsed field selector; the empty selector matches everything. */
export interface FieldSelector {
  readonly empty: boolean;
  matches(object: KubeObject): boolean;
}

function splitUnescaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (ch === '\\' && i + 1 < text.length) {
      current += ch + (text[i + 1] ?? '');
      i += 1;
    } else if (ch === separator) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts;
}

function unescape(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}

function fieldValue(object: KubeObject, path: readonly string[]): string {
  let current: unknown = object;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return '';
    current = (current as Record<string, unknown>)[segment];
  }
  if (typeof current === 'string') return current;
  if (typeof current === 'number' || typeof current === 'boolean') return String(current);
  return '';
}

const EVERYTHING: FieldSelector = { empty: true, matches: () => true };

/** Parses a `fieldSelector` for a kind (a version of it) that supports `labels`; throws 400 on bad syntax or unknown labels. */
export function parseFieldSelector(text: string | undefined, labels: readonly string[]): FieldSelector {
  if (text === undefined || text.trim() === '') return EVERYTHING;
  const requirements: FieldRequirement[] = [];
  for (const raw of splitUnescaped(text, ',')) {
    const part = raw.trim();
    if (part === '') continue;
    const m = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/.exec(part);
    if (m === null) throw badRequest(`invalid field selector: "${part}"`);
    const field = (m[1] ?? '').trim();
    if (!labels.includes(field)) throw badRequest(`field label not supported: ${field}`);
    requirements.push({ path: field.split('.'), equal: m[2] !== '!=', value: unescape(m[3] ?? '') });
  }
  if (requirements.length === 0) return EVERYTHING;
  return {
    empty: false,
    matches: (object) => requirements.every((r) => (fieldValue(object, r.path) === r.value) === r.equal),
  };
}
