/**
 * `customResource` (Orkestra's `custom`, `pkg/types/custom_resource.go`): any kind written as a manifest
 * (`apiVersion`, `kind`, `metadata`, `spec`, and other top-level fields as written). Orkestra's hints are read here:
 * `metadata.namespaced: false` makes the child cluster-scoped (its namespace is dropped), `hasStatus: false` is
 * accepted. A `status` block or `hasStatus: true` is an error: a child's status belongs to its own controller, and
 * katalog applies what an owner declares (metadata and the rest), never a child's status.
 */
import type { KindBuilder } from './kind-builder.js';
import { resourcesBuilder } from './builders-manifest.js';
import { isPlainMap, manifestError, ShortForm } from './short-form.js';

export const customResourceBuilder: KindBuilder = {
  produces: undefined,
  fields: undefined,
  build(body, context) {
    const form = new ShortForm(body);
    const { status, hasStatus, ...rest } = body;
    if (status !== undefined && status !== null) throw manifestError('"status" of a customResource entry is not applied: a child\'s status is written by its own controller');
    if (form.boolean('hasStatus') === true || (hasStatus !== undefined && typeof hasStatus !== 'boolean' && hasStatus !== 'false')) {
      throw manifestError('"hasStatus: true" is not supported: katalog does not write the status of children');
    }
    const metadata = rest['metadata'];
    if (!isPlainMap(metadata)) return resourcesBuilder.build(rest, context);
    const { namespaced, ...meta } = metadata;
    const clusterScoped = namespaced === false || namespaced === 'false';
    if (clusterScoped) delete meta['namespace'];
    const manifest = resourcesBuilder.build({ ...rest, metadata: meta }, context);
    if (clusterScoped && manifest.metadata !== undefined) delete manifest.metadata.namespace;
    return manifest;
  },
};
