// An autoscale condition's own source end to end (real client-node over HTTP against the test API server, and a
// stand-in for the other Orkestra process on 127.0.0.1): the processor's rule reads
// cross.loader.metrics.queueDepth from the condition's source (GET <host>/katalog/loader, the answer's metrics),
// before the cross entry's source for the same CRD, which is never asked. A backlog there brings four workers;
// a failing source makes the condition false (the declared worker comes back after the cool-down), with a warning
// and controller_cross_source_failures_total counted, never silently.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Logger } from '../../src/observe/logger.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';
import { localServer } from '../support/local-server.js';

const katalog = (port: number, fallback: number): string => `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: remote-figures }
spec:
  crds:
    processor:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Processor, plural: processors }
      operatorBox:
        status: { conditions: false }
        reconciler:
          workers: 1
          cross:
            - crd: loader
              source: { host: "http://127.0.0.1:${fallback}", protocol: metrics }
        autoscale:
          interval: 50ms
          cooldown: 300ms
          conditions:
            when:
              - field: cross.loader.metrics.queueDepth
                greaterThan: "3"
                source:
                  host: "http://127.0.0.1:${port}"
                  type: metrics
                  timeout: 2s
          do: { workers: 4 }
`;

describe("autoscale condition source: another process's figures read from the condition's own source", () => {
  let server: TestApiServer;
  let runtime: Runtime;
  const asked: string[] = [];
  const fallbackAsked: string[] = [];
  const warnings: string[] = [];
  let answer: { status: number; queueDepth: number } = { status: 200, queueDepth: 0 };
  const figures = localServer((req, res) => {
    asked.push(req.url ?? '');
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ name: 'loader', metrics: { queueDepth: answer.queueDepth, workers: 2 } }));
  });
  const fallback = localServer((req, res) => {
    fallbackAsked.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ metrics: { queueDepth: 100 } }));
  });
  const logger = (): Logger => {
    const warn = (message: string, fields?: Record<string, unknown>): void => void warnings.push(`${message} ${String(fields?.['reason'] ?? '')}`);
    return { debug: () => undefined, info: () => undefined, warn, error: warn, child: () => logger() };
  };
  const metric = async (pattern: RegExp): Promise<string | undefined> => pattern.exec(await runtime.registry.metrics())?.[1];
  const workersMax = (): Promise<string | undefined> => metric(/controller_workers_max\{crd="processor"\} (\d+)/);

  before(async () => {
    const port = await figures.start();
    const other = await fallback.start();
    server = await startTestApiServer();
    server.create(crdManifest({ group: 'demo.orkestra.io', kind: 'Processor', plural: 'processors', scope: 'Namespaced', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    runtime = createRuntime(parseDefinition(katalog(port, other)), { kubeConfig: server.kubeConfig, watch: FAST_WATCH, logger: logger(), rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
    await figures.stop();
    await fallback.stop();
  });

  test('a backlog served there brings four workers; the cross entry is not asked', async () => {
    await waitFor('the figures read', () => asked.length > 0);
    assert.equal(await workersMax(), '1', 'queueDepth 0 does not hold');
    answer = { status: 200, queueDepth: 9 };
    await waitFor('the rule applied', async () => (await workersMax()) === '4');
    assert.ok(asked.every((url) => url === '/katalog/loader'), asked.join(' '));
    assert.deepEqual(fallbackAsked, [], "the condition's own source comes first");
  });

  test('a failing source is a false condition: the declared worker returns, with a warning and the failure counted', async () => {
    answer = { status: 503, queueDepth: 9 };
    await waitFor('back to one worker after the cool-down', async () => (await workersMax()) === '1');
    assert.ok(warnings.some((line) => line.includes('cross read over HTTP failed') && line.includes('HTTP status 503')), warnings.join(' | '));
    const failures = Number(await metric(/controller_cross_source_failures_total\{crd="processor"\} (\d+)/));
    assert.ok(failures >= 1, String(failures));
    assert.ok(warnings.every((line) => !line.includes('127.0.0.1')), 'no URL in the messages');
  });
});
