/**
 * One call of a webhook over real HTTP(S): POST the AdmissionReview, wait at most `timeoutSeconds` (sent as
 * `?timeout=Ns` like kube-apiserver), read the answer, check it is an AdmissionReview for this uid. Every failure
 * is a {@link WebhookCallError} whose message is what kube-apiserver puts after `failed calling webhook "x": `.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { goBase64Error } from '../go/go-base64.js';
import { notAnObject } from '../go/go-json.js';
import type { Webhook } from './webhooks.js';

/** The call failed (transport, timeout, bad answer); the failure policy decides what happens. */
export class WebhookCallError extends Error {}

/** The `response` of an AdmissionReview answer. */
export interface WebhookAnswer {
  readonly uid: string;
  readonly allowed: boolean;
  readonly status?: Record<string, unknown>;
  readonly patch?: string;
  readonly patchType?: string;
  readonly warnings?: readonly string[];
}

const MAX_ANSWER_BYTES = 3 * 1024 * 1024;

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a call needs of a webhook (admission webhooks and CRD conversion webhooks alike). */
export type WebhookEndpoint = Pick<Webhook, 'url' | 'service' | 'caBundle' | 'serviceAddress' | 'timeoutSeconds'>;

/** Where a call goes: `url`, named `shown` in messages; a Service's webhook is checked for `servername`. */
interface CallTarget {
  readonly url: URL;
  readonly shown: string;
  readonly servername?: string;
}

type ReviewKind = 'AdmissionReview' | 'ConversionReview';

/** The apiVersion of the review kube-apiserver sends and decodes the answer into. */
const REVIEW_VERSION: Readonly<Record<ReviewKind, string>> = { AdmissionReview: 'admission.k8s.io/v1', ConversionReview: 'apiextensions.k8s.io/v1' };

/** What else the client's scheme knows (it decodes them, and cannot convert them into the review). */
const KNOWN_KINDS: Readonly<Record<ReviewKind, ReadonlySet<string>>> = {
  AdmissionReview: new Set(['admission.k8s.io/v1beta1 AdmissionReview', 'v1 Status']),
  ConversionReview: new Set([
    'apiextensions.k8s.io/v1beta1 ConversionReview',
    'apiextensions.k8s.io/v1 CustomResourceDefinition',
    'apiextensions.k8s.io/v1 CustomResourceDefinitionList',
    'v1 Status',
  ]),
};

/**
 * Why kube-apiserver refuses an answer that is not a v1 review of `kind` with the response to `uid`, in its words and
 * order: the client decoder's for a document of another kind (`no kind "Other" is registered ...`, or `converting
 * (v1beta1.AdmissionReview) to (v1.AdmissionReview): unknown conversion` for one its scheme knows), then the review's
 * own checks, which an AdmissionReview (VerifyAdmissionResponse) and a ConversionReview (the webhook converter) make
 * in different orders and words. Undefined for a good answer.
 */
function answerRefusal(parsed: unknown, uid: string, kind: ReviewKind): string | undefined {
  const admission = kind === 'AdmissionReview';
  // A decoding failure is a failed call of an admission webhook; a conversion webhook's error is the decoder's.
  const decoding = (why: string): string => (admission ? `failed to call webhook: ${why}` : why);
  if (!isMap(parsed)) return decoding(notAnObject(parsed));
  const apiVersion = typeof parsed.apiVersion === 'string' ? parsed.apiVersion : '';
  const answered = typeof parsed.kind === 'string' ? parsed.kind : '';
  const untyped = apiVersion === '' && answered === '';
  if (!untyped && (apiVersion !== REVIEW_VERSION[kind] || answered !== kind)) {
    const version = apiVersion.split('/').pop() ?? '';
    return decoding(
      KNOWN_KINDS[kind].has(`${apiVersion} ${answered}`)
        ? `converting (${version}.${answered}) to (v1.${kind}): unknown conversion`
        : `no kind ${JSON.stringify(answered)} is registered for version ${JSON.stringify(apiVersion)} in scheme "pkg/runtime/scheme.go:111"`,
    );
  }
  // An untyped document decodes into the review asked for, with an empty kind, which the checks then refuse.
  const wrongKind = `expected webhook response of ${REVIEW_VERSION[kind]}, Kind=${kind}, got /, Kind=`;
  const response = parsed.response;
  const wrongUid = isMap(response) && response.uid !== uid ? `expected response.uid="${uid}", got "${String(response.uid)}"` : undefined;
  if (admission) {
    const why = !isMap(response) ? 'webhook response was absent' : (wrongUid ?? (untyped ? wrongKind : undefined));
    return why === undefined ? undefined : `received invalid webhook response: ${why}`;
  }
  if (untyped) return wrongKind;
  return !isMap(response) ? 'no response provided' : wrongUid;
}

