// Orkestra's clock notes read the runtime's `clock` option, not the system time: end to end through the real
// client-node against the test API server, a runtime whose clock is shifted to Saturday 2030-06-01 12:00 UTC (timers
// stay real, as in orkestra-autoscale-windows-run) renders status fields, a child's data and a child's `when` from
// that clock (docs/orkestra-compatibility.md#clock-notes). With the system time (a weekday in 2026 when this was
// written) every assertion below fails: `timeAgo` of a 2030 timestamp, the weekend, the next 02:00 of 2030.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import { systemClock, type Clock } from '../../src/util/clock.js';
import { waitFor } from '../support/cluster.js';
import { runningDefinition, type Obj } from '../support/orkestra-run.js';

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: clock-shift }
spec:
  crds:
    grant:
      apiTypes: { group: shift.orkestra.io, version: v1, kind: Grant, plural: grants }
      operatorBox:
        reconciler: { resync: 1h }
        status:
          fields:
            - path: issued
              value: "{{ timeAgo .spec.issuedAt }}"
            - path: expired
              value: "{{ isExpired .spec.issuedAt \\"1d\\" }}"
            - path: day
              value: "{{ if weekend }}weekend{{ else }}weekday{{ end }}"
        onReconcile:
          configMaps:
            - name: "{{ .metadata.name }}-window"
              data:
                nextRun: '{{ nextCron "0 2 * * *" }}'
              when:
                - field: '{{ timeInWindow "11:00" "13:00" }}'
                  equals: "true"
`;

/** Saturday 2030-06-01 12:00:00 UTC. */
const SHIFTED_TO = Date.UTC(2030, 5, 1, 12);
const DAY = 86_400_000;

describe('Orkestra clock notes on the runtime clock, run: a clock shifted to a Saturday noon in 2030', () => {
  const offset = SHIFTED_TO - Date.now();
  const clock: Clock = { now: () => Date.now() + offset, setTimeout: systemClock.setTimeout, clearTimeout: systemClock.clearTimeout };
  const server = runningDefinition(async () => parseDefinition(KATALOG, { source: 'clock-shift.yaml' }), { runtime: { clock } });

  test('status fields, a child body and a child condition all read the shifted clock', async () => {
    const issuedAt = new Date(SHIFTED_TO - 3 * DAY).toISOString();
    server().create({ apiVersion: 'shift.orkestra.io/v1', kind: 'Grant', metadata: { name: 'g', namespace: 'default' }, spec: { issuedAt } });
    const status = await waitFor('the status fields', () => (server().get('shift.orkestra.io/v1', 'Grant', 'g', 'default') as Obj | undefined)?.status?.['issued'] === undefined ? undefined : (server().get('shift.orkestra.io/v1', 'Grant', 'g', 'default') as Obj).status);
    assert.equal(status?.['issued'], '3d ago', 'three days before the runtime clock');
    assert.equal(status?.['expired'], 'true');
    assert.equal(status?.['day'], 'weekend', '2030-06-01 is a Saturday');
    const child = await waitFor('the child made inside the 11:00-13:00 window', () => server().get('v1', 'ConfigMap', 'g-window', 'default') as Obj | undefined);
    assert.equal((child['data'] as Record<string, unknown>)['nextRun'], '2030-06-02T02:00:00Z');
  });
});
