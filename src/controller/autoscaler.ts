/**
 * `operatorBox.autoscale` (Orkestra's operatorbox autoscaler): every `intervalMs` the CRD's own load figures are
 * read and the rule's conditions evaluated over `.metrics.*`. When they hold, the `do` block's workers, queue
 * bound and resync replace the declared ones; once they have not held for `cooldownMs`, the declared values come
 * back. The autoscaler keeps no state across restarts (a new controller starts from the declared values), and
 * `stop()` restores them.
 *
 * Figures (`.metrics.<name>`, numbers): `queueDepth` (keys waiting), `workers` (workers now), `workersBusyPercent`
 * and `workersIdlePercent` (reconciling workers over workers × 100), `errorRatePercent` (failed reconciles among
 * the last 100 × 100) and `reconcileDurationP95Ms` (95th percentile of the last 256 reconciles).
 *
 * Time windows (`rule.windows`, see autoscale-windows.ts) join the figures' conditions: all of `when` and one of
 * `anyOf` (figures and windows together). Besides every interval, the autoscaler evaluates at the next instant a
 * window may open or close, so a window is acted on at its boundary.
 */
import type { AutoscaleRule } from '../definition/types.js';
import { compileConditions, type CompiledConditions, type TemplateDialect, type UserNote } from '../template/index.js';
import type { Clock, TimerHandle } from '../util/clock.js';
import { compileWindow, type CompiledWindow } from './autoscale-windows.js';
import type { ControllerTuning } from './controller.js';

/** What the autoscaler reads and changes: the CRD's controller. */
export interface AutoscaleTarget {
  readonly tuning: ControllerTuning;
  readonly queueDepth: number;
  readonly activeWorkers: number;
  retune(next: Partial<ControllerTuning>): void;
}

export interface AutoscalerOptions {
  readonly crd: string;
  readonly rule: AutoscaleRule;
  readonly clock: Clock;
  readonly target: AutoscaleTarget;
  readonly dialect?: TemplateDialect | undefined;
  /** User-defined notes the templates may call (the CRD's `notes`). */
  readonly notes?: readonly UserNote[] | undefined;
  /** Told when the override is applied (true) or the declared values restored (false). */
  readonly onChange?: ((active: boolean, tuning: ControllerTuning) => void) | undefined;
  /** Told about each condition whose data did not fit its comparison (it is false). */
  readonly onWarning?: ((warning: string) => void) | undefined;
}

const ERROR_WINDOW = 100;
const DURATION_WINDOW = 256;

export class Autoscaler {
  private readonly when: CompiledConditions;
  private readonly anyOf: CompiledConditions;
  private readonly windowsWhen: readonly CompiledWindow[];
  private readonly windowsAnyOf: readonly CompiledWindow[];
  private readonly outcomes: boolean[] = [];
  private readonly durations: number[] = [];
  private baseline: ControllerTuning | undefined;
  private falseSince: number | undefined;
  private timer: TimerHandle | undefined;

  /** Compiles the conditions and windows; throws a TemplateError when a condition does not compile. */
  constructor(private readonly options: AutoscalerOptions) {
    const { rule, crd, dialect, notes } = options;
    const compile = { name: `spec.crds.${crd}.operatorBox.autoscale.conditions`, ...(dialect === undefined ? {} : { dialect }), ...(notes === undefined ? {} : { notes }) };
    this.when = compileConditions({ when: rule.when }, compile);
    this.anyOf = compileConditions({ anyOf: rule.anyOf }, compile);
    this.windowsWhen = (rule.windows?.when ?? []).map((window) => compileWindow(window, rule.intervalMs));
    this.windowsAnyOf = (rule.windows?.anyOf ?? []).map((window) => compileWindow(window, rule.intervalMs));
  }

  /** Whether the `do` values are in force. */
  get active(): boolean {
    return this.baseline !== undefined;
  }

