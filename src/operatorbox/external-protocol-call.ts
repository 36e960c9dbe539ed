/**
 * One attempt of a client protocol's external call (`redis`, `postgres`, `mongo`, `kafka`) through its
 * {@link ExternalProtocolClient}, guarded so that the runtime's rules hold whatever the client does:
 *
 * - **Deadline**: the client is given the call's timeout and the reconcile's signal; if it has not answered one
 *   second after the timeout, the attempt fails (`<protocol>: no reply within <timeout> ms`) and its late answer
 *   is dropped. An abort of the signal ends the attempt at once.
 * - **Result**: the client's map, with `error` made a string ("" = success) and `called: "true"`. A rejection, or
 *   an answer that is not a map, is a failed result in Orkestra's shape for non-HTTP protocols
 *   (`{result: "", raw: {}, error, called: "true"}`).
 * - **Secrets**: the rendered URL (and its password) and the credential are cut out of `error`, should a client
 *   quote them: `error` reaches the Ready condition, Events and logs.
 */
import type { ExternalProtocolClient, ExternalProtocolRequest } from './external-protocol.js';

/** What `.external.<name>` holds for a client protocol's call: the client's map, `error` and `called` always set. */
export type ProtocolResult = Readonly<Record<string, unknown>> & { readonly error: string; readonly called: 'true' | 'false' };

/** A skipped call (conditions false, or `fires.reconcile: false`), as Orkestra's `skippedResult` for non-HTTP protocols. */
export const SKIPPED_PROTOCOL: ProtocolResult = Object.freeze({ result: '', raw: Object.freeze({}), error: '', called: 'false' as const });

/** How long past its timeout a client may take before the attempt fails without it. */
export const PROTOCOL_GRACE_MS = 1000;

/** A failed attempt in Orkestra's shape. */
export function failedProtocol(reason: string): ProtocolResult {
  return { result: '', raw: {}, error: reason, called: 'true' };
}

/** Makes one attempt of `request` with `client` for `protocol` (see the module comment). Never rejects. */
export async function protocolAttempt(protocol: string, client: ExternalProtocolClient | undefined, request: ExternalProtocolRequest): Promise<ProtocolResult> {
  if (client === undefined) return failedProtocol(`${protocol}: no client is registered for this protocol`);
  if (request.signal.aborted) return failedProtocol(`${protocol}: the call was cancelled`);
  const scrub = scrubber(request);
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const guard = new Promise<ProtocolResult>((resolve) => {
    timer = setTimeout(() => resolve(failedProtocol(`${protocol}: no reply within ${request.timeoutMs} ms`)), request.timeoutMs + PROTOCOL_GRACE_MS);
    onAbort = () => resolve(failedProtocol(`${protocol}: the call was cancelled`));
    request.signal.addEventListener('abort', onAbort, { once: true });
  });
  let answer: Promise<ProtocolResult>;
  try {
    answer = client.fetch(request).then(
      (map) => shaped(protocol, map, scrub),
      (error: unknown) => failedProtocol(scrub(error instanceof Error ? error.message : String(error)) || `${protocol}: the client failed`),
    );
  } catch (error) {
    answer = Promise.resolve(failedProtocol(scrub(error instanceof Error ? error.message : String(error)) || `${protocol}: the client failed`));
  }
  try {
    return await Promise.race([answer, guard]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) request.signal.removeEventListener('abort', onAbort);
  }
}

function shaped(protocol: string, map: unknown, scrub: (text: string) => string): ProtocolResult {
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return failedProtocol(`${protocol}: the client answered no result map`);
  const fields = map as Record<string, unknown>;
  const error = fields['error'];
  const text = error === undefined || error === null ? '' : scrub(typeof error === 'string' ? error : String(error));
  return { ...fields, error: text, called: 'true' };
}

/** Replaces the URL, its password and the credential in a text with placeholders. */
function scrubber(request: ExternalProtocolRequest): (text: string) => string {
  const secrets: Array<[string, string]> = [];
  if (request.url !== '') secrets.push([request.url, '<url>']);
  try {
    const password = decodeURIComponent(new URL(request.url).password);
    if (password !== '') secrets.push([password, '<password>']);
  } catch {
    // not a URL (host:port): nothing more to cut
  }
  if (request.credential !== undefined && request.credential !== '') secrets.push([request.credential, '<credential>']);
  return (text) => secrets.reduce((out, [secret, mark]) => out.split(secret).join(mark), text);
}
