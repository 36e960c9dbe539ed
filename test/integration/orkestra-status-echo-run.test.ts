// The echo of a status write in an Orkestra document, end to end against the test API server through the real
// client-node (docs/orkestra-compatibility.md#status-echo): a child whose condition reads the phase the last cycle
// wrote is made on that write's echo (no resync: it is an hour here), a steady object costs no further write, and a
// status that changes on every render (a counter over its own value) stops after MAX_ECHO_CHAIN followed echoes until
// another trigger, instead of looping.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import { MAX_ECHO_CHAIN } from '../../src/controller/status-echo.js';
import type { TestApiServer } from '../../src/testing/index.js';
import { runningDefinition } from '../support/orkestra-run.js';
import { waitFor } from '../support/cluster.js';
import type { Logger } from '../../src/observe/logger.js';

/** A logger that keeps each line's level, message and fields. */
function recording(lines: { level: string; message: string; fields: Record<string, unknown> }[]): Logger {
  const at = (level: string) => (message: string, fields: Record<string, unknown> = {}) => void lines.push({ level, message, fields });
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: () => logger };
  return logger;
}

const katalog = (box: string): string => `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: echo }
spec:
  crds:
    app:
      apiTypes: { group: echo.orkestra.io, version: v1alpha1, kind: App, plural: apps }
      operatorBox:
        reconciler:
          resync: 1h
${box}`;

const API = 'echo.orkestra.io/v1alpha1';
const WRITES = new Set(['create', 'update', 'patch']);

/** Writes the runtime made to `resource` (a create names no object in its URL: `name` '' counts them all). */
function writes(server: TestApiServer, resource: string, name = '', subresource = ''): number {
  return server.requests.log().filter((r) => WRITES.has(r.verb) && r.resource === resource && (name === '' || r.name === name) && r.subresource === subresource).length;
}

describe('Orkestra status echo, run: a step that reads the phase its last cycle wrote', () => {
  const server = runningDefinition(async () =>
    parseDefinition(
      katalog(`        onCreate:
          configMaps:
            - name: "{{ .metadata.name }}-next"
              data: { phase: "{{ .status.phase }}" }
              when:
                - field: status.phase
                  equals: Running
        status:
          fields:
            - path: phase
              value: Running
`),
      { source: 'echo.yaml' },
    ),
  );

  test('the child comes on the echo of the phase write; then the object is steady: one status write, one child write', async () => {
    server().create({ apiVersion: API, kind: 'App', metadata: { name: 'a', namespace: 'default' }, spec: {} });
    const made = await waitFor('the child made on the echo', () => server().get('v1', 'ConfigMap', 'a-next', 'default') as { data?: Record<string, string> } | undefined);
    assert.equal(made.data?.['phase'], 'Running');
    // A second object goes through the same cycles on the same workers: by the time its child is there, a
    // self-loop of the first would have written again.
    server().create({ apiVersion: API, kind: 'App', metadata: { name: 'b', namespace: 'default' }, spec: {} });
    await waitFor('the second child', () => server().get('v1', 'ConfigMap', 'b-next', 'default'));
    await waitFor('the second object settled', () => server().get(API, 'App', 'b', 'default')?.['status'] !== undefined);
    assert.equal(writes(server(), 'apps', 'a', 'status'), 1, 'the echo cycle renders the same status and writes nothing');
    assert.equal(writes(server(), 'apps', 'b', 'status'), 1);
    assert.equal(writes(server(), 'configmaps'), 2, 'one child write per object');
  });
});

describe('Orkestra status echo, run: a status that changes on every render', () => {
  const lines: { level: string; message: string; fields: Record<string, unknown> }[] = [];
  const server = runningDefinition(async () =>
    parseDefinition(
      katalog(`        status:
          fields:
            - path: ticks
              value: "{{ .status.ticks }}x"
`),
      { source: 'counter.yaml' },
    ),
    { runtime: { logger: recording(lines) } },
  );
  const capped = (key: string) => lines.filter((line) => line.message.startsWith('status echo not followed') && line.fields['key'] === key);
  const chain = 1 + MAX_ECHO_CHAIN; // the cycle of the event, then the echoes followed in a row

  test(`stops after ${MAX_ECHO_CHAIN} followed echoes; another trigger starts one more chain`, async () => {
    server().create({ apiVersion: API, kind: 'App', metadata: { name: 'c', namespace: 'default' }, spec: {} });
    await waitFor('the first chain', () => writes(server(), 'apps', 'c', 'status') >= chain);
    server().create({ apiVersion: API, kind: 'App', metadata: { name: 'd', namespace: 'default' }, spec: {} });
    await waitFor('a second object through its chain', () => writes(server(), 'apps', 'd', 'status') >= chain);
    assert.equal(writes(server(), 'apps', 'c', 'status'), chain, 'no write beyond the chain');
    server().patch(API, 'App', 'c', { metadata: { labels: { again: 'yes' } } }, { namespace: 'default' });
    await waitFor('the next chain', () => writes(server(), 'apps', 'c', 'status') >= 2 * chain);
    server().patch(API, 'App', 'd', { metadata: { labels: { again: 'yes' } } }, { namespace: 'default' });
    await waitFor('the second object\'s next chain', () => writes(server(), 'apps', 'd', 'status') >= 2 * chain);
    assert.equal(writes(server(), 'apps', 'c', 'status'), 2 * chain);
    // Each capped chain is logged once, as a warning naming the CRD, the object and the cap.
    await waitFor('the second cap of c logged', () => capped('default/c').length >= 2);
    await waitFor('the second cap of d logged', () => capped('default/d').length >= 2);
    assert.equal(capped('default/c').length, 2);
    assert.deepEqual(capped('default/c')[0], { level: 'warn', message: capped('default/c')[0]?.message, fields: { crd: 'app', key: 'default/c', chain: MAX_ECHO_CHAIN } });
  });
});
