/**
 * Answers lost after the write committed: the request is served for real (the write happens, watches see it), but
 * what the handler answers is held back; a successful answer is then replaced by an error (as an API server that
 * timed out after committing) or by a cut connection. Unsuccessful answers go through unchanged.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** What the client gets instead of the answer of a committed write. */
export type LostAnswer = { readonly kind: 'error'; readonly status: 500 | 503 | 504 } | { readonly kind: 'cut' };

interface Held {
  status: number;
  headers: OutgoingHttpHeaders | undefined;
  body: string | Buffer | undefined;
}

/**
 * Runs `serve` with the answer held back; when it was a success, calls `lose` instead of sending it. The holding is
 * done on this response object alone and undone before anything is sent.
 */
export async function withLostAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  serve: () => Promise<void>,
  lose: (res: ServerResponse) => void,
  cut: boolean,
): Promise<void> {
  const held: Held = { status: 200, headers: undefined, body: undefined };
  const original = { writeHead: res.writeHead, end: res.end, write: res.write };
  const target = res as unknown as Record<'writeHead' | 'end' | 'write', unknown>;
  target['writeHead'] = (status: number, headers?: OutgoingHttpHeaders) => {
    held.status = status;
    held.headers = headers;
    return res;
  };
  target['write'] = () => true;
  target['end'] = (body?: string | Buffer) => {
    if (typeof body === 'string' || Buffer.isBuffer(body)) held.body = body;
    return res;
  };
  try {
    await serve();
  } finally {
    target['writeHead'] = original.writeHead;
    target['write'] = original.write;
    target['end'] = original.end;
  }
  if (held.status < 200 || held.status > 299) {
    res.writeHead(held.status, held.headers);
    res.end(held.body);
    return;
  }
  if (cut) {
    res.statusCode = 0;
    res.destroy();
    req.socket.destroy();
    return;
  }
  lose(res);
}
