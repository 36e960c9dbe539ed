/**
 * The runtime's notifier (docs/notifications.md): takes the requests of every CRD's NotifyBox, throttles them as
 * Orkestra does (one notification per condition key and team per interval, across the custom resources of the
 * definition; the clock is in-process and starts afresh with the runtime), renders the message (the rule's, else
 * the team's, else Orkestra's default), and queues it. One delivery loop posts to Slack, or hands it to the host's
 * sink, with a deadline per attempt and retries with doubling delays.
 *
 * A notification is never lost silently: a full queue, a message that does not render, a delivery that failed
 * every attempt or one still queued at stop() is counted (`controller_notifications_total{result}`), logged (the
 * message and the webhook URL stay out of the log), and, for a failed one, recorded as a Warning Event
 * `NotificationFailed` on the custom resource. None of it reaches the reconcile, whose result stands.
 */
import type { DefinitionNotification, NotificationTeam } from '../definition/notification-types.js';
import { DEFAULT_NOTIFY_MESSAGE } from '../definition/notification-types.js';
import type { KubeObject } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import type { NotificationSender, NotifyRequest } from '../operatorbox/notify-box.js';
import { sleep, type Clock } from '../util/clock.js';
import type { NotifierMetrics } from './notifier-metrics.js';
import type { Notification, ResolvedNotificationOptions } from './notifier-options.js';
import { DeliveryFailure, postToSlack } from './notifier-slack.js';

const MAX_RETRY_DELAY_MS = 30_000;

export interface NotifierInput {
  readonly katalog: string;
  readonly config: NonNullable<DefinitionNotification['notification']>;
  readonly options: ResolvedNotificationOptions;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: NotifierMetrics;
  /** Records a Warning Event on the custom resource; never rejects (it reports its own failure). */
  readonly warn: (object: KubeObject, reason: string, message: string) => Promise<void>;
}

interface Queued {
  readonly notification: Notification;
  readonly object: KubeObject;
  readonly url: string | undefined;
}

