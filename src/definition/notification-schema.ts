/**
 * The input shapes of notifications (docs/notifications.md): the document's `spec.notification` block (teams and
 * their channels, Orkestra's shape) and a CRD entry's `notifications` list (katalog's form of Orkestra's `notify:`
 * on a condition: which conditions notify which teams, with what message).
 */
import Type from 'typebox';
import { ConditionsSchema } from './schema-operator-box.js';

const Duration = Type.String({
  pattern: '^(0|(([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$',
  'x-check': 'duration',
  description: 'A Go duration: 30s, 5m, 1h.',
});

const WebhookUrl = Type.String({
  minLength: 1,
  description: 'A Slack incoming-webhook URL (http or https), or an environment reference ($NAME) that the host fills (notifications.slackWebhookUrl).',
});

const TeamSchema = Type.Object(
  {
    slack: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Slack channels (informational: the webhook decides where a message goes).' })),
    slackWebhookUrl: Type.Optional(WebhookUrl),
    email: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Email recipients, delivered only through the host\'s notify sink.' })),
    interval: Type.Optional(Duration),
    message: Type.Optional(Type.String({ description: 'Template of the message; default "[orkestra] {{ .metadata.namespace }}/{{ .metadata.name }}: condition triggered".' })),
  },
  { additionalProperties: false },
);

/** `spec.notification` (Orkestra: the document's top-level `notification`). */
export const NotificationSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: 'Default true; false silences every team.' })),
    standalone: Type.Optional(Type.Boolean({ description: 'Orkestra: send without its gateway. katalog always sends itself; accepted, no effect.' })),
    defaults: Type.Optional(
      Type.Object(
        {
          interval: Type.Optional(Duration),
          slackWebhookUrl: Type.Optional(WebhookUrl),
        },
        { additionalProperties: false },
      ),
    ),
    teams: Type.Record(Type.String({ minLength: 1 }), TeamSchema, { description: 'Teams by name; conditions name them.' }),
  },
  { additionalProperties: false },
);

/** One rule of a CRD's `notifications`: when its conditions hold after a reconcile, its teams are notified. */
const NotifyRuleSchema = Type.Object(
  {
    when: Type.Optional(ConditionsSchema),
    anyOf: Type.Optional(ConditionsSchema),
    teams: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
    message: Type.Optional(Type.String({ description: 'Template of the message; overrides the team\'s.' })),
  },
  { additionalProperties: false },
);

export const NotificationsSchema = Type.Array(NotifyRuleSchema, { description: 'Notifications of this CRD: conditions, teams, message.' });

export type NotificationInput = Type.Static<typeof NotificationSchema>;
export type NotifyRuleInput = Type.Static<typeof NotifyRuleSchema>;
