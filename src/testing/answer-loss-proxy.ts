/**
 * A plain-HTTP proxy in front of a test API server that can lose answers **after** the server acted on the
 * request: what a client sees when an API server (or a load balancer in front of it) times out after the write
 * committed. The request is forwarded and fully answered upstream; the client then gets nothing: its connection
 * is held open with no answer (`hang`, until the client gives up) or cut (`drop`). Everything else, watches
 * included, passes through unchanged.
 *
 * Each client that should suffer the fault talks to its own proxy (its `kubeConfig`), the others to the server:
 * so one replica can lose its answers while the rest of the cluster works.
 */
import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { KubeConfig } from '@kubernetes/client-node';
import { kubeconfigYaml } from './kubeconfig.js';

/** Which requests lose their answer; every given field must match. */
export interface AnswerLossRule {
  /** HTTP method, e.g. `PUT`. */
  readonly method?: string;
  /** Tested against the request path (without the query). */
  readonly path?: RegExp;
  /** `hang` (default): the answer never comes; `drop`: the connection is cut once the server has answered. */
  readonly mode?: 'hang' | 'drop';
}

export interface AnswerLossProxy {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** A client-node KubeConfig pointing at the proxy. */
  readonly kubeConfig: KubeConfig;
  /** How many answers were lost so far (the server acted on each). */
  readonly lost: number;
  /** Starts losing the answers of matching requests; returns a function that stops it. */
  loseAnswers(rule: AnswerLossRule): () => void;
  /** Closes the proxy and every connection through it. */
  stop(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 (any free port) in front of `upstream` (an `http://` URL). */
export async function startAnswerLossProxy(upstream: string): Promise<AnswerLossProxy> {
  const target = new URL(upstream);
  if (target.protocol !== 'http:') throw new Error(`the answer-loss proxy forwards to http:// only, not ${upstream}`);
  let rules: AnswerLossRule[] = [];
  let lost = 0;
  const sockets = new Set<Socket>();
  const agent = new Agent({ keepAlive: true });
  const ruleFor = (req: IncomingMessage): AnswerLossRule | undefined => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    return rules.find((rule) => (rule.method === undefined || rule.method === req.method) && (rule.path === undefined || rule.path.test(path)));
  };
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const rule = ruleFor(req);
    const forward = httpRequest(
      { agent, host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (answer) => {
        if (rule === undefined) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        // Read the whole answer (the server has acted), then lose it.
        answer.resume();
        answer.on('end', () => {
          lost++;
          if (rule.mode === 'drop') req.socket.destroy();
        });
      },
    );
    forward.on('error', () => req.socket.destroy());
    res.on('close', () => forward.destroy());
    req.pipe(forward);
  };
  const server: Server = createServer(handle);
  server.keepAliveTimeout = 5000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const { KubeConfig: KubeConfigClass } = await import('@kubernetes/client-node');
  const kubeConfig = new KubeConfigClass();
  kubeConfig.loadFromString(kubeconfigYaml(url, undefined));
  let stopped: Promise<void> | undefined;
  return {
    url,
    kubeConfig,
    get lost() {
      return lost;
    },
    loseAnswers(rule) {
      rules.push(rule);
      return () => {
        rules = rules.filter((r) => r !== rule);
      };
    },
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        agent.destroy();
      });
      return stopped;
    },
  };
}