export class Notifier implements NotificationSender {
  private readonly lastSent = new Map<string, number>();
  private readonly queue: Queued[] = [];
  private readonly abort = new AbortController();
  private readonly told = new Set<string>();
  /** Warning Events being recorded; stop() waits for them. */
  private readonly recording = new Set<Promise<void>>();
  private pumping: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly input: NotifierInput) {
    const { config, options, logger } = input;
    for (const team of config.teams.values()) {
      if (options.notify !== undefined) continue;
      if (team.email.length > 0) logger.warn('notifications: katalog sends no email; this team\'s email recipients are reached only through the notify option', { team: team.name });
      if (team.slack.length > 0 && this.webhookOf(team) === undefined) logger.warn('notifications: this team has Slack channels but no webhook URL (document or notifications.slackWebhookUrl); it is not notified', { team: team.name });
    }
  }

  submit(request: NotifyRequest): void {
    const { config } = this.input;
    if (this.stopped || !config.enabled) return;
    for (const name of request.teams) {
      const team = config.teams.get(name);
      if (team === undefined) {
        this.tellOnce(`team:${name}`, 'notifications: a condition names a team the document does not declare; skipped, as Orkestra does', { crd: request.crd, team: name });
        continue;
      }
      const url = this.webhookOf(team);
      if (this.input.options.notify === undefined && (url === undefined || team.slack.length === 0)) continue; // said at start
      const key = `${request.conditionKey}|${name}`;
      const now = this.input.clock.now();
      const last = this.lastSent.get(key);
      if (last !== undefined && now - last < team.intervalMs) continue;
      this.enqueue(request, team, url, key, now);
    }
  }

  /** Waits until the queue is delivered, at most one attempt's deadline; then aborts and counts what is left. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const pumping = this.pumping;
    if (pumping !== undefined) {
      const grace = new AbortController();
      await Promise.race([pumping, sleep(this.input.clock, this.input.options.timeoutMs, grace.signal).catch(() => undefined)]);
      grace.abort();
    }
    this.abort.abort();
    await this.pumping;
    for (const left of this.queue.splice(0)) this.count(left, 'dropped', 'the runtime stopped before it was delivered');
    await Promise.all(this.recording);
  }

  private enqueue(request: NotifyRequest, team: NotificationTeam, url: string | undefined, key: string, now: number): void {
    const meta = request.object.metadata ?? {};
    let message: string;
    try {
      message = request.render(request.message ?? team.message ?? DEFAULT_NOTIFY_MESSAGE);
    } catch (error) {
      this.input.metrics.count(request.crd, team.name, 'failed');
      const reason = error instanceof Error ? error.message : String(error);
      this.input.logger.error('notification: the message did not render; not sent', { crd: request.crd, team: team.name, namespace: meta.namespace, name: meta.name, error: reason });
      this.event(request.object, `notification to team "${team.name}" not sent: the message did not render`);
      return;
    }
    const notification: Notification = {
      katalog: this.input.katalog,
      crd: request.crd,
      team: team.name,
      slackChannels: team.slack,
      email: team.email,
      subject: `${request.field} condition triggered`,
      message,
      object: { kind: request.object.kind ?? '', ...(meta.namespace === undefined ? {} : { namespace: meta.namespace }), name: meta.name ?? '' },
      condition: request.conditionKey,
      at: new Date(now).toISOString(),
    };
    const queued: Queued = { notification, object: request.object, url };
    if (this.queue.length >= this.input.options.queueSize) {
      this.count(queued, 'dropped', `the queue holds ${this.input.options.queueSize} notifications`);
      return;
    }
    this.lastSent.set(key, now);
    this.queue.push(queued);
    this.pumping ??= this.pump().finally(() => {
      this.pumping = undefined;
    });
  }

  private async pump(): Promise<void> {
    for (let next = this.queue.shift(); next !== undefined; next = this.stopped && this.abort.signal.aborted ? undefined : this.queue.shift()) {
      await this.deliver(next);
    }
  }

  private async deliver(queued: Queued): Promise<void> {
    const { options, clock } = this.input;
    const signal = this.abort.signal;
    let failure = 'not attempted';
    for (let attempt = 1; attempt <= options.attempts; attempt++) {
      try {
        await this.attempt(queued, signal);
        this.input.metrics.count(queued.notification.crd, queued.notification.team, 'sent');
        return;
      } catch (error) {
        failure = error instanceof DeliveryFailure ? error.reason : `the notify option rejected: ${error instanceof Error ? error.message : String(error)}`;
        const retry = !(error instanceof DeliveryFailure) || error.retry;
        if (signal.aborted) {
          this.count(queued, 'dropped', 'the runtime stopped while it was being delivered');
          return;
        }
        if (!retry || attempt === options.attempts) break;
        const delay = Math.min(options.retryDelayMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
        try {
          await sleep(clock, delay, signal);
        } catch {
          this.count(queued, 'dropped', 'the runtime stopped before a retry');
          return;
        }
      }
    }
    this.count(queued, 'failed', failure);
    const { team } = queued.notification;
    this.event(queued.object, `notification to team "${team}" failed after every attempt: ${failure}`);
  }

  private async attempt(queued: Queued, signal: AbortSignal): Promise<void> {
    const { notify, timeoutMs } = this.input.options;
    if (notify === undefined) {
      if (queued.url === undefined) throw new DeliveryFailure('no webhook URL', false);
      await postToSlack(queued.url, queued.notification, timeoutMs, signal);
      return;
    }
    const deadline = new AbortController();
    const onAbort = (): void => deadline.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    const timer = this.input.clock.setTimeout(() => deadline.abort(new DeliveryFailure(`the notify option did not settle within ${timeoutMs} ms`, true)), timeoutMs);
    try {
      await Promise.race([
        notify(queued.notification, deadline.signal),
        new Promise<never>((_resolve, reject) => deadline.signal.addEventListener('abort', () => reject(deadline.signal.reason as Error), { once: true })),
      ]);
    } finally {
      this.input.clock.clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  private count(queued: Queued, result: 'failed' | 'dropped', reason: string): void {
    const { notification } = queued;
    this.input.metrics.count(notification.crd, notification.team, result);
    this.input.logger.error(`notification ${result}`, { crd: notification.crd, team: notification.team, namespace: notification.object.namespace, name: notification.object.name, reason });
  }

  private event(object: KubeObject, message: string): void {
    const recorded = this.input.warn(object, 'NotificationFailed', message).finally(() => this.recording.delete(recorded));
    this.recording.add(recorded);
  }

  private webhookOf(team: NotificationTeam): string | undefined {
    return team.webhook?.kind === 'url' ? team.webhook.url : this.input.options.slackWebhookUrl;
  }

  private tellOnce(key: string, message: string, fields: Readonly<Record<string, unknown>>): void {
    if (this.told.has(key)) return;
    this.told.add(key);
    this.input.logger.warn(message, fields);
  }
}
