// One informer shared by subscribers (the Events informer of observe.events), against the test API server over
// HTTP: opened by the first subscriber, one watch however many subscribe, the changes after a subscription only,
// stopped by the last one out and opened again by the next. Events are created through client-node's EventsV1Api.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventsV1Api, type EventsV1Event } from '@kubernetes/client-node';
import { KubeClient } from '../../src/kube/client.js';
import { SharedInformer } from '../../src/kube/shared-informer.js';
import type { InformerEvent } from '../../src/kube/informer.js';
import { EVENTS_RESOURCE } from '../../src/operatorbox/event-triggers.js';
import { systemClock } from '../../src/util/clock.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { waitFor } from '../support/cluster.js';

describe('SharedInformer on events.k8s.io/v1 Events', () => {
  let server: TestApiServer;
  let client: KubeClient;
  let api: EventsV1Api;
  before(async () => {
    server = await startTestApiServer();
    client = new KubeClient(server.kubeConfig);
    api = server.kubeConfig.makeApiClient(EventsV1Api);
  });
  after(async () => {
    client.close();
    await server.stop();
  });

  const event = (name: string, reason: string): EventsV1Event => ({
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name, namespace: 'default' },
    // A MicroTime takes exactly six digits of a second: client-node 1.4 sends a Date with three, which kube-apiserver
    // refuses (400 `parsing time ... as "2006-01-02T15:04:05.000000Z07:00"`); a string is sent as it is.
    eventTime: new Date().toISOString().replace(/Z$/, '000Z') as unknown as EventsV1Event['eventTime'],
    reason,
    type: 'Normal',
    action: 'Test',
    reportingController: 'example.com/test',
    reportingInstance: 'test-1',
    regarding: { apiVersion: 'v1', kind: 'Pod', name: 'web-0', namespace: 'default' },
    note: 'a test event',
  });
  const subscriber = () => {
    const seen: string[] = [];
    return { seen, onEvent: (e: InformerEvent) => seen.push(`${e.type}:${String(e.object.metadata?.name)}`) };
  };

  test('one watch for every subscriber, only changes after subscribing, closed by the last one out', async () => {
    await api.createNamespacedEvent({ namespace: 'default', body: event('before', 'Old') });
    const shared = new SharedInformer({ client, resource: EVENTS_RESOURCE, clock: systemClock, tuning: { backoff: { initialMs: 20, maxMs: 200 } } });
    const first = subscriber();
    const second = subscriber();
    assert.equal(server.watchCount({ resource: 'events' }), 0);
    await shared.subscribe(first);
    await shared.subscribe(second);
    assert.ok(shared.synced);
    await waitFor('the shared watch open', () => server.watchCount({ resource: 'events' }) === 1);

    await api.createNamespacedEvent({ namespace: 'default', body: event('after', 'New') });
    await waitFor('both subscribers told', () => first.seen.length > 0 && second.seen.length > 0);
    assert.deepEqual(first.seen, ['added:after'], 'the Event there before the subscription is not a change');
    assert.deepEqual(second.seen, ['added:after']);
    assert.equal(server.watchCount({ resource: 'events' }), 1, 'still one watch');

    await shared.unsubscribe(first);
    assert.equal(server.watchCount({ resource: 'events' }), 1, 'kept open for the other subscriber');
    await shared.unsubscribe(second);
    assert.equal(shared.synced, false);
    await waitFor('the watch closed with the last subscriber', () => server.watchCount({ resource: 'events' }) === 0);

    const third = subscriber();
    await shared.subscribe(third);
    await api.createNamespacedEvent({ namespace: 'default', body: event('later', 'New') });
    await waitFor('the reopened informer delivers', () => third.seen.includes('added:later'));
    assert.ok(!third.seen.includes('added:after'), 'a reopened informer lists again without replaying');
    await shared.unsubscribe(third);
    await waitFor('closed again', () => server.watchCount({ resource: 'events' }) === 0);
  });

  test('a first list that fails rejects subscribe and leaves nothing open; the next subscribe tries again', async () => {
    const missing = { ...EVENTS_RESOURCE, group: 'nowhere.example.io' };
    const shared = new SharedInformer({ client, resource: missing, clock: systemClock });
    await assert.rejects(shared.subscribe(subscriber()));
    assert.equal(shared.size, 0);
    assert.equal(shared.synced, false);
    await assert.rejects(shared.subscribe(subscriber()), 'tried again, failing again');
    assert.equal(shared.size, 0);
  });
});
