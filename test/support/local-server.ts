// A plain HTTP server on 127.0.0.1 standing in for a service the runtime calls (Slack, an HTTP API, Prometheus):
// `start()` listens on a free port and gives it; `stop()` closes every connection, so the process can exit.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalServer {
  start(): Promise<number>;
  stop(): Promise<void>;
}

export function localServer(handle: (req: IncomingMessage, res: ServerResponse) => void): LocalServer {
  let server: Server | undefined;
  return {
    start: () =>
      new Promise((resolve) => {
        server = createServer(handle);
        server.listen(0, '127.0.0.1', () => resolve((server?.address() as AddressInfo).port));
      }),
    stop: () =>
      new Promise((resolve) => {
        server?.closeAllConnections();
        server?.close(() => resolve());
      }),
  };
}
