/**
 * The HTTP client of external calls: one request on node:http / node:https, no connection kept (nothing is
 * left open when the runtime stops), a deadline from request to last byte, and a limit on the response body
 * (checked on Content-Length first, then while reading). A failure is an {@link ExternalHttpFailure} whose
 * reason names only what happened (timed out, too large, a socket error code, a status) and never the URL, a
 * header or the body: the URL is rendered from the custom resource and the body is the remote service's data.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface ExternalHttpRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly signal: AbortSignal;
}

export interface ExternalHttpResponse {
  readonly status: number;
  /** Header names lower-cased; a repeated header's values joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A call that got no usable response; `reason` is safe to show (see the module comment). */
export class ExternalHttpFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ExternalHttpFailure';
  }
}

/** Makes one request; resolves with any status (the caller decides what success is), rejects with a failure. */
export function externalRequest(input: ExternalHttpRequest): Promise<ExternalHttpResponse> {
  return new Promise((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(input.url);
    } catch {
      reject(new ExternalHttpFailure('the URL did not render to a valid URL'));
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      reject(new ExternalHttpFailure(`the URL's scheme is ${url.protocol.slice(0, 10)}, not http: or https:`));
      return;
    }
    if (input.signal.aborted) {
      reject(new ExternalHttpFailure('the reconcile was cancelled'));
      return;
    }
    const headers: Record<string, string> = { ...input.headers };
    const body = input.body === undefined ? undefined : Buffer.from(input.body, 'utf8');
    if (body !== undefined) headers['content-length'] = String(body.length);
    let settled = false;
    const finish = (error: ExternalHttpFailure | undefined, response?: ExternalHttpResponse): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      input.signal.removeEventListener('abort', onAbort);
      if (error !== undefined) {
        req.destroy();
        reject(error);
      } else if (response !== undefined) resolve(response);
    };
    const onAbort = (): void => finish(new ExternalHttpFailure('the reconcile was cancelled'));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let req: ReturnType<typeof send>;
    try {
      // agent: false: a connection per call, closed after it, so no socket outlives the runtime.
      req = send(url, { method: input.method, headers, agent: false }, (res) => read(res));
    } catch (error) {
      // Node refuses a header value it cannot send (a control character) before any connection is made.
      reject(new ExternalHttpFailure(`the request could not be built (${(error as NodeJS.ErrnoException).code ?? 'error'})`));
      return;
    }
    const timer = setTimeout(() => finish(new ExternalHttpFailure(`no complete response within ${input.timeoutMs} ms`)), input.timeoutMs);
    input.signal.addEventListener('abort', onAbort, { once: true });
    const read = (res: IncomingMessage): void => {
      const limit = input.maxResponseBytes;
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > limit) {
        finish(new ExternalHttpFailure(`the response body is over the limit of ${limit} bytes`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) finish(new ExternalHttpFailure(`the response body is over the limit of ${limit} bytes`));
        else chunks.push(chunk);
      });
      res.on('end', () => {
        const out: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
        finish(undefined, { status: res.statusCode ?? 0, headers: out, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', (error: NodeJS.ErrnoException) => finish(new ExternalHttpFailure(`the response broke off (${error.code ?? 'error'})`)));
    };
    req.on('error', (error: NodeJS.ErrnoException) => finish(new ExternalHttpFailure(`the request failed (${error.code ?? 'error'})`)));
    req.end(body);
  });
}
