/**
 * Building what an active CRD runs: the resource at its internal version, the box, the pipeline stages and the
 * controller. Called once per activation; a deactivated CRD's pieces are dropped whole.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Controller, ControllerObserver } from '../controller/controller.js';
import { Controller as ControllerClass } from '../controller/controller.js';
import type { InstalledCrd } from '../controller/crd-watcher.js';
import type { CrdDefinition } from '../definition/types.js';
import { RuntimeError } from '../errors.js';
import type { KubeClient } from '../kube/client.js';
import type { Informer } from '../kube/informer.js';
import type { KubeObject, ResourceRef } from '../kube/resource.js';
import { resolveInternalVersion } from '../kube/versions.js';
import type { Logger } from '../observe/logger.js';
import { ConstructorBox } from '../operatorbox/constructor-box.js';
import type { ContextDeps } from '../operatorbox/context.js';
import { GenericBox } from '../operatorbox/generic-box.js';
import type { OperatorBoxStage } from '../operatorbox/stage.js';
import type { CacheReader, CrdInfo } from '../operatorbox/types.js';
import { reconcileKey, type PipelineStages, type RegistryStage } from '../reconcile/pipeline.js';
import { desiredStatus, writeStatus } from '../reconcile/status.js';
import type { ResolvedOptions } from '../options.js';
import type { ResolvedCode } from './code-registry.js';
import type { ResolvedSettings } from './settings.js';

/** The resource a CRD is read at, and whether that version has a status subresource. */
export interface Target {
  readonly resource: ResourceRef;
  readonly hasStatus: boolean;
}

/** Resolves the internal version (SPEC §3.3) from the installed CRD; built-in kinds use their declared version. */
export function targetOf(crd: CrdDefinition, installed: InstalledCrd | undefined): Target {
  const { apiTypes } = crd;
  if (installed === undefined) {
    return {
      resource: { group: apiTypes.group, version: apiTypes.version, kind: apiTypes.kind, plural: apiTypes.plural, namespaced: apiTypes.scope === 'Namespaced' },
      hasStatus: false,
    };
  }
  const version = resolveInternalVersion(installed.versions.map((v) => ({ name: v.name, served: v.served, storage: v.storage })));
  if (version === undefined) throw new RuntimeError('E_ACTIVATION', `CRD ${installed.name} serves no version`);
  const served = installed.versions.find((v) => v.name === version);
  return {
    resource: { group: installed.group, version, kind: installed.kind, plural: installed.plural, namespaced: installed.scope === 'Namespaced' },
    hasStatus: served?.hasStatus === true,
  };
}

/** Read access to an informer's cache that hands out copies. */
export function cacheReaderOf(informer: Informer): CacheReader {
  return {
    get: (key) => {
      const object = informer.get(key);
      return object === undefined ? undefined : structuredClone(object);
    },
    list: (namespace) => {
      const out: KubeObject[] = [];
      for (const object of informer.values()) {
        if (namespace === undefined || object.metadata?.namespace === namespace) out.push(structuredClone(object));
      }
      return out;
    },
    get size() {
      return informer.size;
    },
  };
}

const NO_CHILDREN: RegistryStage = { apply: async () => undefined };

export interface ActivationInput {
  readonly crd: CrdDefinition;
  readonly installed: InstalledCrd | undefined;
  readonly settings: ResolvedSettings;
  readonly code: ResolvedCode;
  readonly client: KubeClient;
  readonly kubeConfig: KubeConfig;
  readonly options: ResolvedOptions;
  readonly logger: Logger;
  readonly observer: ControllerObserver;
}

export interface Activated {
  readonly controller: Controller;
  readonly target: Target;
}

/** Builds the controller of an active CRD (not started). */
export async function buildController(input: ActivationInput): Promise<Activated> {
  const { crd, settings, code, client, options, logger } = input;
  const target = targetOf(crd, input.installed);
  const info: CrdInfo = { name: crd.name, resource: target.resource, declaredVersion: crd.apiTypes.version };
  let box: OperatorBoxStage | undefined;
  const controller: Controller = new ControllerClass({
    name: crd.name,
    client,
    clock: options.clock,
    resource: target.resource,
    namespace: crd.namespace,
    labelSelector: crd.labelSelector,
    fieldSelector: crd.fieldSelector,
    workers: settings.workers.value,
    resyncMs: settings.resync.value,
    maxDepth: settings.maxDepth.value,
    reconcileTimeoutMs: options.reconcileTimeoutMs,
    rateLimiter: { clock: options.clock, ...options.rateLimiter },
    informer: options.watch,
    reconcile: (key, signal) => {
      if (box === undefined) return Promise.resolve({ result: 'error', error: new RuntimeError('E_STATE', 'controller not ready') });
      return reconcileKey(stages, key, signal);
    },
    observer: input.observer,
  });
  const cache = cacheReaderOf(controller.informer);
  const deps: ContextDeps = { crd: info, client, kubeConfig: input.kubeConfig, cache, logger, now: () => options.clock.now() };
  if (!crd.operatorBox.default) {
    const ctor = code.constructor;
    if (ctor === undefined) throw new RuntimeError('E_REGISTRATION', `CRD ${crd.name}: no constructor registered`);
    const reconciler = await ctor.value({ crd: info, client, kubeConfig: input.kubeConfig, cache, logger });
    if (typeof reconciler?.reconcile !== 'function') {
      throw new RuntimeError('E_REGISTRATION', `CRD ${crd.name}: constructor ${ctor.name} did not return an object with a reconcile() method`);
    }
    box = new ConstructorBox(deps, reconciler, ctor.name);
  } else {
    box = new GenericBox({
      deps,
      hooks: code.hooks?.value,
      hooksName: code.hooks?.name,
      runHooksFirst: crd.operatorBox.hooks?.runHooksFirst ?? false,
      finalizers: crd.finalizers,
    });
  }
  const writesStatus = target.hasStatus && crd.operatorBox.status.conditions;
  const stages: PipelineStages = {
    fetch: (key) => controller.informer.get(key),
    convert: (object) => object,
    box,
    registry: NO_CHILDREN,
    status: writesStatus
      ? {
          write: async (object, outcome, signal) => {
            const now = new Date(options.clock.now()).toISOString();
            await writeStatus(client, target.resource, object, (fresh) => desiredStatus(fresh, outcome, now), signal);
          },
        }
      : undefined,
    onStatusError: (error) => logger.warn('could not write status', { error }),
  };
  return { controller, target };
}
