// Orkestra's notifications end to end: the runtime reconciles through the real client-node against the test API
// server; a local HTTP server (127.0.0.1) stands in for Slack. A condition with notify: that holds after a reconcile
// posts Slack's JSON ({text, attachments: [Katalog, Team]}, as iAlexeze/orkestra pkg/notification/slack.go) to the
// team's webhook, once per interval; a webhook written as an environment reference is filled by the host's option;
// a failing webhook is retried with backoff, then counted, logged and recorded as a Warning Event on the custom
// resource, and the reconcile's own result stands; a host sink receives what Slack would (email teams included).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Logger } from '../../src/observe/logger.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import type { Notification } from '../../src/runtime/notifier-options.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { localServer } from '../support/local-server.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown> & { metadata?: Record<string, unknown>; spec?: Record<string, unknown>; status?: Record<string, unknown> };
type Post = { path: string; body: { text?: string; attachments?: Array<{ color?: string; fields?: Array<{ title: string; value: string }> }> } };

const GROUP = 'demo.orkestra.io';
const SECRET_SPEC = 'spec-value-never-sent';

/** The Slack stand-in: answers per path (default 200 "ok"); records every POST. */
function slack(): { start: () => Promise<number>; stop: () => Promise<void>; status: Map<string, number>; posts: Post[] } {
  const status = new Map<string, number>();
  const posts: Post[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      posts.push({ path, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Post['body'] });
      res.writeHead(status.get(path) ?? 200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  };
  return {
    status,
    posts,
    ...localServer(handle),
  };
}

function katalog(port: number): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: shop }
notification:
  defaults:
    interval: 1h
  teams:
    platform:
      slack: ["#platform"]
      slackWebhookUrl: "http://127.0.0.1:${port}/platform"
    flaky:
      slack: ["#flaky"]
      slackWebhookUrl: "http://127.0.0.1:${port}/fail"
    oncall:
      slack: ["#oncall"]
      slackWebhookUrl: $ONCALL_WEBHOOK
      message: "oncall: {{ .metadata.name }}"
    mail:
      email: [ops@example.com]
spec:
  crds:
    widget:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Widget, plural: widgets }
      operatorBox:
        status:
          fields:
            - path: replicas
              value: "{{ .spec.replicas }}"
            - path: phase
              value: Big
              when:
                - field: spec.replicas
                  greaterThan: "3"
                  notify:
                    teams: [platform, mail, nobody]
                    message: "{{ .metadata.name }} has {{ .spec.replicas }} replicas"
            - path: mode
              value: "{{ .spec.mode }}"
              when:
                - field: spec.mode
                  notEquals: loud
                  notify: [oncall]
        onCreate:
          configMaps:
            - name: "{{ .metadata.name }}-cm"
              data: { mode: "{{ .spec.mode }}" }
              when:
                - field: spec.mode
                  equals: loud
                  notify: [flaky]
