// Orkestra's clock notes end to end through the real client-node against the test API server: a Katalog whose
// status fields and child read the time (timeAgo, timeSince, isExpired, weekday, nextCron), as Orkestra's catalog
// writes them. The status is rendered at each cycle, so the resync moves `age` on while nothing else changed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import { waitFor } from '../support/cluster.js';
import { runningDefinition, type Obj } from '../support/orkestra-run.js';

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: clock-notes }
spec:
  crds:
    lease:
      apiTypes: { group: demo.orkestra.io, version: v1, kind: Lease, plural: leases }
      operatorBox:
        reconciler: { resync: 1s }
        status:
          fields:
            - path: age
              value: "{{ timeSince .spec.issuedAt }}"
            - path: issued
              value: "{{ timeAgo .spec.issuedAt }}"
            - path: expired
              value: "{{ isExpired .spec.issuedAt .spec.ttl }}"
            - path: day
              value: "{{ if weekday }}weekday{{ else }}weekend{{ end }}"
        onReconcile:
          configMaps:
            - name: "{{ .metadata.name }}-schedule"
              data:
                nextSunday: '{{ nextCron "0 2 * * 0" }}'
`;

const HOUR = 3_600_000;

describe('Orkestra clock notes, run: status fields and a child that read the time', () => {
  const server = runningDefinition(async () => parseDefinition(KATALOG));
  const lease = (name: string, issuedAt: string, ttl: string): Obj => ({
    apiVersion: 'demo.orkestra.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'default' },
    spec: { issuedAt, ttl },
  });
  const status = (name: string): Record<string, unknown> | undefined => (server().get('demo.orkestra.io/v1', 'Lease', name, 'default') as Obj | undefined)?.status;

  test('written as Orkestra writes them, and moved on by the resync alone', async () => {
    const issuedAt = new Date(Date.now() - 2 * HOUR).toISOString();
    server().create(lease('old', issuedAt, '1h'));
    server().create(lease('fresh', issuedAt, '30d'));
    const first = await waitFor('status of old', () => (status('old')?.['age'] === undefined ? undefined : status('old')));
    const age = Number(first['age']);
    assert.ok(age >= 7200 && age < 7300, `about two hours in seconds: ${String(first['age'])}`);
    assert.equal(first['issued'], '2h ago');
    assert.equal(first['expired'], 'true', 'issued two hours ago with a one-hour ttl');
    assert.equal(await waitFor('status of fresh', () => status('fresh')?.['expired']), 'false');
    // The UTC day now or when the status was rendered (a UTC midnight may fall between).
    const dayAt = (ms: number): string => ([0, 6].includes(new Date(ms).getUTCDay()) ? 'weekend' : 'weekday');
    assert.ok([dayAt(Date.now()), dayAt(Date.now() - 10_000)].includes(String(first['day'])), String(first['day']));

    const child = await waitFor('ConfigMap old-schedule', () => server().get('v1', 'ConfigMap', 'old-schedule', 'default') as Obj | undefined);
    const next = String((child['data'] as Record<string, unknown>)['nextSunday']);
    assert.match(next, /^\d{4}-\d{2}-\d{2}T02:00:00Z$/);
    assert.equal(new Date(next).getUTCDay(), 0, 'a Sunday');
    assert.ok(Date.parse(next) > Date.now() && Date.parse(next) <= Date.now() + 7 * 24 * HOUR, 'the next one');

    await waitFor('age moved on by a resync', () => Number(status('old')?.['age']) >= age + 1, 10_000);
  });
});
