/**
 * Building what an active CRD runs: the resource at its internal version, the compiled templates and status
 * fields, the child watches, the box, the pipeline stages and the controller. Called once per activation; a
 * deactivated CRD's pieces are dropped whole. Everything that can be compiled is compiled here, never per reconcile.
 */
import type { TSchema } from 'typebox';
import type { KubeConfig } from '@kubernetes/client-node';
import { Controller as ControllerClass, type ControllerObserver, type ControllerOptions } from '../controller/controller.js';
import type { ReconcileSlots } from '../controller/reconcile-slots.js';
import { statusEchoOf } from '../controller/status-echo.js';
import type { InstalledCrd } from '../controller/crd-watcher.js';
import type { CrdDefinition } from '../definition/types.js';
import { RuntimeError } from '../errors.js';
import type { KubeClient } from '../kube/client.js';
import type { Informer } from '../kube/informer.js';
import { apiVersionOf, type KubeObject, type ResourceRef } from '../kube/resource.js';
import type { TemplateData } from '../template/index.js';
import type { Logger } from '../observe/logger.js';
import type { Metrics } from '../observe/metrics.js';
import { ConstructorBox } from '../operatorbox/constructor-box.js';
import type { ContextDeps } from '../operatorbox/context.js';
import type { ConverterRegistry } from '../operatorbox/converters.js';
import { GenericBox } from '../operatorbox/generic-box.js';
import { queueWiring } from './queue-wiring.js';
import { WatchTriggers } from '../operatorbox/watch-triggers.js';
import { resolveEntryKinds } from '../operatorbox/entry-kinds.js';
import { CrossReads, forgetOnNotFound, informerEntries } from '../operatorbox/cross-reads.js';
import { layerBox, type BoxLayerInput } from './box-layers.js';
import { externalWiring } from './external-wiring.js';
import { autoscaled, autoscalerOf, type CrdAutoscale, type FiguresBoard } from './autoscale-wiring.js';
import { withStatusRoots } from './status-roots.js';
import { allWatches } from './all-watches.js';
import { eventTriggersOf, type SharedInformersInput } from './event-wiring.js';
import type { OperatorBoxStage } from '../operatorbox/stage.js';
import { RenderScheduler } from '../operatorbox/render-scheduler.js';
import { bothFilters, namespaceGuardFilter } from './namespace-guard.js';
import { needsChildEchoes } from './child-echoes.js';
import { compileStatusFields } from '../operatorbox/status-fields.js';
import { convertChain } from './convert-chain.js';
import { enricherOf } from '../operatorbox/enrich.js';
import { observedChildren, templateData } from '../operatorbox/template-data.js';
import { compileTemplateSet, type TemplateSet } from '../operatorbox/template-set.js';
import { codeArgs } from '../operatorbox/code-args.js';
import { TemplatesPhase } from '../operatorbox/templates.js';
import type { CacheReader, CrdInfo } from '../operatorbox/types.js';
import { reconcileKey, type PipelineStages, type RegistryStage } from '../reconcile/pipeline.js';
import { OwnWrites } from '../reconcile/own-writes.js';
import { desiredStatus, writeStatus } from '../reconcile/status.js';
import { ChildApplier } from '../registry/child-applier.js';
import type { ChildInformers } from '../registry/child-informers.js';
import { ChildWatches } from '../registry/child-watches.js';
import { KindTable } from '../registry/kind-table.js';
import { ownerOf, parentKeyOf } from '../registry/ownership.js';
import { ResourceResolver } from '../registry/resource-resolver.js';
import type { ResolvedOptions } from '../options.js';
import type { ResolvedCode } from './code-registry.js';
import type { ResolvedSettings } from './settings.js';
import { shardFilter } from './sharding.js';
import { targetOf, type Target } from './crd-target.js';
import type { CrdHealthSnapshot } from '../observe/health.js';
import { readsManagedFieldsChanged } from '../operatorbox/managed-fields-sentinel.js';

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

/** The generic box carries out children in its templates step (operatorbox/templates.ts); nothing is left here. */
const NO_CHILDREN: RegistryStage = { apply: async () => undefined };

