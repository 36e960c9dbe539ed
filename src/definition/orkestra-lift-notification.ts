/**
 * Orkestra's notifications in katalog's shape (docs/orkestra-compatibility.md#notifications):
 * - the document's `notification` block (current Orkestra writes it at the top, beside `spec`; documented Orkestra
 *   under `spec`) becomes `spec.notification`; the documented `slack: {webhook}` forms become `slackWebhookUrl`;
 * - a condition's `notify:` (`[team, ...]` in early Orkestra, `{teams, message}` in current) is taken off the
 *   condition, wherever the condition is written in the CRD entry, and becomes a rule of the entry's
 *   `notifications` list whose only condition is that one (Orkestra notifies when that condition holds).
 * Positions follow, so a problem in a rule points at the `notify:` the user wrote.
 */
import type { Path } from './path.js';
import { isMap } from './schema-check.js';
import { move, type Lift } from './orkestra-lift-steps.js';
import { liftConditions } from './orkestra-lift-box.js';

type Map = Record<string, unknown>;

/** Moves the top-level `notification` under `spec` and lifts the documented Slack forms. */
export function liftNotification(lift: Lift, doc: Map): void {
  if (Object.hasOwn(doc, 'notification')) {
    const spec = (isMap(doc.spec) ? doc.spec : (doc.spec = {})) as Map;
    move(lift, doc, 'notification', [], spec, 'notification', ['spec'], 'notification is given both at the top of the document (current Orkestra) and under spec (documented Orkestra); keep one');
  }
  const block = isMap(doc.spec) ? doc.spec.notification : undefined;
  if (!isMap(block)) return;
  const path = ['spec', 'notification'];
  if (isMap(block.slack)) {
    const defaults = (isMap(block.defaults) ? block.defaults : (block.defaults = {})) as Map;
    move(lift, block.slack, 'webhook', [...path, 'slack'], defaults, 'slackWebhookUrl', [...path, 'defaults'], 'both slack.webhook and defaults.slackWebhookUrl are given; keep one');
    if (Object.keys(block.slack).length === 0) delete block.slack;
  }
  if (!isMap(block.teams)) return;
  for (const [name, team] of Object.entries(block.teams)) {
    if (!isMap(team) || !isMap(team.slack)) continue;
    const slack = team.slack;
    const at = [...path, 'teams', name];
    delete team.slack;
    move(lift, slack, 'webhook', [...at, 'slack'], team, 'slackWebhookUrl', at, 'both slack.webhook and slackWebhookUrl are given; keep one');
    move(lift, slack, 'channels', [...at, 'slack'], team, 'slack', at, 'slack channels are given twice; keep one');
  }
}

/** Takes every `notify:` off the conditions of a CRD entry into the entry's `notifications`. */
export function liftNotify(lift: Lift, entry: Map, path: Path): void {
  const rules: Map[] = Array.isArray(entry.notifications) ? (entry.notifications as Map[]) : [];
  const visit = (value: unknown, at: Path, key: string | undefined): void => {
    if (Array.isArray(value)) {
      const conditions = key === 'when' || key === 'anyOf' || key === 'or';
      value.forEach((item: unknown, index) => {
        if (conditions && isMap(item) && Object.hasOwn(item, 'notify')) take(item, [...at, index]);
        visit(item, [...at, index], undefined);
      });
    } else if (isMap(value)) {
      for (const [child, inner] of Object.entries(value)) if (child !== 'notifications') visit(inner, [...at, child], child);
    }
  };
  const take = (condition: Map, at: Path): void => {
    const notify = condition.notify;
    delete condition.notify;
    const index = rules.length;
    const to = [...path, 'notifications', index];
    const rule: Map = { when: [structuredClone(condition)] };
    const positions = lift.origin.positions;
    positions?.alias(at, [...to, 'when', 0]);
    positions?.alias([...at, 'notify'], to);
    if (Array.isArray(notify) || typeof notify === 'string') {
      rule.teams = Array.isArray(notify) ? notify : [notify];
      positions?.alias([...at, 'notify'], [...to, 'teams']);
    } else if (isMap(notify)) {
      for (const [name, value] of Object.entries(notify)) rule[name] = value;
      positions?.alias([...at, 'notify', 'teams'], [...to, 'teams']);
    } else {
      rule.teams = notify; // the schema check reports what it is
    }
    liftConditions(lift, rule.when as unknown[], [...to, 'when']);
    rules.push(rule);
  };
  visit(entry, path, undefined);
  if (rules.length > 0) entry.notifications = rules;
}
