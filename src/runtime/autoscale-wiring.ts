/**
 * Wires a CRD's load figures and autoscaler (`operatorBox.autoscale`) to its controller: the figures record each
 * finished reconcile through the controller's observer and, while the controller runs, are on the runtime's
 * {@link FiguresBoard}, where another CRD's rule reads them (`cross.<crd>.metrics.*`, Orkestra's process-wide
 * registry of autoscale metrics); another process's figures come over HTTP ({@link RemoteFigures}, read before each
 * evaluation); the autoscaler, built from the rule, reports its overrides to metrics and the log.
 */
import { Autoscaler, type AutoscaleTarget } from '../controller/autoscaler.js';
import type { ControllerObserver } from '../controller/controller.js';
import { LoadFigures } from '../controller/load-figures.js';
import type { CrdDefinition } from '../definition/types.js';
import type { Logger } from '../observe/logger.js';
import type { Metrics } from '../observe/metrics.js';
import type { Clock } from '../util/clock.js';
import type { RemoteFigures } from './remote-figures.js';

/** The load figures of the running CRDs of one runtime, by CRD name. */
export class FiguresBoard {
  private readonly board = new Map<string, LoadFigures>();

  /** The figures of a running CRD, now; undefined when it is not running. */
  read(crd: string): Readonly<Record<string, number>> | undefined {
    return this.board.get(crd)?.read();
  }

  put(crd: string, figures: LoadFigures): void {
    this.board.set(crd, figures);
  }

  /** Takes the CRD off, unless a later activation has already put its own figures there. */
  remove(crd: string, figures: LoadFigures): void {
    if (this.board.get(crd) === figures) this.board.delete(crd);
  }
}

/** A CRD's figures and autoscaler, started and stopped with its controller. */
export class CrdAutoscale {
  constructor(
    private readonly crd: string,
    private readonly figures: LoadFigures,
    private readonly autoscaler: Autoscaler | undefined,
    private readonly board: FiguresBoard | undefined,
  ) {}

  /** Whether the rule's `do` values are in force. */
  get active(): boolean {
    return this.autoscaler?.active ?? false;
  }

  /** What status fields and Events read as `.metrics`: the six figures now, and `autoscaleActive`. */
  templateFigures(): Record<string, unknown> {
    return { ...this.figures.read(), autoscaleActive: this.active };
  }

  reconciled(ok: boolean, durationMs: number): void {
    this.figures.reconciled(ok, durationMs);
  }

  start(): void {
    this.board?.put(this.crd, this.figures);
    this.autoscaler?.start();
  }

  /** Stops evaluating, restores the declared values and takes the figures off the board. */
  stop(): void {
    this.autoscaler?.stop();
    this.board?.remove(this.crd, this.figures);
  }
}

/** The CRD's figures and autoscaler (none when it declares no rule). */
export function autoscalerOf(crd: CrdDefinition, created: AutoscaleTarget, clock: Clock, metrics: Metrics, logger: Logger, board?: FiguresBoard, remote?: RemoteFigures): CrdAutoscale {
  const figures = new LoadFigures(created);
  const rule = crd.operatorBox.autoscale;
  const autoscaler =
    rule === undefined
      ? undefined
      : new Autoscaler({
          crd: crd.name,
          rule,
          clock,
          target: created,
          dialect: crd.templateDialect,
          notes: crd.notes,
          figures,
          crossFigures: (name) => board?.read(name) ?? remote?.read(name),
          refresh: remote === undefined ? undefined : (signal) => remote.refresh(signal),
          onChange: (active, tuning) => {
            metrics.workersMax(crd.name, tuning.workers);
            logger.info(active ? 'autoscale: override applied' : 'autoscale: declared settings restored', { crd: crd.name, workers: tuning.workers, maxDepth: tuning.maxDepth, resyncMs: tuning.resyncMs });
          },
          onWarning: (warning) => logger.warn('autoscale condition', { crd: crd.name, warning }),
        });
  return new CrdAutoscale(crd.name, figures, autoscaler, board);
}

/** The controller's observer, also telling the CRD's figures (once there are) about each finished reconcile. */
export function autoscaled(observer: ControllerObserver, autoscaler: () => CrdAutoscale | undefined): ControllerObserver {
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
    gaveUp: (key, attempts, error) => observer.gaveUp?.(key, attempts, error),
    echoCapped: (key, chain) => observer.echoCapped?.(key, chain),
  };
}
