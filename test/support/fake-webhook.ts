// A webhook server of a test's own, over HTTPS (node:https), and a webhook configuration pointing at it: what the
// admission tests of the test API server register in it (a CRD's conversion webhook too: a ConversionReview is
// answered as one).
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

/**
 * The answer to `request`, which came to `path` (`/mutating` or `/validating` for {@link configuration}'s): the
 * review's `response`, or `{ $review: document }` to answer with that whole document instead.
 */
export type Answer = (request: Record<string, unknown>, path: string) => Record<string, unknown> | 'hang';

export interface FakeWebhook {
  readonly url: string;
  readonly seen: Record<string, unknown>[];
  /** Every review as it came: the path it came to (without the query) and its JSON text. */
  readonly calls: { readonly path: string; readonly text: string }[];
  answer: Answer;
  close(): Promise<void>;
}

/** A webhook server of the test's own: answers with `answer(request)` (or never, for 'hang'). */
export async function webhookServer(tls: { key: string; cert: string }): Promise<FakeWebhook> {
  const seen: Record<string, unknown>[] = [];
  const calls: { path: string; text: string }[] = [];
  const hanging: Array<() => void> = [];
  const state: FakeWebhook = {
    url: '',
    seen,
    calls,
    answer: () => ({}),
    close: async () => {
      for (const end of hanging) end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const review = JSON.parse(text) as { kind?: string; request: Record<string, unknown> };
      const path = (req.url ?? '').split('?')[0] ?? '';
      seen.push(review.request);
      calls.push({ path, text });
      const answer = state.answer(review.request, path);
      if (answer === 'hang') {
        hanging.push(() => res.destroy());
        return;
      }
      res.setHeader('content-type', 'application/json');
      // A review is answered in its own kind: an AdmissionReview, or a CRD's ConversionReview.
      const apiVersion = review.kind === 'ConversionReview' ? 'apiextensions.k8s.io/v1' : 'admission.k8s.io/v1';
      const document = '$review' in answer ? answer['$review'] : { apiVersion, kind: review.kind ?? 'AdmissionReview', response: { uid: review.request.uid, ...answer } };
      res.end(JSON.stringify(document));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}` });
}

export function configuration(kind: 'validating' | 'mutating', url: string, caBundle: string | undefined, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    metadata: { name: `${kind}-test` },
    webhooks: [
      {
        name: `${kind}.test.example.com`,
        clientConfig: { url: `${url}/${kind}`, ...(caBundle === undefined ? {} : { caBundle: Buffer.from(caBundle).toString('base64') }) },
        rules: [{ operations: ['CREATE', 'UPDATE', 'DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        ...extra,
      },
    ],
  };
}
