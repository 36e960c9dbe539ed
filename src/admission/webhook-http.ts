/**
 * What the two webhook routers the host mounts (admission, conversion) answer alike: JSON bodies, a 400 for a body
 * that is not JSON, a 405 for another method on their paths, a JSON 404 elsewhere, and a 500 without the error's
 * text for an unexpected error (told to the host's `onError`).
 */
import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { toError } from '../errors.js';

/** Told about an unexpected error while answering (the caller gets a 500 JSON body without its text). */
export type WebhookErrorListener = (error: Error, request: { readonly method: string; readonly path: string }) => void;

const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' });

export function json(c: Context, status: ContentfulStatusCode, body: unknown): Response {
  return c.body(JSON.stringify(body), status, JSON_HEADERS);
}

export function errorBody(status: number, error: string, message: string): { error: string; message: string; status: number } {
  return { error, message, status };
}

/** The request's body as JSON, or the 400 answer to send when it is not JSON. */
export async function readJsonBody(c: Context): Promise<{ readonly body: unknown } | Response> {
  try {
    return { body: await c.req.json() };
  } catch {
    return json(c, 400, errorBody(400, 'bad_request', 'the body is not valid JSON'));
  }
}

/** Adds the 405 of `paths`, the 404 (`no <what> route at ...`) and the 500 answer to `app`. */
export function finishWebhookRoutes(app: Hono, paths: readonly string[], what: string, onError: WebhookErrorListener | undefined): void {
  for (const path of paths) {
    app.all(path, (c) => c.body(JSON.stringify(errorBody(405, 'method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}; use POST`)), 405, { ...JSON_HEADERS, allow: 'POST' }));
  }
  app.notFound((c) => json(c, 404, errorBody(404, 'not_found', `no ${what} route at ${c.req.path}`)));
  app.onError((error, c) => {
    const request = { method: c.req.method, path: c.req.path };
    try {
      onError?.(toError(error), request);
    } catch {
      // A failing error callback must not turn a 500 into an unhandled rejection.
    }
    return json(c, 500, errorBody(500, 'internal_error', `${request.method} ${request.path} failed; see the host's logs`));
  });
}
