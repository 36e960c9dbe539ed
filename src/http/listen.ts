/**
 * A standalone HTTP server for a Hono app (the inspection router, or a host app that mounts it), through
 * `@hono/node-server`. `Runtime.listen()` delegates here; nothing in katalog opens a port unless asked.
 *
 * - `port` defaults to 8080; `0` picks a free port (read it back from the result).
 * - `hostname` defaults to every interface, as Node does, because the kubelet probes the pod IP; pass
 *   `"127.0.0.1"` to keep the API on loopback.
 * - Global `Request`/`Response` are left alone (`overrideGlobalObjects: false`): a library must not swap the
 *   host's globals.
 * - `tls: { key, cert }` (PEM) serves https instead (an admission webhook must be served over TLS).
 * - `close()` stops accepting, drops idle and in-flight keep-alive connections, and resolves once the server is
 *   closed, so the process can exit. It is idempotent.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { serve } from '@hono/node-server';
import { RuntimeError } from '../errors.js';

/** Anything with a fetch handler; a Hono app is one. */
export interface FetchApp {
  fetch(request: Request): Response | Promise<Response>;
}

export interface ListenOptions {
  /** TCP port; default 8080, `0` for any free port. */
  readonly port?: number;
  /** Address to bind; default: every interface. */
  readonly hostname?: string;
  /** Serve https with this PEM key and certificate (chain); default plain http. */
  readonly tls?: { readonly key: string; readonly cert: string };
}

export interface ListeningServer {
  /** Base URL to reach the server from this host, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  /** The port actually bound (useful with `port: 0`). */
  readonly port: number;
  /** Stops the server and closes every connection; resolves when it is closed. Idempotent. */
  close(): Promise<void>;
}

const DEFAULT_PORT = 8080;

/** Serves `app` on a TCP port. Rejects with a `RuntimeError` (`E_LISTEN`) when the port cannot be bound. */
export function listen(app: FetchApp, options: ListenOptions = {}): Promise<ListeningServer> {
  const port = options.port ?? DEFAULT_PORT;
  const hostname = options.hostname;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    return Promise.reject(new RuntimeError('E_LISTEN', `cannot listen: port must be an integer from 0 to 65535, got ${String(port)}`));
  }
  return new Promise((resolve, reject) => {
    let server: Server | undefined;
    const where = `${hostname ?? '*'}:${port}`;
    const onError = (error: Error): void => {
      reject(new RuntimeError('E_LISTEN', `cannot listen on ${where}: ${error.message}`, { cause: error }));
    };
    try {
      server = serve(
        {
          fetch: (request) => app.fetch(request),
          port,
          ...(hostname === undefined ? {} : { hostname }),
          overrideGlobalObjects: false,
          ...(options.tls === undefined ? {} : { createServer: createHttpsServer, serverOptions: { key: options.tls.key, cert: options.tls.cert } }),
        },
        (info) => {
          server?.off('error', onError);
          if (server !== undefined) resolve(listening(server, info, options.tls === undefined ? 'http' : 'https'));
        },
      ) as Server;
    } catch (error) {
      onError(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    server.once('error', onError);
  });
}

function listening(server: Server, info: AddressInfo, scheme: 'http' | 'https'): ListeningServer {
  let closing: Promise<void> | undefined;
  return {
    url: `${scheme}://${urlHost(info)}:${info.port}`,
    port: info.port,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/**
 * A host to put in a URL for the bound address. The unspecified addresses are reached through IPv4 loopback
 * (Node binds `::` dual-stack, so 127.0.0.1 answers there too).
 */
function urlHost(info: AddressInfo): string {
  if (info.address === '0.0.0.0' || info.address === '::' || info.address === '') return '127.0.0.1';
  return info.family === 'IPv6' ? `[${info.address}]` : info.address;
}
