// A watch stream is read as bytes and cut into lines: events arrive whole and in order however the server's writes
// split them (inside a line, inside a multi-byte character, several lines in one write, a last line with no newline),
// and a line that is not JSON ends the watch with an error that says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient, type WatchEventType } from '../../src/kube/client.js';
import type { KubeObject, ResourceRef } from '../../src/kube/resource.js';

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };

/** Serves one watch answer written as `pieces`, each in a write of its own, a turn of the event loop apart. */
async function watchOf(pieces: readonly Buffer[]): Promise<{ events: Array<[WatchEventType, KubeObject]>; error: Error | undefined }> {
  const server = createServer((_req, res: ServerResponse) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    let next = 0;
    const write = (): void => {
      const piece = pieces[next++];
      if (piece === undefined) res.end();
      else res.write(piece, () => setImmediate(write));
    };
    write();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromClusterAndUser({ name: 'c', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true }, { name: 'u' });
  const client = new KubeClient(kubeConfig);
  const events: Array<[WatchEventType, KubeObject]> = [];
  try {
    const { error } = await client.watch(CONFIGMAPS, {}, (type, object) => events.push([type, object])).done;
    return { events, error };
  } finally {
    client.close();
    server.closeAllConnections();
    server.close();
  }
}

const event = (name: string, value: string): string => JSON.stringify({ type: 'ADDED', object: { kind: 'ConfigMap', metadata: { name }, data: { value } } });

test('events split anywhere, even inside a multi-byte character, arrive whole and in order', async () => {
  const text = Buffer.from(`${event('a', 'grüße 😀')}\n\n${event('b', 'plain')}\n${event('c', 'ünïcödé')}`);
  // Cut every 7 bytes: some cuts fall inside ü, ß, 😀 and at the newlines.
  const pieces: Buffer[] = [];
  for (let at = 0; at < text.length; at += 7) pieces.push(text.subarray(at, at + 7));
  const { events, error } = await watchOf(pieces);
  assert.equal(error, undefined);
  assert.deepEqual(
    events.map(([type, object]) => [type, object.metadata?.name, (object['data'] as { value: string }).value]),
    [
      ['ADDED', 'a', 'grüße 😀'],
      ['ADDED', 'b', 'plain'],
      ['ADDED', 'c', 'ünïcödé'],
    ],
  );
});

test('several events in one write are all delivered; a line that is not JSON ends the watch with an error', async () => {
  const { events, error } = await watchOf([Buffer.from(`${event('a', '1')}\n${event('b', '2')}\n{"type":`), Buffer.from('"ADDED", broken\n')]);
  assert.deepEqual(
    events.map(([, object]) => object.metadata?.name),
    ['a', 'b'],
  );
  assert.match(error?.message ?? '', /watch stream sent a line that is not JSON: \{"type":"ADDED", broken/);
});
