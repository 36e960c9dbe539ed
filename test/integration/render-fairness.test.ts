// Fairness under expensive templates: one CRD ("hog") renders templates that are refused for taking too long and
// templates with long outputs, continuously, while another CRD ("calm") keeps getting custom resources created.
// The calm resources must reconcile with a p99 under 1 s, the event loop must stay responsive, and a refused
// render must show as Ready=False with a clear message within about a second.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createRuntime } from '../../src/create-runtime.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, customResource, katalog, katalogEntry, waitFor, type CrdSpec } from '../support/cluster.js';

const HOG: CrdSpec = { kind: 'Hog', plural: 'hogs' };
const CALM: CrdSpec = { kind: 'Calm', plural: 'calms' };

/**
 * Builds a 100 KB text once, then copies it with `replace` on every turn: a few steps per turn but a millisecond or
 * more of work each, so that 9,999 turns would take many seconds unbounded. The custom resources stay tiny: the
 * cost is all in the render.
 */
const SLOW = '{{ $s := printf "%0100000d" 0 }}{{ range $i := .spec.turns }}{{ $x := replace "0" "1" $s }}{{ end }}';

type Obj = Record<string, unknown> & { status?: { conditions?: Array<{ type: string; status: string; message: string }> } };

function ready(server: TestApiServer, spec: CrdSpec, name: string): { status: string; message: string } | undefined {
  const object = server.get('example.io/v1', spec.kind, name, 'default') as Obj | undefined;
  return object?.status?.conditions?.find((c) => c.type === 'Ready');
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

describe('fairness under expensive templates', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  before(async () => {
    server = await startTestApiServer();
    server.applyCrd(crdManifest(HOG));
    server.applyCrd(crdManifest(CALM));
    await server.settled();
    runtime = createRuntime(
      katalog({
        hog: katalogEntry(HOG, {
          workers: 4,
          operatorBox: {
            onReconcile: {
              configMaps: [
                {
                  name: '{{ .metadata.name }}',
                  when: [{ field: 'spec.mode', operator: 'eq', value: 'slow' }],
                  data: { v: SLOW },
                },
                {
                  name: '{{ .metadata.name }}-long',
                  when: [{ field: 'spec.mode', operator: 'eq', value: 'long' }],
                  data: { v: '{{ range $i := .spec.turns }}{{ printf "%s-%d;" $.metadata.name $i }}{{ end }}' },
                },
              ],
            },
          },
        }),
        calm: katalogEntry(CALM, { workers: 4, operatorBox: { onReconcile: { configMaps: [{ name: '{{ .metadata.name }}', data: { value: '{{ .spec.value }}' } }] } } }),
      }),
      { kubeConfig: server.kubeConfig, watch: FAST_WATCH },
    );
    await runtime.start();
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
  });

  test('a refused render shows as Ready=False, saying which limit, within about a second', async () => {
    const created = Date.now();
    server.create(customResource(HOG, 'alone', { mode: 'slow', turns: 9999 }));
    const condition = await waitFor('Ready=False', () => (ready(server, HOG, 'alone')?.status === 'False' ? ready(server, HOG, 'alone') : undefined));
    const took = Date.now() - created;
    console.log(`# refused render → Ready=False: ${took}ms`);
    assert.match(condition?.message ?? '', /onReconcile\.configMaps\[0\]\.data\.v:1:\d+: the render took longer than the limit of 250ms/);
    assert.ok(took < 1500, `Ready=False after ${took}ms`);
  });

  /**
   * Creates a calm resource every 200 ms for `ms` and measures, for each, the time until its child carries its
   * value; `during` runs every 2 s (keeps the hog busy). Also measures the event loop's delay meanwhile.
   */
  async function measureCalm(prefix: string, ms: number, during: () => void): Promise<{ latencies: number[]; p50: number; p99: number; loopMax: number; loopP99: number }> {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const latencies: number[] = [];
    const pending = new Map<string, number>();
    const stopAt = Date.now() + ms;
    let next = 0;
    let round = 0;
    let created = 0;
    while (Date.now() < stopAt || pending.size > 0) {
      if (Date.now() < stopAt && Date.now() >= next) {
        const name = `${prefix}-${created++}`;
        server.create(customResource(CALM, name, { value: name }));
        pending.set(name, Date.now());
        next = Date.now() + 200;
        if (++round % 10 === 0) during();
      }
      for (const [name, since] of pending) {
        const child = server.get('v1', 'ConfigMap', name, 'default') as { data?: Record<string, string> } | undefined;
        if (child?.data?.['value'] === name) {
          latencies.push(Date.now() - since);
          pending.delete(name);
        } else if (Date.now() - since > 20_000) assert.fail(`${name} not reconciled after 20 s`);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    delay.disable();
    return { latencies, p50: percentile(latencies, 50), p99: percentile(latencies, 99), loopMax: Math.round(delay.max / 1e6), loopP99: Math.round(delay.percentile(99) / 1e6) };
  }

  test('abusive renders on one CRD: the other CRD reconciles with p99 under 1 s and the event loop stays responsive', async () => {
    // What this machine gives the calm side without abuse, measured the same way just before.
    const baseline = await measureCalm('base', 3000, () => undefined);
    // The hog: 30 resources whose render is refused after 250 ms each, again and again (spec updates keep them
    // coming back instead of settling into a long backoff), and 5 that render long outputs (~110 KB) once.
    for (let i = 0; i < 30; i++) server.create(customResource(HOG, `slow-${i}`, { mode: 'slow', turns: 9999 }));
    for (let i = 0; i < 5; i++) server.create(customResource(HOG, `long-${i}`, { mode: 'long', turns: 9000 }));
    await waitFor('the hog to be busy', () => ready(server, HOG, 'slow-0') !== undefined, 10_000);
    let touch = 0;
    const abused = await measureCalm('calm', 8000, () => {
      touch++;
      for (let i = 0; i < 30; i++) server.patch('example.io/v1', 'Hog', `slow-${i}`, { spec: { touch } }, { namespace: 'default' });
    });
    const refused = Array.from({ length: 30 }, (_, i) => ready(server, HOG, `slow-${i}`)).filter((c) => c?.status === 'False').length;
    console.log(
      `# calm reconciles: baseline n=${baseline.latencies.length} p50=${baseline.p50}ms p99=${baseline.p99}ms loop max=${baseline.loopMax}ms; ` +
        `under abuse n=${abused.latencies.length} p50=${abused.p50}ms p99=${abused.p99}ms loop p99=${abused.loopP99}ms max=${abused.loopMax}ms; hog resources refused: ${refused}/30`,
    );
    assert.ok(abused.latencies.length >= 20, `only ${abused.latencies.length} calm resources measured`);
    assert.ok(refused >= 5, `the hog was not abusive enough: ${refused} slow resources refused`);
    // p99 under 1 s, as the issue asks (measured 17–54 ms on a quiet 2-core machine; the baseline is printed so that
    // a failure on a machine loaded by other work shows whether the abuse or the machine was slow).
    assert.ok(abused.p99 < 1000, `p99 ${abused.p99}ms under abuse (baseline p99 ${baseline.p99}ms)`);
    // One render is bounded by 250 ms (plus at most one function call): the loop never stalls for seconds.
    assert.ok(abused.loopMax < 1000 + baseline.loopMax, `the event loop stalled for ${abused.loopMax}ms (baseline ${baseline.loopMax}ms)`);
  });
});
