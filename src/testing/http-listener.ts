/**
 * The HTTP(S) listener: a node:http server with the timeouts that would cut watches disabled, every socket
 * tracked so that closing ends them all (the process can exit), and re-listening on the same port for restarts.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface TlsMaterial {
  readonly key: string;
  readonly cert: string;
}

export class HttpListener {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private boundPort = 0;

  constructor(
    private readonly handler: RequestHandler,
    private readonly host: string,
    private readonly tls: TlsMaterial | undefined,
  ) {}

  /** The port listened on (after the first listen). */
  get port(): number {
    return this.boundPort;
  }

  get listening(): boolean {
    return this.server !== undefined;
  }

  /** Starts listening on `port` (0 = any free port). */
  async listen(port: number): Promise<void> {
    const server = this.tls === undefined ? createHttpServer(this.handler) : createHttpsServer({ key: this.tls.key, cert: this.tls.cert }, this.handler);
    server.requestTimeout = 0;
    server.timeout = 0;
    server.keepAliveTimeout = 5000;
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      server.once('error', onError);
      server.listen(port, this.host, () => {
        server.off('error', onError);
        resolve();
      });
    });
    const address = server.address();
    this.boundPort = typeof address === 'object' && address !== null ? address.port : port;
    this.server = server;
  }

  /** Stops listening and destroys every open connection; resolves when the server is closed. */
  async close(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await closed;
  }
}
