// A conversion webhook for the conformance suites whose CRDs name one field differently in two versions: `count` in
// v1beta1 is `size` in v1, in the spec and the status.
import { selfSignedCertificate } from '../../src/testing/tls.js';
import { webhookServer, type FakeWebhook } from '../support/fake-webhook.js';
import type { Json } from './backend.js';

/** `object` converted to `to`: its `count` renamed `size` (to v1) or the reverse. */
export function renamed(object: Json, to: string): Json {
  const out = structuredClone(object) as Record<string, Record<string, unknown> | string>;
  out['apiVersion'] = to;
  const [from, into] = to.endsWith('/v1') ? ['count', 'size'] : ['size', 'count'];
  for (const part of ['spec', 'status']) {
    const value = out[part];
    if (typeof value !== 'object' || !(from in value)) continue;
    value[into] = value[from];
    delete value[from];
  }
  return out as Json;
}

/** A running renaming webhook, and the CA that signs its certificate (PEM). */
export async function renamingWebhook(): Promise<{ readonly webhook: FakeWebhook; readonly caBundle: string }> {
  const tls = await selfSignedCertificate();
  const webhook = await webhookServer(tls);
  webhook.answer = (request) => ({ result: { status: 'Success' }, convertedObjects: (request['objects'] as Json[]).map((object) => renamed(object, String(request['desiredAPIVersion']))) });
  return { webhook, caBundle: tls.cert };
}
