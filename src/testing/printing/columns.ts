/** A Table column and the helpers the column sets share. Pure. */
import { asObject } from '../patch/json-value.js';
import type { KubeObject } from '../store/record.js';

/** One column of a `meta.k8s.io` Table. */
export interface ColumnDefinition {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
}

/** A kind's columns and how to fill one row. */
export interface ColumnSet {
  readonly columns: readonly ColumnDefinition[];
  cells(object: KubeObject, now: number): unknown[];
}

export function column(name: string, type: string, description: string, priority = 0, format = ''): ColumnDefinition {
  return { name, type, format, description, priority };
}

export const NAME_COLUMN = column('Name', 'string', 'Name must be unique within a namespace.', 0, 'name');

export function rec(value: unknown): Record<string, unknown> {
  return asObject(value);
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function num(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

export function str(value: unknown, fallback = '<none>'): string {
  return typeof value === 'string' && value !== '' ? value : fallback;
}

export function nameOf(object: KubeObject): string {
  return String(rec(object['metadata'])['name'] ?? '');
}

/** `a=b,c=d` of a label map (sorted, as Kubernetes prints selectors), `<none>` when empty. */
export function labelsText(value: unknown): string {
  const entries = Object.entries(rec(value)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? '<none>' : entries.map(([k, v]) => `${k}=${String(v)}`).join(',');
}

/** The containers' names and images of a Pod template, comma-joined. */
export function containerColumns(podSpec: unknown): [string, string] {
  const containers = list(rec(podSpec)['containers']).map(rec);
  return [containers.map((c) => String(c['name'] ?? '')).join(','), containers.map((c) => String(c['image'] ?? '')).join(',')];
}