`;
}

function logger(lines: string[], bindings: Record<string, unknown> = {}): Logger {
  const line = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push(`${level} ${message} ${JSON.stringify({ ...bindings, ...fields })}`);
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error'), child: (more) => logger(lines, { ...bindings, ...more }) };
}

/** A test API server with the CRD, a runtime on the Katalog; both stopped after the describe. */
function run(options: (port: number) => Parameters<typeof createRuntime>[1]): { server: () => TestApiServer; runtime: () => Runtime; remote: ReturnType<typeof slack>; logs: string[] } {
  const remote = slack();
  const logs: string[] = [];
  let server: TestApiServer | undefined;
  let runtime: Runtime | undefined;
  before(async () => {
    const port = await remote.start();
    server = await startTestApiServer();
    const definition = parseDefinition(katalog(port), { source: 'notify.yaml' });
    server.create(crdManifest({ group: GROUP, kind: 'Widget', plural: 'widgets', scope: 'Namespaced', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    runtime = createRuntime(definition, { kubeConfig: server.kubeConfig, watch: FAST_WATCH, rateLimiter: { baseDelay: 20, maxDelay: 200 }, logger: logger(logs), ...options(port) });
    await runtime.start();
  });
  after(async () => {
    await runtime?.stop();
    await server?.stop();
    await remote.stop();
  });
  return { server: () => server ?? assert.fail('no server'), runtime: () => runtime ?? assert.fail('no runtime'), remote, logs };
}

const widget = (name: string, spec: Record<string, unknown>): Obj => ({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Widget', metadata: { name, namespace: 'default' }, spec: { ...spec, note: SECRET_SPEC } });

describe('Orkestra notifications, run: Slack', () => {
  const { server, runtime, remote, logs } = run((port) => ({ notifications: { slackWebhookUrl: `http://127.0.0.1:${port}/host`, attempts: 3, retryDelay: 20, timeout: 2000 } }));

  test('a condition that holds posts Slack\'s JSON with the rendered message to the team\'s webhook, once per interval', async () => {
    remote.status.set('/fail', 500);
    server().create(widget('w1', { replicas: 5, mode: 'quiet' }));
    const post = await waitFor('the POST to the platform webhook', () => remote.posts.find((p) => p.path === '/platform'));
    assert.equal(post.body.text, 'w1 has 5 replicas');
    assert.deepEqual(post.body.attachments, [{ color: 'warning', fields: [{ title: 'Katalog', value: 'shop', short: true }, { title: 'Team', value: 'platform', short: true }] }]);
    // The env reference ($ONCALL_WEBHOOK) is filled by the host's notifications.slackWebhookUrl.
    const oncall = await waitFor('the POST to the host webhook', () => remote.posts.find((p) => p.path === '/host'));
    assert.equal(oncall.body.text, 'oncall: w1');
    // Another reconcile while the condition still holds: the interval (1h) holds the notification back.
    server().patch(`${GROUP}/v1alpha1`, 'Widget', 'w1', { spec: { replicas: 6 } }, { namespace: 'default' });
    await waitFor('the status of the second reconcile', () => (server().get(`${GROUP}/v1alpha1`, 'Widget', 'w1', 'default') as Obj | undefined)?.status?.['replicas'] === '6');
    // Deliveries go in order through one loop: once a later notification arrived, an earlier one would have too.
    server().create(widget('w2', { replicas: 1, mode: 'loud' }));
    await waitFor('the later notification (to the failing webhook)', () => remote.posts.some((p) => p.path === '/fail'));
    assert.equal(remote.posts.filter((p) => p.path === '/platform').length, 1, 'throttled by the interval');
    for (const p of remote.posts) assert.ok(!JSON.stringify(p.body).includes(SECRET_SPEC), 'only what the template renders leaves');
    // A team the document does not declare is skipped (as Orkestra), and said once in the log; an email team without
    // a sink is said at start.
    assert.ok(logs.some((l) => l.includes('names a team the document does not declare') && l.includes('nobody')));
    assert.ok(logs.some((l) => l.includes('katalog sends no email') && l.includes('"team":"mail"')));
  });

  test('a failing webhook is retried with backoff, then counted, logged and recorded as a Warning Event; the reconcile stands', async () => {
    // w2's notification (the first test saw its first attempt) goes to a webhook that answers 500.
    const event = await waitFor('the NotificationFailed Event', () =>
      server()
        .objects({ apiVersion: 'v1', kind: 'Event', namespace: 'default' })
        .find((e) => e['reason'] === 'NotificationFailed' && (e['involvedObject'] as Obj | undefined)?.['name'] === 'w2'),
    );
    assert.equal(event['type'], 'Warning');
    assert.match(String(event['message']), /team "flaky" failed after every attempt: slack webhook answered 500/);
    assert.ok(!String(event['message']).includes('127.0.0.1'), 'the webhook URL is a secret');
    assert.equal(remote.posts.filter((p) => p.path === '/fail').length, 3, 'three attempts');
    assert.ok(logs.some((l) => l.startsWith('error notification failed') && l.includes('"team":"flaky"')));
    const metrics = await runtime().registry.metrics();
    assert.match(metrics, /controller_notifications_total\{crd="widget",team="flaky",result="failed"\} 1/);
    assert.match(metrics, /controller_notifications_total\{crd="widget",team="platform",result="sent"\} 1/);
    // The reconcile's result stands: w2 is Ready and its child exists.
    await waitFor('w2 Ready', () => ((server().get(`${GROUP}/v1alpha1`, 'Widget', 'w2', 'default') as Obj | undefined)?.status?.['conditions'] as Array<Record<string, unknown>> | undefined)?.some((c) => c['type'] === 'Ready' && c['status'] === 'True'));
    assert.ok(server().get('v1', 'ConfigMap', 'w2-cm', 'default'));
  });
});

describe('Orkestra notifications, run: the host\'s sink', () => {
  const received: Notification[] = [];
  const { server, remote } = run(() => ({ notifications: { notify: async (notification) => void received.push(notification) } }));

  test('the sink receives every team\'s notification (email teams too) and nothing is posted to Slack', async () => {
    server().create(widget('s1', { replicas: 9, mode: 'quiet' }));
    await waitFor('three notifications', () => received.length >= 3 && received);
    const byTeam = new Map(received.map((n) => [n.team, n]));
    assert.deepEqual([...byTeam.keys()].sort(), ['mail', 'oncall', 'platform']);
    const mail = byTeam.get('mail');
    assert.deepEqual(mail?.email, ['ops@example.com']);
    assert.equal(mail?.message, 's1 has 9 replicas');
    assert.equal(mail?.subject, 'spec.replicas condition triggered');
    assert.deepEqual(mail?.object, { kind: 'Widget', namespace: 'default', name: 's1' });
    assert.equal(mail?.katalog, 'shop');
    assert.equal(mail?.crd, 'widget');
    assert.equal(remote.posts.length, 0);
  });
});