export interface ActivationInput extends SharedInformersInput {
  readonly crd: CrdDefinition;
  readonly installed: InstalledCrd | undefined;
  readonly settings: ResolvedSettings;
  readonly code: ResolvedCode;
  readonly client: KubeClient;
  readonly kubeConfig: KubeConfig;
  readonly options: ResolvedOptions;
  readonly logger: Logger;
  readonly observer: ControllerObserver;
  /** Drift corrections are counted here. */
  readonly metrics: Metrics;
  /** The runtime's template kinds (`registerKind`); default: the built-in kinds only. */
  readonly kinds?: KindTable | undefined;
  /** The runtime's in-process converters (`registerConverter`); default: none. */
  readonly converters?: ConverterRegistry | undefined;
  /** The schema registered for this CRD (`registerSchema`: typed mode); objects are validated after conversion. */
  readonly schema?: TSchema | undefined;
  /** The runtime's render scheduler, shared by every CRD; default: one of this CRD's own (no fairness between CRDs). */
  readonly renders?: RenderScheduler | undefined;
  /** The runtime's limit of reconciles in flight, shared by every CRD; default: none. */
  readonly slots?: ReconcileSlots | undefined;
  /** The runtime's load figures of its running CRDs (autoscale rules read another CRD's); default: none shared. */
  readonly figures?: FiguresBoard | undefined;
  /** The runtime's informers on children, one per child kind for every CRD (child-informers.ts); default: this CRD's own. */
  readonly childInformers?: ChildInformers | undefined;
  readonly health?: (() => CrdHealthSnapshot) | undefined; // the CRD's own health, for `.health` (status-roots.ts)
  readonly notifier?: BoxLayerInput['notifier']; // the runtime's notifier (docs/notifications.md)
}

export interface Activated {
  readonly controller: ControllerClass;
  readonly target: Target;
}

/**
 * A CRD's controller that also owns the watches on its children: they are listed with the primary informer and
 * before the workers start (so the first reconciles see the children) and stopped with the informers.
 */
class ParentController extends ControllerClass {
  /** The CRD's load figures and autoscaler (`operatorBox.autoscale`): evaluates while the controller runs, restores on stop. */
  autoscaler: CrdAutoscale | undefined;

  constructor(
    options: ControllerOptions,
    private readonly children: Pick<ChildWatches, 'start' | 'stop' | 'synced'>,
  ) {
    super(options);
  }

  /**
   * Lists the children and the custom resources at the same time (one round trip of activation instead of two in
   * a row, which is most of `start()` with many CRDs); the workers start only once both caches are filled. When
   * either first list fails, both are stopped and the failure is thrown (the children's first).
   */
  override async start(options: { readonly workers?: boolean } = {}): Promise<void> {
    const [children, primary] = await Promise.allSettled([this.children.start(), super.start({ workers: false })]);
    const failed = [children, primary].find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed !== undefined) {
      if (primary.status === 'fulfilled') await super.stopInformers();
      if (children.status === 'fulfilled') await this.children.stop();
      throw failed.reason;
    }
    if (options.workers !== false) this.startWorkers();
    this.autoscaler?.start();
  }

  override async drain(drainSignal: AbortSignal): Promise<void> {
    this.autoscaler?.stop();
    await super.drain(drainSignal);
  }

  override async stopInformers(): Promise<void> {
    this.autoscaler?.stop();
    await super.stopInformers();
    await this.children.stop();
  }

  override get synced(): boolean {
    return super.synced && this.children.synced;
  }
}

/** Resolves the child kinds known before any rendering; a kind the API server does not serve yet is left unwatched. */
async function childResources(set: TemplateSet | undefined, resolver: ResourceResolver, logger: Logger): Promise<ResourceRef[]> {
  const out: ResourceRef[] = [];
  for (const { apiVersion, kind } of set?.staticKinds ?? []) {
    try {
      out.push(await resolver.resolve(apiVersion, kind));
    } catch (error) {
      logger.warn('child kind not served: its children are not watched (drift is corrected at resync)', { apiVersion, kind, error });
    }
  }
  return out;
}

