/**
 * The CRD's `labels` (Orkestra's CRD-level labels, docs/orkestra-compatibility.md#crd-labels): label values
 * rendered at every reconcile and merged into the custom resource's own metadata when they differ. Keys are
 * static; a value renders to a text (a number or boolean is written as its text). Messages name the field only.
 */
import { KatalogError } from '../errors.js';
import type { KubeObject } from '../kube/resource.js';

/** Merges `labels` into the object's metadata and returns the object as written. */
export type LabelWriter = (object: KubeObject, labels: Readonly<Record<string, string>>, signal: AbortSignal) => Promise<KubeObject | undefined>;

/** The labels whose rendered value differs from the object's (`undefined` when none do). */
export function crLabelsToWrite(rendered: unknown, object: KubeObject, source: string): Record<string, string> | undefined {
  if (rendered === null || typeof rendered !== 'object' || Array.isArray(rendered)) throw new KatalogError('E_MANIFEST', `${source}: labels must render a map`);
  const current = object.metadata?.labels ?? {};
  const changes: Record<string, string> = {};
  for (const [key, value] of Object.entries(rendered as Record<string, unknown>)) {
    if (value !== null && typeof value === 'object') throw new KatalogError('E_MANIFEST', `${source}.${key}: a label value must render a text`);
    const text = value === undefined || value === null ? '' : String(value);
    if (current[key] !== text) changes[key] = text;
  }
  return Object.keys(changes).length === 0 ? undefined : changes;
}
