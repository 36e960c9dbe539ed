/**
 * Notifications back to katalog.dev/v1 input (serialize.ts): the definition's teams as `spec.notification`, a CRD's
 * rules as its `notifications` list; loading the result gives the same model.
 */
import type { NotificationConfig, NotifyRule } from './notification-types.js';
import { toPlain } from './freeze.js';

type Json = Record<string, unknown>;

/** `{notification}` for the spec, or nothing. */
export function notificationToInput(config: NotificationConfig | undefined): Json {
  if (config === undefined) return {};
  const teams: Json = {};
  for (const team of config.teams.values()) {
    teams[team.name] = {
      ...(team.slack.length > 0 ? { slack: [...team.slack] } : {}),
      ...(team.email.length > 0 ? { email: [...team.email] } : {}),
      ...(team.webhook === undefined ? {} : { slackWebhookUrl: team.webhook.kind === 'url' ? team.webhook.url : team.webhook.written }),
      interval: `${team.intervalMs}ms`,
      ...(team.message === undefined ? {} : { message: team.message }),
    };
  }
  return { notification: { ...(config.enabled ? {} : { enabled: false }), teams } };
}

/** `{notifications}` for a CRD entry, or nothing. */
export function notifyRulesToInput(rules: readonly NotifyRule[] | undefined): Json {
  if (rules === undefined || rules.length === 0) return {};
  return {
    notifications: rules.map((rule) => ({
      ...(rule.when.length > 0 ? { when: rule.when.map((c) => toPlain(c)) } : {}),
      ...(rule.anyOf.length > 0 ? { anyOf: rule.anyOf.map((c) => toPlain(c)) } : {}),
      teams: [...rule.teams],
      ...(rule.message === undefined ? {} : { message: rule.message }),
    })),
  };
}
