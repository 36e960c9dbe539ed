// One HTTP request with a backend's credentials (its CA and token, if any), answering the status, the Warning
// headers, the Retry-After header and the parsed body: what client libraries hide (warnings, Retry-After) or refuse
// to send (duplicate fields).
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

export interface RawAnswer {
  readonly status: number;
  readonly warnings: string[];
  /** The Retry-After header, when there is one. */
  readonly retryAfter: string | undefined;
  readonly body: Record<string, unknown>;
}

/** A request to `path` with the backend's credentials; `respond` gets the response. */
function send(kubeConfig: KubeConfig, method: string, path: string, contentType: string | undefined, respond: (res: IncomingMessage) => void, length?: number, accept = 'application/json'): ClientRequest {
  const cluster = kubeConfig.getCurrentCluster();
  const token = kubeConfig.getCurrentUser()?.token;
  if (cluster === null) throw new Error('the kubeconfig has no current cluster');
  const url = new URL(path, cluster.server);
  const ca = cluster.caData === undefined ? undefined : Buffer.from(cluster.caData, 'base64').toString('utf8');
  const options = {
    method,
    ...(ca === undefined ? {} : { ca }),
    headers: {
      accept,
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(contentType === undefined ? {} : { 'content-type': contentType }),
      // Node sends a DELETE's body neither chunked nor with a length unless told its length: a server then reads
      // the body as the next request.
      ...(length === undefined ? {} : { 'content-length': String(length) }),
    },
  };
  return url.protocol === 'https:' ? httpsRequest(url, options, respond) : httpRequest(url, options, respond);
}

/** `accept` asks for another form of the answer (a Table: `application/json;as=Table;v=v1;g=meta.k8s.io`). */
export function raw(kubeConfig: KubeConfig, method: string, path: string, body?: string, contentType = 'application/json', accept?: string): Promise<RawAnswer> {
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = send(
      kubeConfig,
      method,
      path,
      body === undefined ? undefined : contentType,
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          // Node joins repeated headers with ", "; every warning is `299 - "<text>"`.
          const header = res.headers['warning'];
          const warnings = [...(Array.isArray(header) ? header.join(', ') : (header ?? '')).matchAll(/299 - ("(?:[^"\\]|\\.)*")/g)].map((m) => JSON.parse(m[1] ?? '""') as string);
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, warnings, retryAfter: res.headers['retry-after'], body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) });
        });
        res.on('error', reject);
      },
      body === undefined ? undefined : Buffer.byteLength(body),
      accept,
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface WatchEvent {
  readonly type: string;
  readonly object: { metadata?: { name?: string; resourceVersion?: string; annotations?: Record<string, string> }; code?: number; reason?: string; message?: string };
}

export interface RawWatch {
  /** The answer's HTTP status; 0 when none came within the time given. */
  readonly status: number;
  /** The events read, in order (a watch answered with 200). */
  readonly events: WatchEvent[];
  /** The parsed body of an answer other than 200. */
  readonly body: Record<string, unknown>;
}

/**
 * A watch through raw HTTP (what a client library would refuse to send, or would hide): reads events until `done`
 * holds for them or `ms` have passed, then closes the connection. An answer other than 200 resolves with its body.
 * `onOpen` is called when the answer's headers arrive: both servers send them once the watch is registered, so a
 * write after it is one the watch sees.
 */
export function rawWatch(kubeConfig: KubeConfig, path: string, done: (events: WatchEvent[]) => boolean, ms: number, onOpen?: () => void): Promise<RawWatch> {
  return new Promise<RawWatch>((resolve, reject) => {
    const events: WatchEvent[] = [];
    let settled = false;
    let answered = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (status: number, body: Record<string, unknown> = {}): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve({ status, events, body });
    };
    const req = send(kubeConfig, 'GET', path, undefined, (res) => {
      const status = res.statusCode ?? 0;
      answered = status;
      onOpen?.();
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (status !== 200) return;
        let newline = text.indexOf('\n');
        while (newline >= 0) {
          const line = text.slice(0, newline).trim();
          text = text.slice(newline + 1);
          if (line !== '') events.push(JSON.parse(line) as WatchEvent);
          newline = text.indexOf('\n');
        }
        if (done(events)) finish(status);
      });
      res.on('end', () => finish(status, status === 200 || text === '' ? {} : (JSON.parse(text) as Record<string, unknown>)));
      res.on('error', (error) => (settled ? undefined : reject(error)));
    });
    timer = setTimeout(() => finish(answered), ms);
    req.on('error', (error) => (settled ? undefined : reject(error)));
    req.end();
  });
}
