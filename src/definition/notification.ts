/**
 * Normalises notifications (docs/notifications.md): `spec.notification` into the teams of the model, a CRD's
 * `notifications` into its rules. Checked at load: webhook URLs (a URL, or an environment reference the host fills),
 * message templates (they compile), intervals. A rule naming a team the document does not declare is not an error:
 * Orkestra skips such a team (its generated Katalogs name a `developer` team that may not exist), and so does the
 * runtime, which says so in its log at start.
 */
import type { Path } from './path.js';
import { formatPath } from './path.js';
import type { Origin, ProblemList } from './problems.js';
import type { Field } from './crd-entries.js';
import type { Loose } from './operator-box.js';
import type { NotificationInput, NotifyRuleInput } from './notification-schema.js';
import { DEFAULT_NOTIFY_INTERVAL_MS, type NotificationConfig, type NotificationTeam, type NotifyRule, type WebhookSource } from './notification-types.js';
import { normalizeConditions } from './conditions.js';
import { checkTemplates } from './template-check.js';
import { parseDuration } from '../util/duration.js';

const ENV_REFERENCE = /^\$(\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)$/;

/** The document's notification block, or undefined when none is written. */
export function normalizeNotification(input: Loose<NotificationInput> | undefined, origin: Origin, path: Path, problems: ProblemList): NotificationConfig | undefined {
  if (input === undefined) return undefined;
  const defaults = input.defaults;
  const defaultInterval = interval(defaults?.interval) ?? DEFAULT_NOTIFY_INTERVAL_MS;
  const defaultHook = webhook(defaults?.slackWebhookUrl, origin, [...path, 'defaults', 'slackWebhookUrl'], problems);
  const teams = new Map<string, NotificationTeam>();
  for (const [name, team] of Object.entries(input.teams ?? {})) {
    if (team === undefined) continue;
    const at = [...path, 'teams', name];
    if (team.message !== undefined) checkTemplates(team.message, [...at, 'message'], origin, problems);
    teams.set(name, {
      name,
      slack: strings(team.slack),
      email: strings(team.email),
      webhook: webhook(team.slackWebhookUrl, origin, [...at, 'slackWebhookUrl'], problems) ?? defaultHook,
      intervalMs: interval(team.interval) ?? defaultInterval,
      message: team.message,
    });
  }
  return { enabled: input.enabled !== false, teams };
}

/** A CRD's `notifications` field as rules; problems at the field's own path. */
export function normalizeNotifyRules(field: Field | undefined, problems: ProblemList): NotifyRule[] {
  if (field === undefined || !Array.isArray(field.value)) return [];
  const list = field.value as readonly (Loose<NotifyRuleInput> | undefined)[];
  const rules: NotifyRule[] = [];
  list.forEach((rule, index) => {
    if (rule === undefined) return;
    const at = [...field.path, index];
    if (rule.message !== undefined) checkTemplates(rule.message, [...at, 'message'], field.origin, problems);
    rules.push({
      path: formatPath(at),
      when: normalizeConditions(rule.when, field.origin, [...at, 'when'], problems),
      anyOf: normalizeConditions(rule.anyOf, field.origin, [...at, 'anyOf'], problems),
      teams: strings(rule.teams),
      message: rule.message,
    });
  });
  return rules;
}

function webhook(value: string | undefined, origin: Origin, path: Path, problems: ProblemList): WebhookSource | undefined {
  if (value === undefined) return undefined;
  if (ENV_REFERENCE.test(value)) return { kind: 'host', written: value };
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    problems.add(origin, path, 'invalid-value', 'slackWebhookUrl must be an http(s) URL, or an environment reference such as $SLACK_WEBHOOK_URL that the host fills (notifications.slackWebhookUrl)');
    return undefined;
  }
  return { kind: 'url', url: value };
}

function interval(value: string | undefined): number | undefined {
  const ms = value === undefined ? undefined : parseDuration(value);
  return ms === undefined || ms <= 0 ? undefined : ms;
}

function strings(value: readonly (string | undefined)[] | undefined): string[] {
  return (value ?? []).filter((item): item is string => typeof item === 'string');
}