/** Builds the controller of an active CRD (not started). Throws when the CRD's templates or code cannot be used. */
export async function buildController(input: ActivationInput): Promise<Activated> {
  const { crd, settings, code, client, options, logger, metrics } = input;
  const target = targetOf(crd, input.installed);
  const info: CrdInfo = { name: crd.name, resource: target.resource, declaredVersion: crd.apiTypes.version };
  const kinds = input.kinds ?? new KindTable();
  const generic = crd.operatorBox.default;
  const now = (): number => options.clock.now();
  const set = generic ? compileTemplateSet(crd, kinds, options.templateLimits, now) : undefined;
  const statusFields = compileStatusFields(crd.name, crd.operatorBox.status.fields, crd.templateDialect, crd.notes, now);
  const convert = convertChain(crd, { crd: crd.name, version: target.resource.version, apiVersion: apiVersionOf(target.resource) }, input.converters, input.schema, now);
  const enricher = enricherOf(crd, client, logger, now);
  const resolver = new ResourceResolver(client);
  let box: OperatorBoxStage | undefined;
  let controller: ControllerClass | undefined;
  let applier: ChildApplier | undefined;
  const ownWrites = new OwnWrites();
  const echoes = needsChildEchoes(crd, code);
  const children = new ChildWatches({
    client,
    clock: options.clock,
    crd: crd.name,
    resources: await childResources(set, resolver, logger),
    tuning: options.watch,
    informers: input.childInformers,
    onChange: (child) => {
      // The echo of the runtime's own write carries nothing its reconcile did not know (child-echoes.ts); the prune
      // sees children written whose event is still on its way (registry/write-memos.ts), so no reconcile waits on it.
      if (applier?.observed(child) === true && !echoes) return;
      const key = parentKeyOf(child, crd.name, target.resource.namespaced);
      // Only parents that exist: the children of a deleted parent must not call onNotFound once each.
      if (key !== undefined && controller?.informer.get(key) !== undefined) controller.enqueue(key);
    },
    onRestart: (reason) => input.observer.watchRestarted(reason),
    onError: (error) => input.observer.informerError(error),
  });
  // operatorBox.watch: informers on kinds the custom resources do not own, started and stopped with the children's.
  const watched = await resolveEntryKinds(crd.name, crd.operatorBox.watch ?? [], 'watches', resolver);
  const triggers =
    watched.length === 0
      ? undefined
      : new WatchTriggers({
          client,
          clock: options.clock,
          entries: watched,
          owner: target.resource,
          primary: { keys: () => controller?.informer.keys() ?? [], has: (key) => controller?.informer.get(key) !== undefined },
          enqueue: (key) => controller?.enqueue(key),
          tuning: options.watch,
          onRestart: (reason) => input.observer.watchRestarted(reason),
          onError: (error) => input.observer.informerError(error),
          gates: { dialect: crd.templateDialect, notes: crd.notes, logger, now },
        });
  // operatorBox.cross: informers on other CRDs' kinds, read into .cross; started and stopped with the children's.
  const crossed = await resolveEntryKinds(crd.name, informerEntries(crd.operatorBox.cross), 'reads', resolver);
  const cross =
    crossed.length === 0
      ? undefined
      : new CrossReads({
          client,
          clock: options.clock,
          crd: crd.name,
          entries: crossed,
          dialect: crd.templateDialect,
          notes: crd.notes,
          primary: { has: (key) => controller?.informer.get(key) !== undefined },
          enqueue: (key) => controller?.enqueue(key),
          tuning: options.watch,
          onRestart: (reason) => input.observer.watchRestarted(reason),
          onError: (error) => input.observer.informerError(error),
        });
  // Status fields see .cross (and .metrics, .health) too. When the cycle already failed (a selector that does not render),
  // the failed status is written without .cross: the same error must not also block the Ready=False that reports it.
  const external = externalWiring(crd, client, options.clock, logger, metrics, options.externalProtocols);
  const figuresFor = withStatusRoots(crd, () => created.autoscaler, input.health);
  const withCross = (given: TemplateData, object: KubeObject, failed: boolean): TemplateData => {
    const data = external.withResults(figuresFor(given), object);
    if (cross === undefined) return data;
    try {
      return external.withResults({ ...data, ...cross.data(object, data) }, object);
    } catch (error) {
      if (failed) return data;
      throw error;
    }
  };
  const created: ParentController = new ParentController(
    {
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
      accepts: bothFilters(shardFilter(options.shard), namespaceGuardFilter(crd.namespaceGuard)),
      informer: { ...options.watch, managedFieldsFingerprint: readsManagedFieldsChanged(crd.operatorBox.preReconcile) },
      reconcile: (key, signal) => {
        if (box === undefined) return Promise.resolve({ result: 'error', error: new RuntimeError('E_STATE', 'controller not ready') });
        return reconcileKey(stages, key, signal);
      },
      ...queueWiring(input, (key) => controller?.informer.get(key), (observer) => autoscaled(observer, () => created.autoscaler)),
      slots: input.slots,
      statusEcho: statusEchoOf(crd),
      cacheChanged: (event) => ownWrites.cached(event.key, event.type === 'deleted' ? undefined : event.object),
    },
    allWatches(children, [triggers, cross, eventTriggersOf(crd, input, target.resource, () => controller)]),
  );
  controller = created;
  created.autoscaler = autoscalerOf(crd, created, options.clock, metrics, logger, input.figures, external.remoteFigures);
  const cache = cacheReaderOf(created.informer);
  const deps: ContextDeps = { crd: info, client, kubeConfig: input.kubeConfig, cache, logger, now: () => options.clock.now(), args: codeArgs(crd, options.templateLimits, now) };
  if (!generic) {
    const ctor = code.constructor;
    if (ctor === undefined) throw new RuntimeError('E_REGISTRATION', `CRD ${crd.name}: no constructor registered`);
    const reconciler = await ctor.value({ crd: info, client, kubeConfig: input.kubeConfig, cache, logger, args: structuredClone(deps.args?.written ?? {}) });
    if (typeof reconciler?.reconcile !== 'function') {
      throw new RuntimeError('E_REGISTRATION', `CRD ${crd.name}: constructor ${ctor.name} did not return an object with a reconcile() method`);
    }
    box = new ConstructorBox(deps, reconciler, ctor.name, external.constructorCalls);
  } else {
    applier = new ChildApplier({
      client,
      lookup: children,
      clock: options.clock,
      fieldManager: options.fieldManager,
      force: options.forceApply,
      onDrift: (child, field) => {
        metrics.driftCorrected(crd.name);
        const meta = child.manifest.metadata ?? {};
        logger.info('drift corrected', { kind: child.resource.kind, namespace: meta.namespace, name: meta.name, field });
      },
    });
    const templates =
      set === undefined || set.empty
        ? undefined
        : new TemplatesPhase({
            crd: crd.name,
            set,
            kinds,
            resolver,
            applier,
            lookup: children,
            logger,
            renders: input.renders ?? new RenderScheduler(),
            read: (ref, name, namespace, signal) => client.get(ref, name, namespace, signal),
            now: () => options.clock.now(),
            labelObject: (object, labels, signal) => client.patch(info.resource, object.metadata?.name ?? '', object.metadata?.namespace, { metadata: { labels } }, { type: 'merge', signal }),
            extra: external.extra(cross === undefined ? undefined : (object, data) => cross.data(object, data)),
          });
    box = new GenericBox({
      deps,
      hooks: code.hooks?.value,
      hooksName: code.hooks?.name,
      runHooksFirst: crd.operatorBox.hooks?.runHooksFirst ?? false,
      finalizers: crd.finalizers,
      templates,
    });
    if (external.stage !== undefined) box = external.stage.wrap(box);
  }
  if (cross !== undefined) box = forgetOnNotFound(box, cross);
  const layered = layerBox(box, {
    crd,
    generic,
    client,
    logger,
    now: () => options.clock.now(),
    data: (object, failed) => withCross(templateData(object, observedChildren(children, kinds, ownerOf(crd.name, object)), {}, crd.templateDialect), object, failed),
    gateCalls: external.gateCalls, notifier: input.notifier, peers: () => controller?.informer.values() ?? [], // peers: operator: unique
    protocols: options.externalProtocols,
  });
  box = layered.box;
  const validation = layered.validation;
  const conditions = crd.operatorBox.status.conditions;
  const writesStatus = target.hasStatus && crd.operatorBox.status.write !== false && (conditions || statusFields.count > 0);
  const observedGeneration = crd.operatorBox.status.observedGeneration !== false;
  const warn = (message: string, fields: Readonly<Record<string, unknown>>): void => logger.warn(message, fields);
  const stages: PipelineStages = {
    fetch: (key) => created.informer.get(key),
    convert,
    box,
    registry: NO_CHILDREN,
    status: writesStatus
      ? {
          write: async (object, outcome, signal) => {
            const now = new Date(options.clock.now()).toISOString();
            const observed = statusFields.count === 0 ? {} : observedChildren(children, kinds, ownerOf(crd.name, object));
            // Orkestra's enrich: fetched for status fields only, after the box applied the children (a failure fails the write).
            const view = enricher === undefined || statusFields.count === 0 ? observed : await enricher.run(object, observed, signal);
            const answer = await writeStatus(
              client,
              target.resource,
              object,
              (fresh) => {
                const fields =
                  statusFields.count === 0
                    ? {}
                    : statusFields.evaluate(withCross(templateData(object, view), object, !outcome.ok), outcome, warn);
                const extraConditions = validation?.conditions(object, now);
                return desiredStatus(fresh, outcome, now, fields, { conditions, observedGeneration, generation: object.metadata?.generation, extraConditions });
              },
              signal,
            );
            return typeof answer === 'string' ? undefined : answer;
          },
        }
      : undefined,
    ownWrites,
    onStatusError: (error) => logger.warn('could not write the failed status (the reconcile is retried with backoff)', { error }),
  };
  return { controller: created, target };
}
