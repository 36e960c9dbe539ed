/**
 * Notifications in the frozen model (docs/notifications.md): the document's teams, and each CRD's rules. The
 * runtime's notifier (observe/notifier.ts) delivers them; nothing here reads the environment or a credential.
 */
import type { Condition } from './types.js';

/** Orkestra's interval when neither the team nor the defaults give one: 15 minutes. */
export const DEFAULT_NOTIFY_INTERVAL_MS = 15 * 60 * 1000;

/** Orkestra's message when neither the rule nor the team gives one. */
export const DEFAULT_NOTIFY_MESSAGE = '[orkestra] {{ .metadata.namespace }}/{{ .metadata.name }}: condition triggered';

/** Where a team's Slack webhook URL comes from. */
export type WebhookSource =
  /** Written in the document (a URL). */
  | { readonly kind: 'url'; readonly url: string }
  /** Written as an environment reference (`$SLACK_WEBHOOK_URL`): katalog reads no environment; the host's option fills it. */
  | { readonly kind: 'host'; readonly written: string };

export interface NotificationTeam {
  readonly name: string;
  readonly slack: readonly string[];
  readonly email: readonly string[];
  /** The team's own webhook, else the defaults', else none (then the host's `notifications.slackWebhookUrl`). */
  readonly webhook: WebhookSource | undefined;
  /** Minimum time between two notifications of one condition to this team. */
  readonly intervalMs: number;
  readonly message: string | undefined;
}

/** The document's notification block. */
export interface NotificationConfig {
  readonly enabled: boolean;
  readonly teams: ReadonlyMap<string, NotificationTeam>;
}

/** A CRD's rule: when its conditions hold after a reconcile, each team is notified (throttled per condition and team). */
export interface NotifyRule {
  /** Where it was written, for messages (`spec.crds.x.operatorBox.status.fields[0].when[1].notify`). */
  readonly path: string;
  readonly when: readonly Condition[];
  readonly anyOf: readonly Condition[];
  readonly teams: readonly string[];
  readonly message: string | undefined;
  /** Values of `.inputs` when the rule came from a Motif import (its defaults merged with `with:`); absent otherwise. */
  readonly inputs?: Readonly<Record<string, unknown>>;
}

/** What notifications add to a CRD of the model. */
export interface CrdNotifications {
  /** Conditions that notify teams after a reconcile (Orkestra's `notify:`); absent when none. */
  readonly notifications?: readonly NotifyRule[];
}

/** What notifications add to the definition. */
export interface DefinitionNotification {
  /** The teams notifications go to (`spec.notification`); absent when not declared. */
  readonly notification?: NotificationConfig;
}
