// Rotation durations and the rotation plan. Units from Orkestra's rotateAfter documentation and its rotating
// Motifs (orkspace/orkestra pkg/types/types_secret.go: "Accepts extended duration units (s, m, h, d, w, mo, y)";
// deployments/public/motifs/rotating-api-key/motif.yaml: rotateAfter "90d").
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/kube/resource.js';
import { GENERATED_AT, MAX_ROTATION_WAIT_MS, parseRotation, planRotation } from '../../src/operatorbox/rotation.js';

const DAY = 86_400_000;

describe('parseRotation', () => {
  const rows: Array<[string, number | undefined]> = [
    ['90d', 90 * DAY],
    ['2w', 14 * DAY],
    ['6mo', 180 * DAY],
    ['1y', 365 * DAY],
    ['12h', 12 * 3_600_000],
    ['1h30m', 90 * 60_000],
    ['1s', 1000],
    ['0', undefined],
    ['soon', undefined],
    ['', undefined],
    ['-1d', undefined],
  ];
  for (const [text, ms] of rows) test(`${JSON.stringify(text)} → ${ms}`, () => assert.equal(parseRotation(text), ms));
});

describe('planRotation', () => {
  const signal = new AbortController().signal;
  const now = Date.parse('2026-01-10T00:00:00Z');
  const manifest = (): KubeObject => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'k', namespace: 'default' } });
  const existing = (stamp?: string) => async () => ({ metadata: { name: 'k', annotations: stamp === undefined ? {} : { [GENERATED_AT]: stamp } } });

  test('a new Secret is stamped now and looked at again after the duration (at most a day)', async () => {
    const m = manifest();
    const plan = await planRotation(m, '1h', 'e', async () => undefined, now, signal);
    assert.deepEqual(plan, { regenerate: false, requeueAfterMs: 3_600_000 });
    assert.equal(m.metadata?.annotations?.[GENERATED_AT], new Date(now).toISOString());
    assert.equal((await planRotation(manifest(), '90d', 'e', async () => undefined, now, signal)).requeueAfterMs, MAX_ROTATION_WAIT_MS);
  });

  test('not due: the stamp is kept and the wait is what is left; due or unstamped: regenerate', async () => {
    const m = manifest();
    const plan = await planRotation(m, '1h', 'e', existing('2026-01-09T23:30:00Z'), now, signal);
    assert.deepEqual(plan, { regenerate: false, requeueAfterMs: 30 * 60_000 });
    assert.equal(m.metadata?.annotations?.[GENERATED_AT], '2026-01-09T23:30:00Z');
    assert.equal((await planRotation(manifest(), '1h', 'e', existing('2026-01-09T22:00:00Z'), now, signal)).regenerate, true);
    assert.equal((await planRotation(manifest(), '1h', 'e', existing(), now, signal)).regenerate, true);
    await assert.rejects(planRotation(manifest(), 'later', 'spec.x', existing(), now, signal), /spec\.x: rotateAfter must render a duration/);
  });
});
