// The corpus' current/12-autoscale-sibling end to end against the test API server (real client-node over HTTP): the
// processor reads another Orkestra process (the Loader's operator) over HTTP through three cross entries (its CR
// route, its health route, its CRD route with the figures) and autoscales on the Loader's queue depth read there.
// A local HTTP server on 127.0.0.1 stands in for that process with the JSON shapes Orkestra serves. The document is
// loaded as written but for the other process's address (http://localhost:8080 → the stand-in's) and the autoscale
// timings (interval 20s → 100ms, cooldown 3m → 400ms, the figures' cacheFor 30s → 100ms), so that the run takes a
// moment.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { parseDefinition } from '../../src/definition/index.js';
import type { Logger } from '../../src/observe/logger.js';
import { CORPUS, cr, runningDefinition, type Obj } from '../support/orkestra-run.js';
import { waitFor } from '../support/cluster.js';
import type { Definition } from '../../src/definition/types.js';
import { Registry } from 'prom-client';

const FILE = `${CORPUS}/current/12-autoscale-sibling/katalog-processor.yaml`;
const GROUP = 'autoscale.orkestra.io/v1alpha1';

/** The stand-in for the Loader's Orkestra process: its answers can be changed and its requests are counted. */
class OtherProcess {
  readonly requests: string[] = [];
  queueDepth = 75;
  crStatus = 200;
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const path = req.url ?? '';
      this.requests.push(path);
      const send = (status: number, body: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (path === '/katalog/loader/cr/default/my-loader') {
        if (this.crStatus !== 200) send(this.crStatus, { error: 'secret-token-in-error' });
        else send(200, { name: 'my-loader', namespace: 'default', spec: { batch: 50 }, status: { phase: 'Loading' }, children: { deployment: { ready: 'true' } } });
      } else if (path === '/katalog/loader/health') {
        send(200, { name: 'loader', state: 'healthy', healthy: true, lastError: '' });
      } else if (path === '/katalog/loader') {
        send(200, { name: 'loader', workers: 2, metrics: { queueDepth: this.queueDepth, workers: 2, workersBusyPercent: 100 } });
      } else send(404, { error: 'not found' });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }

  count(path: string): number {
    return this.requests.filter((request) => request === path).length;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

describe('Orkestra corpus, run: current/12-autoscale-sibling (cross reads and autoscale over HTTP)', () => {
  const other = new OtherProcess();
  const logs: string[] = [];
  let definition: Definition | undefined;
  const registry = new Registry();
  const line = (message: string, fields?: Record<string, unknown>): void => void logs.push(`${message} ${JSON.stringify(fields ?? {})}`);
  const logger = (): Logger => ({ debug: () => undefined, info: line, warn: line, error: line, child: () => logger() });

  before(async () => {
    const address = await other.start();
    const text = (await readFile(FILE, 'utf8')).replaceAll('http://localhost:8080', address).replace('interval: 20s', 'interval: 100ms').replace('cooldown: 3m', 'cooldown: 400ms')
      .replace('protocol: metrics\n              cacheFor: 30s', 'protocol: metrics\n              cacheFor: 100ms');
    definition = parseDefinition(text, { source: FILE });
  });
  after(() => other.stop());
  const server = runningDefinition(async () => definition ?? assert.fail('no definition'), {
    runtime: { logger: logger(), registry },
  });
  const status = async (name: string): Promise<Obj> => (server().get(GROUP, 'Processor', name, 'default') as Obj | undefined)?.status ?? {};

  test("the children are made and the status reads the other process's CR, health and figures as Orkestra shapes them", async () => {
    const def = definition ?? assert.fail('no definition');
    server().create(cr(def, 'proc', { image: 'busybox:1.36', replicas: 1 }));
    await waitFor('Deployment', () => server().get('apps/v1', 'Deployment', 'proc-deployment', 'default'));
    const current = await waitFor('status with the cross reads', async () => {
      const value = await status('proc');
      return value['loaderState'] === 'Loading' ? value : undefined;
    });
    assert.equal(current['phase'], 'Running');
    assert.equal(current['loaderDeploymentReady'], 'true');
    assert.equal(current['loaderHealthy'], 'true');
    assert.equal(current['loaderPhase'], 'healthy');
    assert.equal(current['loaderQueueDepth'], '75');
    assert.equal(current['state'], 'healthy', "its own health (.health.state), as Orkestra's health route shapes it");
    assert.equal(current['lastError'], '', 'no error yet (.health.lastError)');
    assert.ok(other.count('/katalog/loader/cr/default/my-loader') >= 1);
  });

  test("the Loader's queue depth over 60 brings the processor's 8 workers; below it, after the cool-down, the declared 2", async () => {
    // The status fields show it at the next cycle (a change of the custom resource).
    await waitFor('autoscale applied', async () => {
      server().patch(GROUP, 'Processor', 'proc', { metadata: { labels: { tick: String(Date.now()) } } }, { namespace: 'default' });
      const value = await status('proc');
      return value['autoscaleActive'] === 'true' && value['workers'] === '8';
    });
    other.queueDepth = 10;
    await waitFor('autoscale restored', async () => {
      server().patch(GROUP, 'Processor', 'proc', { metadata: { labels: { tick: String(Date.now()) } } }, { namespace: 'default' });
      const value = await status('proc');
      return value['autoscaleActive'] === 'false' && value['workers'] === '2';
    });
  });

  test('cacheFor: the health route is read once for many cycles; the CR route (no cacheFor) at every cycle', async () => {
    const health = other.count('/katalog/loader/health');
    const crReads = other.count('/katalog/loader/cr/default/my-loader');
    for (let i = 0; i < 3; i++) {
      server().patch(GROUP, 'Processor', 'proc', { metadata: { labels: { tick: `c${i}` } } }, { namespace: 'default' });
      await waitFor(`cycle ${i}`, () => other.count('/katalog/loader/cr/default/my-loader') > crReads + i);
    }
    assert.equal(other.count('/katalog/loader/health'), health, 'the 30s cache answered');
  });

  test('a failed read is the empty value and the cycle goes on, with a warning naming the entry and a metric; no answer text or URL in the logs', async () => {
    other.crStatus = 503;
    server().patch(GROUP, 'Processor', 'proc', { metadata: { labels: { tick: 'failed' } } }, { namespace: 'default' });
    await waitFor('the warning', () => logs.some((entry) => entry.includes('cross read over HTTP failed') && entry.includes('"cross":"loaderCRInfo"') && entry.includes('HTTP status 503 (expected 200)')));
    const failures = Number(/controller_cross_source_failures_total\{crd="processor"\} (\d+)/.exec(await registry.metrics())?.[1]);
    assert.ok(failures >= 1, String(failures));
    assert.ok(!logs.some((entry) => entry.includes('secret-token-in-error') || entry.includes('127.0.0.1')), logs.join(' | '));
    // The cycle succeeded (Orkestra's empty value is no error): Ready stays True, and the children are kept.
    const ready = ((await status('proc'))['conditions'] as Obj[] | undefined)?.find((condition) => condition['type'] === 'Ready');
    assert.equal(ready?.['status'], 'True');
    other.crStatus = 200;
  });
});
