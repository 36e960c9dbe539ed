/**
 * Wires a CRD's external calls (docs/orkestra-compatibility.md#external-calls) into its activation: the
 * box-level calls as an {@link ExternalStage} around the generic box, whose results the templates and status
 * fields read; the gates' calls into the GatedBox. Credentials come from Secrets through the runtime's client.
 */
import type { CrdDefinition } from '../definition/types.js';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject, ResourceRef } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import { ExternalCalls, type SecretReader } from '../operatorbox/external-calls.js';
import { ExternalStage } from '../operatorbox/external-box.js';
import { GateCalls } from '../operatorbox/gate-calls.js';
import type { TemplateData } from '../template/index.js';

const SECRETS: ResourceRef = { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true };

export interface ExternalWiring {
  readonly stage: ExternalStage | undefined;
  readonly gateCalls: GateCalls | undefined;
  /** The template data extra of the templates phase: `.cross` (when given) and `.external`. */
  extra(cross: ((object: KubeObject, data: TemplateData) => Readonly<Record<string, unknown>>) | undefined): ((object: KubeObject, data: TemplateData) => Readonly<Record<string, unknown>>) | undefined;
  /** `data` with `.external` of `object`'s last cycle (status fields). */
  withResults(data: TemplateData, object: KubeObject): TemplateData;
}

/** A Secret key as text, read from the API server each time (a rotation is used at the next call). */
function secretReader(client: KubeClient): SecretReader {
  return async (name, namespace, key, signal) => {
    const secret = await client.get(SECRETS, name, namespace, signal);
    const value = (secret?.['data'] as Record<string, unknown> | undefined)?.[key];
    return typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : undefined;
  };
}

export function externalWiring(crd: CrdDefinition, client: KubeClient, now: () => number, logger: Logger): ExternalWiring {
  const box = crd.operatorBox;
  const readSecret = secretReader(client);
  const dialect = crd.templateDialect;
  const stage =
    box.external === undefined || box.external.length === 0 || !box.default
      ? undefined
      : new ExternalStage({
          crd: crd.name,
          calls: new ExternalCalls({ name: `spec.crds.${crd.name}.operatorBox.external`, calls: box.external, dialect, notes: crd.notes, readSecret, now }),
          dialect,
          logger,
        });
  const pre = box.preReconcile;
  const gateCalls = pre === undefined || !GateCalls.needed(pre) ? undefined : new GateCalls({ crd: crd.name, preReconcile: pre, dialect, notes: crd.notes, logger, readSecret, now });
  return {
    stage,
    gateCalls,
    extra: (cross) => {
      if (stage === undefined) return cross;
      if (cross === undefined) return (object) => stage.data(object);
      return (object, data) => ({ ...cross(object, data), ...stage.data(object) });
    },
    withResults: (data, object) => (stage === undefined ? data : { ...data, ...stage.data(object) }),
  };
}
