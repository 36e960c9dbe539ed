// One HTTP request with a backend's credentials (its CA and token, if any), answering the status, the Warning
// headers, the Retry-After header and the parsed body: what client libraries hide (warnings, Retry-After) or refuse
// to send (duplicate fields).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

export interface RawAnswer {
  readonly status: number;
  readonly warnings: string[];
  /** The Retry-After header, when there is one. */
  readonly retryAfter: string | undefined;
  readonly body: Record<string, unknown>;
}

export function raw(kubeConfig: KubeConfig, method: string, path: string, body?: string, contentType = 'application/json'): Promise<RawAnswer> {
  const cluster = kubeConfig.getCurrentCluster();
  const token = kubeConfig.getCurrentUser()?.token;
  if (cluster === null) throw new Error('the kubeconfig has no current cluster');
  const url = new URL(path, cluster.server);
  const ca = cluster.caData === undefined ? undefined : Buffer.from(cluster.caData, 'base64').toString('utf8');
  return new Promise<RawAnswer>((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method,
        ...(ca === undefined ? {} : { ca }),
        headers: {
          accept: 'application/json',
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
          ...(body === undefined ? {} : { 'content-type': contentType }),
        },
      },
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
    );
    req.on('error', reject);
    req.end(body);
  });
}
