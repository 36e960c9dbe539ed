// Idle connections of the kept-alive node:http agent are closed by the sweeper after their idle time, one in use
// never is, and a request re-arms no socket timer (what Node's agent `timeout` option did on every request).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Agent, createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { IdleSocketSweeper } from '../../src/kube/idle-sockets.js';

const IDLE_MS = 150;

async function withServer(delayMs: number, body: (port: number) => Promise<void>): Promise<void> {
  const server = createServer((_req, res) => {
    setTimeout(() => res.end('ok'), delayMs);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    await body((server.address() as AddressInfo).port);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

function get(agent: Agent, port: number): Promise<{ text: string; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: '127.0.0.1', port, path: '/' }, (res: IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ text, socket: req.socket as Socket }));
    });
    req.on('error', reject);
    req.end();
  });
}

const freeCount = (agent: Agent): number => Object.values(agent.freeSockets).reduce((sum, list) => sum + (list?.length ?? 0), 0);

async function waitFor(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test('an idle connection is closed after the idle time, and reused before it', async () => {
  await withServer(0, async (port) => {
    const agent = new Agent({ keepAlive: true, maxFreeSockets: 8 });
    const sweeper = new IdleSocketSweeper(agent, IDLE_MS);
    try {
      const first = await get(agent, port);
      const second = await get(agent, port);
      assert.equal(second.socket, first.socket, 'the idle connection is reused');
      assert.equal(freeCount(agent), 1);
      const started = performance.now();
      await waitFor(() => freeCount(agent) === 0, 'the idle connection to close');
      assert.ok(performance.now() - started >= IDLE_MS - 20, 'not closed before its idle time');
      assert.ok(first.socket.destroyed);
      const third = await get(agent, port);
      assert.equal(third.text, 'ok', 'a new connection is opened afterwards');
      assert.equal(third.socket.timeout ?? 0, 0, 'a request leaves no socket timer armed');
    } finally {
      sweeper.stop();
      agent.destroy();
    }
  });
});

test('a connection in use longer than the idle time is not closed', async () => {
  await withServer(IDLE_MS * 3, async (port) => {
    const agent = new Agent({ keepAlive: true, maxFreeSockets: 8 });
    const sweeper = new IdleSocketSweeper(agent, IDLE_MS);
    try {
      // A short idle spell arms the sweeper; the slow request then takes that same connection past a sweep.
      await get(agent, port);
      const slow = await get(agent, port);
      assert.equal(slow.text, 'ok');
    } finally {
      sweeper.stop();
      agent.destroy();
    }
  });
});
