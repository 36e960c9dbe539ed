/**
 * What a host passes for notifications (`RuntimeOptions.notifications`, docs/notifications.md), and the
 * notification a host sink receives. katalog reads no environment and no credential from the definition: a Slack
 * webhook written as an environment reference (`$SLACK_WEBHOOK_URL`) is filled from `slackWebhookUrl` here.
 */
import { RuntimeError } from '../errors.js';
import { parseDuration } from '../util/duration.js';

/** One notification, as delivered to Slack or handed to the host's sink. */
export interface Notification {
  /** The definition's `metadata.name` (Orkestra's Katalog name). */
  readonly katalog: string;
  readonly crd: string;
  readonly team: string;
  /** The team's Slack channels (informational: a Slack webhook posts where it was made for). */
  readonly slackChannels: readonly string[];
  /** The team's email recipients: katalog sends no mail; a sink may. */
  readonly email: readonly string[];
  /** `<field> condition triggered`, as Orkestra's email subject. */
  readonly subject: string;
  /** The rendered message: only what the user's template renders. */
  readonly message: string;
  /** The custom resource whose condition held. */
  readonly object: { readonly kind: string; readonly namespace?: string; readonly name: string };
  /** Orkestra's key of the condition (`field|operator|value`). */
  readonly condition: string;
  /** When it was queued, RFC 3339. */
  readonly at: string;
}

/** A host's own delivery: replaces the Slack POST. A rejection is a failed attempt (retried with backoff). */
export type NotifySink = (notification: Notification, signal: AbortSignal) => Promise<void>;

export interface NotificationOptions {
  /** Deliver through this function instead of posting to Slack (for example to send the team's email). */
  readonly notify?: NotifySink;
  /** The Slack webhook for teams whose document names none, or names an environment reference (Orkestra's SLACK_WEBHOOK_URL). */
  readonly slackWebhookUrl?: string;
  /** Notifications waiting for delivery at most; more are dropped (counted and logged). Default 100. */
  readonly queueSize?: number;
  /** Deadline of one delivery attempt. Default 5s (Orkestra's). */
  readonly timeout?: number | string;
  /** Attempts per notification, the first included. Default 4. */
  readonly attempts?: number;
  /** Delay before the first retry; doubled per retry, at most 30 s. Default 1s. */
  readonly retryDelay?: number | string;
}

/** Resolved notification settings. */
export interface ResolvedNotificationOptions {
  readonly notify: NotifySink | undefined;
  readonly slackWebhookUrl: string | undefined;
  readonly queueSize: number;
  readonly timeoutMs: number;
  readonly attempts: number;
  readonly retryDelayMs: number;
}

/** Checks and resolves the options; throws a RuntimeError (E_OPTIONS) naming each bad field. */
export function resolveNotificationOptions(input: NotificationOptions | undefined): ResolvedNotificationOptions {
  const problems: string[] = [];
  const ms = (name: string, value: number | string | undefined, fallback: number): number => {
    if (value === undefined) return fallback;
    const parsed = typeof value === 'number' ? value : parseDuration(value);
    if (parsed === undefined || !Number.isFinite(parsed) || parsed <= 0) {
      problems.push(`notifications.${name} must be a positive duration (ms or "5s"), got ${JSON.stringify(value)}`);
      return fallback;
    }
    return parsed;
  };
  const count = (name: string, value: number | undefined, fallback: number): number => {
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || value < 1) problems.push(`notifications.${name} must be an integer of at least 1, got ${JSON.stringify(value)}`);
    return Number.isInteger(value) && value >= 1 ? value : fallback;
  };
  const url = input?.slackWebhookUrl;
  if (url !== undefined && !/^https?:\/\//.test(url)) problems.push('notifications.slackWebhookUrl must be an http(s) URL');
  if (input?.notify !== undefined && typeof input.notify !== 'function') problems.push('notifications.notify must be a function');
  const resolved: ResolvedNotificationOptions = {
    notify: input?.notify,
    slackWebhookUrl: url,
    queueSize: count('queueSize', input?.queueSize, 100),
    timeoutMs: ms('timeout', input?.timeout, 5000),
    attempts: count('attempts', input?.attempts, 4),
    retryDelayMs: ms('retryDelay', input?.retryDelay, 1000),
  };
  if (problems.length > 0) throw new RuntimeError('E_OPTIONS', problems.join('; '));
  return resolved;
}
