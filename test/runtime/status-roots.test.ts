// The roots status fields and Events read beside the object: `.health` (the CRD's own health, as Orkestra's health
// route shapes it) and `.metrics`, each added only when the CRD's status or Events read it as a root.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import type { CrdDefinition } from '../../src/definition/types.js';
import type { CrdHealthSnapshot } from '../../src/observe/health.js';
import type { CrdAutoscale } from '../../src/runtime/autoscale-wiring.js';
import { withStatusRoots } from '../../src/runtime/status-roots.js';

function crdWith(fields: readonly string[]): CrdDefinition {
  const lines = fields.map((value, i) => `            - { path: f${i}, value: '${value}' }`).join('\n');
  const definition = parseDefinition(`apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: roots }
spec:
  crds:
    app:
      apiTypes: { group: demo.io, version: v1, kind: App, plural: apps }
      operatorBox:
        status:
          fields:
${lines}
`);
  return definition.crds.get('app') ?? assert.fail('no crd');
}

const snapshot = (state: CrdHealthSnapshot['state'], lastError: string | null): CrdHealthSnapshot => ({
  name: 'app', state, started: state !== 'pending', pendingReason: undefined, startedAt: null, uptime: '0s',
  consecutiveFails: 0, failureThreshold: 3, lastError, lastReconcile: null, errorRate: 0, totalReconciles: 0,
});
/** The data a status write renders with (here only a spec). */
const base = (): Record<string, unknown> => ({ spec: {} });
const figures = { templateFigures: () => ({ workers: 2, autoscaleActive: false }) } as unknown as CrdAutoscale;

describe('status roots', () => {
  test('.health: the name, state, healthy and lastError ("" when none), read at each render', () => {
    let current = snapshot('healthy', null);
    const add = withStatusRoots(crdWith(['{{ .health.state }}']), () => undefined, () => current);
    assert.deepEqual(add(base()), { spec: {}, health: { name: 'app', state: 'healthy', healthy: true, lastError: '' } });
    current = snapshot('degraded', 'external call "db" failed: HTTP status 503 (expected 2xx)');
    assert.deepEqual(add(base())['health'], { name: 'app', state: 'degraded', healthy: false, lastError: 'external call "db" failed: HTTP status 503 (expected 2xx)' });
  });

  test('added only when read as a root: not for .cross.x.healthy or .cross.x.metrics', () => {
    const asked: string[] = [];
    const health = (): CrdHealthSnapshot => (asked.push('health'), snapshot('healthy', null));
    const autoscaler = (): CrdAutoscale => (asked.push('metrics'), figures);
    const none = withStatusRoots(crdWith(['{{ .cross.loaderHealth.healthy }}', '{{ .cross.loader.metrics.queueDepth }}']), autoscaler, health);
    assert.deepEqual(none(base()), { spec: {} });
    assert.deepEqual(asked, [], 'nothing computed');
    const both = withStatusRoots(crdWith(['{{ .metrics.workers }}', '{{ .health.lastError }}']), autoscaler, health);
    const data = both(base());
    assert.deepEqual(data['metrics'], { workers: 2, autoscaleActive: false });
    assert.equal((data['health'] as { healthy: boolean }).healthy, true);
  });

  test('without a health source (a controller built outside the runtime) .health stays absent', () => {
    assert.deepEqual(withStatusRoots(crdWith(['{{ .health.state }}']), () => undefined, undefined)(base()), { spec: {} });
  });
});
