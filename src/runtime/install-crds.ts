/**
 * `installCrds: true` (development and tests): applies each CRD's `crdFile` before start, and checks that the
 * manifest declares what the Katalog's `apiTypes` say.
 */
import { readFile } from 'node:fs/promises';
import { parseAllDocuments } from 'yaml';
import { CRD_RESOURCE } from '../controller/crd-watcher.js';
import type { Definition } from '../definition/types.js';
import { RuntimeError, toError } from '../errors.js';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import { withConversionWebhook, type ConversionWebhookOptions } from './crd-conversion.js';

/**
 * Applies the crdFiles in dependency order. With `conversionWebhook`, a CRD whose entry declares `conversion` gets
 * `spec.conversion` pointing at the conversion router; without it such a CRD is installed as written (and a
 * warning says its versions are converted by rewriting apiVersion only).
 */
export async function installCrdFiles(client: KubeClient, definition: Definition, logger: Logger, conversionWebhook?: ConversionWebhookOptions): Promise<void> {
  for (const name of definition.order) {
    const crd = definition.crds.get(name);
    if (crd?.crdFile === undefined) continue;
    let manifests: KubeObject[];
    try {
      const text = await readFile(crd.crdFile, 'utf8');
      manifests = parseAllDocuments(text)
        .map((document) => document.toJS() as KubeObject | null)
        .filter((document): document is KubeObject => document !== null && document.kind === 'CustomResourceDefinition');
    } catch (error) {
      throw new RuntimeError('E_INSTALL', `CRD ${name}: cannot read crdFile ${crd.crdFile}: ${toError(error).message}`, { cause: error });
    }
    // One file may hold several CRDs; this entry installs the one its apiTypes name, and checks it matches.
    const { apiTypes } = crd;
    const wanted = `${apiTypes.plural}.${apiTypes.group}`;
    const manifest = manifests.find((candidate) => candidate.metadata?.name === wanted);
    if (manifest === undefined) {
      const found = manifests.map((candidate) => candidate.metadata?.name ?? '?').join(', ') || 'none';
      throw new RuntimeError('E_INSTALL', `CRD ${name}: crdFile ${crd.crdFile} holds no CustomResourceDefinition named ${wanted} (found: ${found})`);
    }
    const spec = (manifest['spec'] ?? {}) as { group?: string; names?: { kind?: string; plural?: string } };
    if (spec.group !== apiTypes.group || spec.names?.kind !== apiTypes.kind || spec.names.plural !== apiTypes.plural) {
      throw new RuntimeError(
        'E_INSTALL',
        `CRD ${name}: crdFile ${crd.crdFile} declares ${spec.names?.plural ?? '?'}.${spec.group ?? '?'} (kind ${spec.names?.kind ?? '?'}) but apiTypes say ${apiTypes.plural}.${apiTypes.group} (kind ${apiTypes.kind})`,
      );
    }
    if (crd.conversion !== undefined && crd.conversion.paths.length > 0 && conversionWebhook === undefined) {
      // Not a failure: the CRD still installs and serves; the host may run the webhook elsewhere or patch it later.
      logger.warn('CRD declares conversion paths but the runtime has no conversionWebhook option; installed as written', { crd: name });
    }
    await client.apply(CRD_RESOURCE, withConversionWebhook(manifest, crd, conversionWebhook), { fieldManager: 'katalog', force: true });
    logger.info('installed CRD', { crd: name, file: crd.crdFile });
  }
}