/**
 * Where the webhook is called: its `url`, or for a Service the address the test gave for it, with the Service's
 * path, named in messages as kube-apiserver names it (`https://<name>.<namespace>.svc:<port><path>`) and checked for
 * the certificate name `<name>.<namespace>.svc`; a WebhookCallError for a Service the test gave no address for.
 */
function targetOf(webhook: WebhookEndpoint): CallTarget {
  const timeout = `${webhook.timeoutSeconds}s`;
  if (webhook.url !== undefined) {
    const url = new URL(webhook.url);
    url.searchParams.set('timeout', timeout);
    return { url, shown: url.toString() };
  }
  const service = webhook.service;
  if (service === undefined) throw new WebhookCallError('failed to call webhook: the configuration has no clientConfig url or service');
  const host = `${service.name}.${service.namespace}.svc`;
  // Go's URL keeps the port as written, 443 too.
  const shown = `https://${host}:${service.port}${service.path}?timeout=${timeout}`;
  const address = webhook.serviceAddress;
  if (address === undefined) {
    const key = `${service.namespace}/${service.name}`;
    throw new WebhookCallError(`failed to call webhook: Post "${shown}": the test API server resolves no Service: give the address of its webhook in the option webhookServices: { ${JSON.stringify(key)}: "https://127.0.0.1:<port>" }`);
  }
  const url = new URL(`${address.origin}${service.path}`);
  url.searchParams.set('timeout', timeout);
  return { url, shown, servername: host };
}

/**
 * Calls `webhook` with `review`; resolves with the answer's `response`, which must be in a `kind` document
 * (`AdmissionReview`, or `ConversionReview` for a CRD's conversion webhook) and carry `uid`.
 */
export function callWebhook(webhook: WebhookEndpoint, review: Record<string, unknown>, uid: string, kind: ReviewKind = 'AdmissionReview'): Promise<WebhookAnswer> {
  let target: CallTarget;
  try {
    target = targetOf(webhook);
  } catch (error) {
    return Promise.reject(error);
  }
  const { url } = target;
  // Written as the API server's JSON encoder writes it: one line, ended by a newline.
  const body = `${JSON.stringify(review)}\n`;
  const post = `Post "${target.shown}"`;
  return new Promise<WebhookAnswer>((resolve, reject) => {
    const fail = (message: string): void => reject(new WebhookCallError(`failed to call webhook: ${post}: ${message}`));
    const options = {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'content-length': Buffer.byteLength(body) },
      timeout: webhook.timeoutSeconds * 1000,
      agent: false as const,
    };
    const req =
      url.protocol === 'https:'
        ? httpsRequest(url, { ...options, ...(webhook.caBundle === undefined ? {} : { ca: webhook.caBundle }), ...(target.servername === undefined ? {} : { servername: target.servername }) })
        : httpRequest(url, options);
    const deadline = setTimeout(() => {
      req.destroy(new Error('context deadline exceeded'));
    }, webhook.timeoutSeconds * 1000);
    req.on('timeout', () => req.destroy(new Error('context deadline exceeded')));
    req.on('error', (error) => {
      clearTimeout(deadline);
      fail(error.message);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) req.destroy(new Error('the answer is too large'));
        else chunks.push(chunk);
      });
      res.on('error', (error) => {
        clearTimeout(deadline);
        fail(error.message);
      });
      res.on('end', () => {
        clearTimeout(deadline);
        const text = Buffer.concat(chunks).toString('utf8');
        if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) > 299) {
          fail(`the server responded with status ${res.statusCode ?? 0}`);
          return;
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          reject(new WebhookCallError('received invalid webhook response: the body is not JSON'));
          return;
        }
        const refusal = answerRefusal(parsed, uid, kind);
        if (refusal !== undefined) {
          reject(new WebhookCallError(refusal));
          return;
        }
        const response = (parsed as Record<string, unknown>).response as Record<string, unknown>;
        // The client decodes `patch` as Go decodes a []byte: strict base64, or the call failed.
        const badByte = typeof response.patch === 'string' ? goBase64Error(response.patch) : -1;
        if (badByte >= 0) {
          reject(new WebhookCallError(`failed to call webhook: illegal base64 data at input byte ${badByte}`));
          return;
        }
        resolve(response as unknown as WebhookAnswer);
      });
    });
    req.end(body);
  });
}
