/**
 * Short forms of the configuration kinds: `namespaces`, `configMaps`, `secrets`, `serviceAccounts`.
 */
import type { KindBuilder } from './kind-builder.js';
import { namedRefs } from './pod-template.js';
import { compact, defaultClusterName, defaultName, metadataOf, ShortForm } from './short-form.js';

export const namespacesBuilder: KindBuilder = {
  produces: { apiVersion: 'v1', kind: 'Namespace' },
  fields: [],
  build(body, context) {
    const metadata = metadataOf(new ShortForm(body), defaultClusterName(context, ''));
    delete metadata.namespace;
    return { apiVersion: 'v1', kind: 'Namespace', metadata };
  },
};

export const configMapsBuilder: KindBuilder = {
  produces: { apiVersion: 'v1', kind: 'ConfigMap' },
  fields: ['data', 'binaryData', 'immutable'],
  build(body, context) {
    const form = new ShortForm(body);
    return compact({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: metadataOf(form, defaultName(context, 'config')),
      data: form.stringMap('data'),
      binaryData: form.stringMap('binaryData'),
      immutable: form.boolean('immutable'),
    });
  },
};

/**
 * Secrets: `data` and `stringData` both hold plain text, which the builder base64-encodes into `data` (Orkestra's
 * behaviour for `data`; for `stringData` it is what the API server would do, done here so that the live Secret and
 * the template compare equal). Values that are already base64 go in a full manifest under `resources`.
 */
export const secretsBuilder: KindBuilder = {
  produces: { apiVersion: 'v1', kind: 'Secret' },
  fields: ['type', 'data', 'stringData', 'immutable'],
  build(body, context) {
    const form = new ShortForm(body);
    const plain = { ...(form.stringMap('data') ?? {}), ...(form.stringMap('stringData') ?? {}) };
    const data: Record<string, string> = {};
    for (const [key, value] of Object.entries(plain)) data[key] = Buffer.from(value, 'utf8').toString('base64');
    return compact({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: metadataOf(form, defaultName(context, 'secret')),
      type: form.string('type') ?? 'Opaque',
      data: Object.keys(data).length === 0 ? undefined : data,
      immutable: form.boolean('immutable'),
    });
  },
};

export const serviceAccountsBuilder: KindBuilder = {
  produces: { apiVersion: 'v1', kind: 'ServiceAccount' },
  fields: ['automountServiceAccountToken', 'imagePullSecrets', 'secrets'],
  build(body, context) {
    const form = new ShortForm(body);
    return compact({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: metadataOf(form, defaultName(context, 'sa')),
      automountServiceAccountToken: form.boolean('automountServiceAccountToken'),
      imagePullSecrets: namedRefs(form, 'imagePullSecrets'),
      secrets: namedRefs(form, 'secrets'),
    });
  },
};
