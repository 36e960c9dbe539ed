/**
 * `operatorBox.autoscale` (Orkestra's operatorbox autoscaler): every `intervalMs` the CRD's own load figures
 * (load-figures.ts) are read and the rule's conditions evaluated over `.metrics.*`, and over another CRD's figures
 * as `.cross.<crd>.metrics.*` when the host gives them (`crossFigures`; absent figures make the condition false,
 * as Orkestra reads them as ""). When they hold, the `do` block's workers, queue
 * bound and resync replace the declared ones; once they have not held for `cooldownMs`, the declared values come
 * back. The autoscaler keeps no state across restarts (a new controller starts from the declared values), and
 * `stop()` restores them.
 *
 *
 * Time windows (`rule.windows`, see autoscale-windows.ts) join the figures' conditions: all of `when` and one of
 * `anyOf` (figures and windows together). Besides every interval, the autoscaler evaluates at the next instant a
 * window may open or close, so a window is acted on at its boundary.
 */
import type { AutoscaleRule } from '../definition/types.js';
import { compileConditions, type CompiledConditions, type TemplateDialect, type UserNote } from '../template/index.js';
import type { Clock, TimerHandle } from '../util/clock.js';
import { compileWindow, type CompiledWindow } from './autoscale-windows.js';
import { LoadFigures } from './load-figures.js';
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
  /** The CRD's figures, when the host records them (default: the autoscaler's own over `target`). */
  readonly figures?: LoadFigures | undefined;
  /** Another CRD's figures by its name (`cross.<crd>.metrics.*`), undefined when that CRD is not running. */
  readonly crossFigures?: ((crd: string) => Readonly<Record<string, number>> | undefined) | undefined;
  /**
   * Run before each timed evaluation, awaited (another process's figures read over HTTP); must not reject. Its
   * signal is aborted by {@link Autoscaler.stop}, after which no evaluation follows.
   */
  readonly refresh?: ((signal: AbortSignal) => Promise<void>) | undefined;
}

/** The CRD names of `cross.<crd>.metrics.<figure>` fields, as written. */
export function crossFigureCrds(rule: AutoscaleRule): string[] {
  const names = new Set<string>();
  for (const condition of [...rule.when, ...rule.anyOf]) {
    const match = /^cross\.([^.]+)\.metrics\./.exec(condition.field);
    if (match?.[1] !== undefined) names.add(match[1]);
  }
  return [...names];
}

export class Autoscaler {
  private readonly when: CompiledConditions;
  private readonly anyOf: CompiledConditions;
  private readonly windowsWhen: readonly CompiledWindow[];
  private readonly windowsAnyOf: readonly CompiledWindow[];
  private readonly figures: LoadFigures;
  private readonly crossCrds: readonly string[];
  private baseline: ControllerTuning | undefined;
  private falseSince: number | undefined;
  private timer: TimerHandle | undefined;
  /** The refresh under way (aborted by stop). */
  private refreshing: AbortController | undefined;

  /** Compiles the conditions and windows; throws a TemplateError when a condition does not compile. */
  constructor(private readonly options: AutoscalerOptions) {
    const { rule, crd, dialect, notes } = options;
    const compile = { name: `spec.crds.${crd}.operatorBox.autoscale.conditions`, ...(dialect === undefined ? {} : { dialect }), ...(notes === undefined ? {} : { notes }) };
    this.when = compileConditions({ when: rule.when }, compile);
    this.anyOf = compileConditions({ anyOf: rule.anyOf }, compile);
    this.windowsWhen = (rule.windows?.when ?? []).map((window) => compileWindow(window, rule.intervalMs));
    this.windowsAnyOf = (rule.windows?.anyOf ?? []).map((window) => compileWindow(window, rule.intervalMs));
    this.figures = options.figures ?? new LoadFigures(options.target);
    this.crossCrds = crossFigureCrds(rule);
  }

  /** Whether the `do` values are in force. */
  get active(): boolean {
    return this.baseline !== undefined;
  }

  /** Records one finished reconcile (for the error rate and the duration percentile). */
  reconciled(ok: boolean, durationMs: number): void {
    this.figures.reconciled(ok, durationMs);
  }

  /** The figures the conditions read. */
  metrics(): Record<string, number> {
    return this.figures.read();
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.schedule();
  }

  /** Stops evaluating and restores the declared values. */
  stop(): void {
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.refreshing?.abort();
    this.refreshing = undefined;
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
    const data = { metrics: this.metrics(), ...this.crossData() };
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

  /** `.cross.<crd>.metrics` of the CRDs the conditions read and the host has figures of. */
  private crossData(): { cross?: Record<string, { metrics: Readonly<Record<string, number>> }> } {
    if (this.crossCrds.length === 0) return {};
    const cross: Record<string, { metrics: Readonly<Record<string, number>> }> = {};
    for (const crd of this.crossCrds) {
      const figures = this.options.crossFigures?.(crd.toLowerCase());
      if (figures !== undefined) cross[crd] = { metrics: figures };
    }
    return { cross };
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
    this.timer = clock.setTimeout(() => void this.tick(), Math.max(1, delay));
  }

  /** The timed evaluation: the refresh first (when given), then evaluate and schedule, unless stopped meanwhile. */
  private async tick(): Promise<void> {
    const refresh = this.options.refresh;
    if (refresh !== undefined) {
      const running = new AbortController();
      this.refreshing = running;
      // The contract says refresh does not reject; should one, its condition data is old, which the warning says.
      await refresh(running.signal).catch((error: unknown) => this.options.onWarning?.(`refreshing the figures failed: ${String(error)}`));
      if (this.refreshing !== running) return;
      this.refreshing = undefined;
    }
    this.evaluate();
    this.schedule();
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
