/**
 * Wires a CRD's autoscaler (`operatorBox.autoscale`) to its controller: built from the rule, told about each
 * finished reconcile through the controller's observer, reporting its overrides to metrics and the log.
 */
import { Autoscaler, type AutoscaleTarget } from '../controller/autoscaler.js';
import type { ControllerObserver } from '../controller/controller.js';
import type { CrdDefinition } from '../definition/types.js';
import type { Logger } from '../observe/logger.js';
import type { Metrics } from '../observe/metrics.js';
import type { Clock } from '../util/clock.js';

/** The CRD's autoscaler, or undefined when it declares none. */
export function autoscalerOf(crd: CrdDefinition, created: AutoscaleTarget, clock: Clock, metrics: Metrics, logger: Logger): Autoscaler | undefined {
  const rule = crd.operatorBox.autoscale;
  if (rule === undefined) return undefined;
  return new Autoscaler({
    crd: crd.name,
    rule,
    clock,
    target: created,
    dialect: crd.templateDialect,
    notes: crd.notes,
    onChange: (active, tuning) => {
      metrics.workersMax(crd.name, tuning.workers);
      logger.info(active ? 'autoscale: override applied' : 'autoscale: declared settings restored', { crd: crd.name, workers: tuning.workers, maxDepth: tuning.maxDepth, resyncMs: tuning.resyncMs });
    },
    onWarning: (warning) => logger.warn('autoscale condition', { crd: crd.name, warning }),
  });
}

/** The controller's observer, also telling the autoscaler (once there is one) about each finished reconcile. */
export function autoscaled(observer: ControllerObserver, autoscaler: () => Autoscaler | undefined): ControllerObserver {
  return {
    reconciled: (key, outcome, ms) => {
      autoscaler()?.reconciled(outcome.result !== 'error', ms);
      observer.reconciled(key, outcome, ms);
    },
    workersActive: (active) => observer.workersActive(active),
    queueDepth: (depth) => observer.queueDepth(depth),
    dropped: (key) => observer.dropped(key),
    waited: (seconds) => observer.waited(seconds),
    resourceCount: (count) => observer.resourceCount(count),
    watchRestarted: (reason) => observer.watchRestarted(reason),
    informerError: (error) => observer.informerError(error),
  };
}
