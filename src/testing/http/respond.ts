/** Writing responses: JSON always with `Content-Type: application/json` (client-node cannot parse anything else). */
import type { ServerResponse } from 'node:http';
import type { StatusError } from '../status-errors.js';

export function sendJson(res: ServerResponse, status: number, text: string, headers: Record<string, string | string[]> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-cache, private',
    ...headers,
  });
  res.end(text);
}

export function sendObject(res: ServerResponse, status: number, value: unknown): void {
  sendJson(res, status, JSON.stringify(value));
}

export function sendError(res: ServerResponse, error: StatusError): void {
  sendJson(res, error.body.code, JSON.stringify(error.body), { ...error.headers });
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** Adds warnings (an admission webhook's, an unknown field's) to the response headers as `Warning: 299` lines. */
export function withWarnings(headers: Record<string, string | string[]>, warnings: readonly string[]): Record<string, string | string[]> {
  if (warnings.length === 0) return headers;
  const existing = headers.Warning;
  const lines = warnings.map((warning) => `299 - ${JSON.stringify(warning)}`);
  return { ...headers, Warning: [...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]), ...lines] };
}
