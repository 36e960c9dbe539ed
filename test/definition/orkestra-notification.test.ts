// Orkestra's notifications load into the one model. Sources (orkspace/orkestra@c19d208, iAlexeze/orkestra):
// pkg/types/notification.go (KatalogNotification {enabled, standalone, defaults {interval, slackWebhookUrl}, teams
// {email, slack, slackWebhookUrl, interval, message}}, declared beside spec:), pkg/types/conditions.go (a condition's
// `notify: {teams, message}`), iAlexeze/orkestra pkg/notification/docs/02-notify-block.md, 04-developer-notifications.md.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/load.js';
import { loadProblems } from '../support/definition-problems.js';
import { definitionToInput } from '../../src/definition/serialize.js';

const CRD = `spec:
  crds:
    widget:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Widget, plural: widgets }
      operatorBox:
        status:
          fields:
            - path: phase
              value: Degraded
              when:
                - field: spec.size
                  exists: true
                - field: spec.replicas
                  greaterThan: "3"
                  notify:
                    teams: [platform, oncall]
                    message: "{{ .metadata.name }} is too big"
        onCreate:
          configMaps:
            - name: "{{ .metadata.name }}-cm"
              data: { a: b }
              when:
                - field: spec.mode
                  equals: loud
                  notify: [platform]
`;

function current(notification: string, crd = CRD): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: shop }
${notification}${crd}`;
}

const TEAMS = `notification:
  defaults:
    interval: 30m
    slackWebhookUrl: "http://127.0.0.1:9/hook"
  teams:
    platform:
      slack: ["#platform"]
      email: [ops@example.com]
      interval: 5m
      message: "{{ .metadata.namespace }}/{{ .metadata.name }} needs a look"
    oncall:
      slack: ["#oncall"]
      slackWebhookUrl: $ONCALL_WEBHOOK
`;

describe('notification', () => {
  test('the top-level block (current Orkestra) becomes the definition\'s teams, with intervals and webhooks resolved', () => {
    const definition = parseDefinition(current(TEAMS), { source: 'k.yaml' });
    const teams = definition.notification?.teams;
    assert.equal(definition.notification?.enabled, true);
    assert.deepEqual(teams?.get('platform'), {
      name: 'platform',
      slack: ['#platform'],
      email: ['ops@example.com'],
      webhook: { kind: 'url', url: 'http://127.0.0.1:9/hook' },
      intervalMs: 5 * 60_000,
      message: '{{ .metadata.namespace }}/{{ .metadata.name }} needs a look',
    });
    // An environment reference is never read: the host fills it (notifications.slackWebhookUrl).
    assert.deepEqual(teams?.get('oncall')?.webhook, { kind: 'host', written: '$ONCALL_WEBHOOK' });
    assert.equal(teams?.get('oncall')?.intervalMs, 30 * 60_000);
  });

  test('notify: on a condition, wherever it is written, becomes a rule of that one condition', () => {
    const crd = parseDefinition(current(TEAMS), { source: 'k.yaml' }).crds.get('widget');
    assert.deepEqual(
      crd?.notifications?.map((rule) => [rule.when, rule.teams, rule.message]),
      [
        [[{ field: 'spec.replicas', operator: 'gt', value: '3' }], ['platform', 'oncall'], '{{ .metadata.name }} is too big'],
        [[{ field: 'spec.mode', operator: 'eq', value: 'loud' }], ['platform'], undefined],
      ],
    );
    // The condition itself stays where it was, without notify.
    assert.deepEqual(crd?.operatorBox.status.fields[0]?.when[1], { field: 'spec.replicas', operator: 'gt', value: '3' });
  });

  test('documented Orkestra: spec.notification with slack.webhook forms; 15m when no interval is given', () => {
    const text = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: shop }
spec:
  notification:
    slack: { webhook: "https://hooks.example.com/a" }
    teams:
      ops:
        slack: { webhook: "https://hooks.example.com/b", channels: ["#ops"] }
      dev:
        email: [dev@example.com]
${CRD.replace('spec:\n', '')}`;
    const teams = parseDefinition(text, { source: 'k.yaml' }).notification?.teams;
    assert.deepEqual(teams?.get('ops')?.webhook, { kind: 'url', url: 'https://hooks.example.com/b' });
    assert.deepEqual(teams?.get('ops')?.slack, ['#ops']);
    assert.deepEqual(teams?.get('dev')?.webhook, { kind: 'url', url: 'https://hooks.example.com/a' });
    assert.equal(teams?.get('dev')?.intervalMs, 15 * 60_000);
  });

  test('a bad webhook URL, a message that does not compile and a malformed notify are errors at file:line:column', () => {
    const problems = loadProblems(
      current(
        `notification:
  teams:
    platform:
      slackWebhookUrl: "not a url"
      message: "{{ .metadata.name "
`,
        CRD.replace('notify: [platform]', 'notify: { teams: platform }'),
      ),
    );
    const url = problems.find((p) => p.path === 'notification.teams.platform.slackWebhookUrl' || p.message.includes('slackWebhookUrl must be'));
    assert.ok(url, JSON.stringify(problems));
    assert.equal(url.line, 7);
    assert.ok(!url.message.includes('not a url'), 'the written URL (a secret) is not repeated');
    const message = problems.find((p) => p.line === 8);
    assert.ok(message, JSON.stringify(problems));
    const notify = problems.find((p) => p.line === 33);
    assert.ok(notify, `the malformed notify.teams is reported where it is written: ${JSON.stringify(problems)}`);
  });

  test('a rule naming a team the document does not declare loads (Orkestra skips such a team)', () => {
    const crd = parseDefinition(current('', CRD), { source: 'k.yaml' }).crds.get('widget');
    assert.equal(crd?.notifications?.length, 2);
  });

  test('katalog.dev/v1 writes the same as spec.notification and a CRD\'s notifications list', () => {
    const definition = parseDefinition(
      `apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: shop }
spec:
  notification:
    teams: { ops: { slack: ["#ops"], slackWebhookUrl: "http://127.0.0.1:9/x", interval: 1m } }
  crds:
    widget:
      apiTypes: { group: demo.katalog.dev, version: v1, kind: Widget, plural: widgets }
      notifications:
        - when: [{ field: status.phase, operator: equals, value: Failed }]
          teams: [ops]
          message: "{{ .metadata.name }} failed"
`,
      { source: 'k.yaml' },
    );
    assert.equal(definition.notification?.teams.get('ops')?.intervalMs, 60_000);
    assert.deepEqual(definition.crds.get('widget')?.notifications?.[0]?.when, [{ field: 'status.phase', operator: 'eq', value: 'Failed' }]);
  });
});

test('a write-back (definitionToInput) loads to the same teams and rules', () => {
  const definition = parseDefinition(current(TEAMS), { source: 'k.yaml' });
  const again = parseDefinition(JSON.stringify(definitionToInput(definition)), { source: 'back.yaml' });
  assert.deepEqual([...(again.notification?.teams.values() ?? [])], [...(definition.notification?.teams.values() ?? [])]);
  assert.deepEqual(
    again.crds.get('widget')?.notifications?.map(({ when, teams, message }) => ({ when, teams, message })),
    definition.crds.get('widget')?.notifications?.map(({ when, teams, message }) => ({ when, teams, message })),
  );
});
