/**
 * `resources`: a full manifest of any kind (`apiVersion`, `kind`, `metadata`, `spec`...). The common entry fields
 * `name`, `namespace`, `labels` and `annotations` are folded into `metadata` (they win over it).
 */
import type { KubeObject } from '../kube/resource.js';
import type { KindBuilder } from './kind-builder.js';
import { isPlainMap, manifestError, ShortForm } from './short-form.js';

export const resourcesBuilder: KindBuilder = {
  produces: undefined,
  fields: undefined,
  build(body) {
    const form = new ShortForm(body);
    const apiVersion = form.requiredString('apiVersion', 'resources');
    const kind = form.requiredString('kind', 'resources');
    const { name: ignoredName, namespace: ignoredNamespace, labels: ignoredLabels, annotations: ignoredAnnotations, metadata: rawMetadata, ...rest } = body;
    void ignoredName;
    void ignoredNamespace;
    void ignoredLabels;
    void ignoredAnnotations;
    if (rawMetadata !== undefined && !isPlainMap(rawMetadata)) throw manifestError('"metadata" must be a map');
    const metadata: NonNullable<KubeObject['metadata']> = { ...(rawMetadata ?? {}) };
    const name = form.string('name');
    const namespace = form.string('namespace');
    if (name !== undefined) metadata.name = name;
    if (namespace !== undefined) metadata.namespace = namespace;
    const labels = form.stringMap('labels');
    const annotations = form.stringMap('annotations');
    if (labels !== undefined) metadata.labels = { ...stringValues(metadata.labels), ...labels };
    if (annotations !== undefined) metadata.annotations = { ...stringValues(metadata.annotations), ...annotations };
    if (typeof metadata.name !== 'string' || metadata.name === '') throw manifestError(`resources need "name" or "metadata.name" (${kind})`);
    return { ...rest, apiVersion, kind, metadata };
  },
};

function stringValues(value: unknown): Record<string, string> {
  if (!isPlainMap(value)) return {};
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined && item !== null) out[key] = String(item);
  return out;
}
