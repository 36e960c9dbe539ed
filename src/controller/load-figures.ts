/**
 * A CRD's load figures, as autoscale conditions read them (`.metrics.<name>`, and another CRD's rule as
 * `.cross.<crd>.metrics.<name>`): `queueDepth` (keys waiting), `workers` (workers now), `workersBusyPercent` and
 * `workersIdlePercent` (reconciling workers over workers × 100), `errorRatePercent` (failed reconciles among the
 * last 100 × 100) and `reconcileDurationP95Ms` (95th percentile of the last 256 reconciles). Recording a reconcile
 * is O(1) (two ring buffers); the figures are computed when read.
 */
import type { ControllerTuning } from './controller.js';

/** What the figures read of the CRD's controller. */
export interface FiguresSource {
  readonly tuning: ControllerTuning;
  readonly queueDepth: number;
  readonly activeWorkers: number;
}

const ERROR_WINDOW = 100;
const DURATION_WINDOW = 256;

export class LoadFigures {
  private readonly outcomes = new Uint8Array(ERROR_WINDOW);
  private readonly durations = new Float64Array(DURATION_WINDOW);
  private outcomeCount = 0;
  private durationCount = 0;

  constructor(private readonly source: FiguresSource) {}

  /** Records one finished reconcile. */
  reconciled(ok: boolean, durationMs: number): void {
    this.outcomes[this.outcomeCount % ERROR_WINDOW] = ok ? 0 : 1;
    this.outcomeCount++;
    this.durations[this.durationCount % DURATION_WINDOW] = durationMs;
    this.durationCount++;
  }

  /** The six figures, now. */
  read(): Record<string, number> {
    const { source } = this;
    const workers = source.tuning.workers;
    const busy = workers === 0 ? 0 : Math.min(100, (source.activeWorkers / workers) * 100);
    const outcomes = Math.min(this.outcomeCount, ERROR_WINDOW);
    let errors = 0;
    for (let i = 0; i < outcomes; i++) errors += this.outcomes[i] ?? 0;
    const sorted = this.durations.slice(0, Math.min(this.durationCount, DURATION_WINDOW)).sort();
    return {
      queueDepth: source.queueDepth,
      workers,
      workersBusyPercent: busy,
      workersIdlePercent: 100 - busy,
      errorRatePercent: outcomes === 0 ? 0 : (errors / outcomes) * 100,
      reconcileDurationP95Ms: sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0),
    };
  }
}
