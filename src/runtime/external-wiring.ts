/**
 * Wires a CRD's external calls (docs/orkestra-compatibility.md#external-calls) into its activation: the
 * box-level calls as an {@link ExternalStage} around the generic box, whose results the templates and status
 * fields read; the gates' calls into the GatedBox. Credentials come from Secrets through the runtime's client.
 * The cross entries read over HTTP (`cross[].source`, same client and limits) run as a {@link CrossSourceStage}
 * before the calls; their answers join `.cross`, and a failed read is logged as a warning and counted. A
 * constructor-owned CRD's `constructor.external` calls run in its ConstructorBox (constructor-calls.ts).
 */
import type { CrdDefinition, CrossEntry } from '../definition/types.js';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject, ResourceRef } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import { ExternalCalls, type SecretReader } from '../operatorbox/external-calls.js';
import { ExternalStage } from '../operatorbox/external-box.js';
import { ConstructorCalls } from '../operatorbox/constructor-calls.js';
import { GateCalls } from '../operatorbox/gate-calls.js';
import type { TemplateData } from '../template/index.js';
import type { Metrics } from '../observe/metrics.js';
import type { OperatorBoxStage } from '../operatorbox/stage.js';
import { CrossSourceReads, sourceEntries } from '../operatorbox/cross-source.js';
import { CrossSourceStage, withRemoteCross } from '../operatorbox/cross-source-box.js';
import { RemoteFigures } from './remote-figures.js';
import type { Clock } from '../util/clock.js';
import type { ProtocolLookup } from '../operatorbox/external-protocols.js';

const SECRETS: ResourceRef = { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true };

export interface ExternalWiring {
  /** What runs before the generic box: the cross reads over HTTP, then the external calls. */
  readonly stage: { wrap(inner: OperatorBoxStage): OperatorBoxStage } | undefined;
  readonly gateCalls: GateCalls | undefined;
  /** A constructor-owned CRD's `constructor.external` calls; undefined: none. */
  readonly constructorCalls: ConstructorCalls | undefined;
  /** The template data extra of the templates phase: `.cross` (when given) and `.external`. */
  extra(cross: ((object: KubeObject, data: TemplateData) => Readonly<Record<string, unknown>>) | undefined): ((object: KubeObject, data: TemplateData) => Readonly<Record<string, unknown>>) | undefined;
  /** Another process's figures for the autoscale rule (`cross.<crd>.metrics.*` through a cross source); undefined: none. */
  readonly remoteFigures: RemoteFigures | undefined;
  /** `data` with `.external` of `object`'s last cycle, and its `.cross` answers read over HTTP (status fields). */
  withResults(data: TemplateData, object: KubeObject): TemplateData;
}

/** A Secret key as text, read from the API server each time (a rotation is used at the next call). */
export function secretReader(client: KubeClient): SecretReader {
  return async (name, namespace, key, signal) => {
    const secret = await client.get(SECRETS, name, namespace, signal);
    const value = (secret?.['data'] as Record<string, unknown> | undefined)?.[key];
    return typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : undefined;
  };
}

export function externalWiring(crd: CrdDefinition, client: KubeClient, clock: Clock, logger: Logger, metrics?: Metrics, protocols?: ProtocolLookup): ExternalWiring {
  const box = crd.operatorBox;
  const now = (): number => clock.now();
  // A call's own retryBackoff: counted per CRD (the call is not a label: names come from the document, unbounded).
  const onRetry = (): void => metrics?.externalCallRetried(crd.name);
  const readSecret = secretReader(client);
  const dialect = crd.templateDialect;
  // Orkestra's rule: a failed read is an empty value and the cycle goes on; said in the log and counted.
  const onFailure = (entry: CrossEntry, reason: string): void => {
    metrics?.crossSourceFailed(crd.name);
    logger.warn('cross read over HTTP failed (the templates see found: "false", the autoscaler no figures)', { crd: crd.name, cross: entry.as, reason });
  };
  const figures = new RemoteFigures({ crd, readSecret, now, onFailure });
  const remote = sourceEntries(box.cross).length === 0 || !box.default ? undefined : new CrossSourceStage(
    new CrossSourceReads({
      crd: crd.name,
      entries: box.cross ?? [],
      dialect,
      notes: crd.notes,
      readSecret,
      now,
      onFailure,
    }),
    dialect,
  );
  const calls =
    box.external === undefined || box.external.length === 0 || !box.default
      ? undefined
      : new ExternalStage({
          crd: crd.name,
          calls: new ExternalCalls({ name: `spec.crds.${crd.name}.operatorBox.external`, calls: box.external, dialect, notes: crd.notes, readSecret, now, clock, onRetry, protocols }),
          dialect,
          logger,
        });
  const ctorCalls = box.constructor?.external;
  const constructorCalls =
    ctorCalls === undefined || ctorCalls.length === 0 || box.default
      ? undefined
      : new ConstructorCalls({
          crd: crd.name,
          calls: new ExternalCalls({ name: `spec.crds.${crd.name}.operatorBox.constructor.external`, calls: ctorCalls, dialect, notes: crd.notes, readSecret, now, clock, onRetry, protocols }),
          dialect,
          logger,
        });
  const pre = box.preReconcile;
  const gateCalls = pre === undefined || !GateCalls.needed(pre) ? undefined : new GateCalls({ crd: crd.name, preReconcile: pre, dialect, notes: crd.notes, logger, readSecret, now, clock, onRetry, protocols });
  const stage =
    calls === undefined && remote === undefined
      ? undefined
      : {
          wrap: (inner: OperatorBoxStage): OperatorBoxStage => {
            const called = calls?.wrap(inner) ?? inner;
            return remote?.wrap(called) ?? called;
          },
        };
  const withRemote = <T extends Readonly<Record<string, unknown>>>(data: T, object: KubeObject): T => (remote === undefined ? data : withRemoteCross(data, remote.data(object)));
  return {
    stage,
    gateCalls,
    constructorCalls,
    remoteFigures: figures.size === 0 ? undefined : figures,
    extra: (cross) => {
      if (calls === undefined && remote === undefined) return cross;
      return (object, data) => withRemote({ ...(cross?.(object, data) ?? {}), ...(calls?.data(object) ?? {}) }, object);
    },
    withResults: (data, object) => withRemote(calls === undefined ? data : { ...data, ...calls.data(object) }, object),
  };
}
