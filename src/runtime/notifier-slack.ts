/**
 * One delivery attempt to a Slack incoming webhook, as Orkestra posts it (iAlexeze/orkestra
 * pkg/notification/slack.go): `{"text": message, "attachments": [{"color": "warning", "fields": [Katalog, Team]}]}`,
 * one POST per notification whatever the number of channels (the webhook decides the channel). A 2xx answer is
 * delivered; anything else is a {@link DeliveryFailure} whose reason never holds the URL (a secret) or the body.
 */
import { externalRequest, ExternalHttpFailure } from '../operatorbox/external-http.js';
import type { Notification } from './notifier-options.js';

/** A failed attempt. `retry` false: trying again cannot help (a 4xx other than 408 and 429). */
export class DeliveryFailure extends Error {
  constructor(
    readonly reason: string,
    readonly retry: boolean,
  ) {
    super(reason);
    this.name = 'DeliveryFailure';
  }
}

/** Slack's JSON for one notification. */
export function slackPayload(notification: Notification): string {
  return JSON.stringify({
    text: notification.message,
    attachments: [
      {
        color: 'warning',
        fields: [
          { title: 'Katalog', value: notification.katalog, short: true },
          { title: 'Team', value: notification.team, short: true },
        ],
      },
    ],
  });
}

/** Posts `notification` to `url`; resolves when Slack took it, rejects with a {@link DeliveryFailure}. */
export async function postToSlack(url: string, notification: Notification, timeoutMs: number, signal: AbortSignal): Promise<void> {
  let status: number;
  try {
    const response = await externalRequest({
      url,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: slackPayload(notification),
      timeoutMs,
      maxResponseBytes: 64 * 1024,
      signal,
    });
    status = response.status;
  } catch (error) {
    const reason = error instanceof ExternalHttpFailure ? error.reason.replace('the reconcile was cancelled', 'the runtime is stopping') : 'the request failed';
    throw new DeliveryFailure(`slack webhook: ${reason}`, true);
  }
  if (status >= 200 && status < 300) return;
  throw new DeliveryFailure(`slack webhook answered ${status}`, status >= 500 || status === 408 || status === 429);
}
