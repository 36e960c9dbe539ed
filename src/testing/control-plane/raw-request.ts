/** One JSON request to the control plane's API server over HTTPS, trusting its own CA, with the launcher's bearer token. */
import { request } from 'node:https';

export interface RawResponse {
  readonly status: number;
  readonly text: string;
}

export interface Endpoint {
  /** `https://127.0.0.1:<port>`. */
  readonly url: string;
  /** PEM bundle the serving certificate chains to. */
  readonly ca: string;
  /** Bearer token of the launcher's static token file (a member of `system:masters`). */
  readonly token: string;
}

/** Sends `method path` with an optional JSON body; resolves with the status and body text, rejects on network errors. */
export function rawRequest(endpoint: Endpoint, method: string, path: string, body?: unknown, timeoutMs = 30_000, contentType = 'application/json'): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      new URL(path, endpoint.url),
      {
        method,
        ca: endpoint.ca,
        agent: false,
        timeout: timeoutMs,
        headers: { accept: 'application/json', authorization: `Bearer ${endpoint.token}`, ...(payload === undefined ? {} : { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}