  /** Records one finished reconcile (for the error rate and the duration percentile). */
  reconciled(ok: boolean, durationMs: number): void {
    this.outcomes.push(ok);
    if (this.outcomes.length > ERROR_WINDOW) this.outcomes.shift();
    this.durations.push(durationMs);
    if (this.durations.length > DURATION_WINDOW) this.durations.shift();
  }

  /** The figures the conditions read. */
  metrics(): Record<string, number> {
    const { target } = this.options;
    const workers = target.tuning.workers;
    const busy = workers === 0 ? 0 : Math.min(100, (target.activeWorkers / workers) * 100);
    const errors = this.outcomes.filter((ok) => !ok).length;
    const sorted = [...this.durations].sort((a, b) => a - b);
    return {
      queueDepth: target.queueDepth,
      workers,
      workersBusyPercent: busy,
      workersIdlePercent: 100 - busy,
      errorRatePercent: this.outcomes.length === 0 ? 0 : (errors / this.outcomes.length) * 100,
      reconcileDurationP95Ms: sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0),
    };
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.schedule();
  }

  /** Stops evaluating and restores the declared values. */
  stop(): void {
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.restore();
  }

  /** One evaluation (also what the timer runs): apply when the conditions hold, restore after the cool-down. */
  evaluate(): void {
    const now = this.options.clock.now();
    if (this.holds(now)) {
      this.falseSince = undefined;
      if (this.baseline === undefined) this.apply();
      return;
    }
    if (this.baseline === undefined) return;
    this.falseSince ??= now;
    if (now - this.falseSince >= this.options.rule.cooldownMs) this.restore();
  }

  /** All of `when` (figures and windows) and, when `anyOf` has entries, one of them. */
  private holds(now: number): boolean {
    const data = { metrics: this.metrics() };
    const when = this.when.evaluate(data);
    for (const warning of when.warnings) this.options.onWarning?.(warning);
    if (!when.ok || !this.windowsWhen.every((window) => window.open(now))) return false;
    if (this.options.rule.anyOf.length === 0 && this.windowsAnyOf.length === 0) return true;
    if (this.windowsAnyOf.some((window) => window.open(now))) return true;
    if (this.options.rule.anyOf.length === 0) return false;
    const anyOf = this.anyOf.evaluate(data);
    for (const warning of anyOf.warnings) this.options.onWarning?.(warning);
    return anyOf.ok;
  }

  /** The next evaluation: after the interval, or at the next window boundary (or cool-down end) when that comes first. */
  private schedule(): void {
    const { clock, rule } = this.options;
    const now = clock.now();
    let delay = rule.intervalMs;
    const windows = [...this.windowsWhen, ...this.windowsAnyOf];
    for (const window of windows) {
      const change = window.nextChange(now);
      if (change !== undefined) delay = Math.min(delay, change - now);
    }
    // With windows, the cool-down's end is a boundary too: a closed window's override ends on time, not an interval later.
    if (windows.length > 0 && this.falseSince !== undefined) delay = Math.min(delay, this.falseSince + rule.cooldownMs - now);
    this.timer = clock.setTimeout(() => {
      this.evaluate();
      this.schedule();
    }, Math.max(1, delay));
  }

  private apply(): void {
    const { target, rule } = this.options;
    this.baseline = target.tuning;
    const next: { workers?: number; maxDepth?: number; resyncMs?: number } = {};
    if (rule.do.workers !== undefined) next.workers = rule.do.workers;
    if (rule.do.maxDepth !== undefined) next.maxDepth = rule.do.maxDepth;
    if (rule.do.resyncMs !== undefined) next.resyncMs = rule.do.resyncMs;
    target.retune(next);
    this.options.onChange?.(true, target.tuning);
  }

  private restore(): void {
    const baseline = this.baseline;
    if (baseline === undefined) return;
    this.baseline = undefined;
    this.falseSince = undefined;
    this.options.target.retune(baseline);
    this.options.onChange?.(false, baseline);
  }
}
