/**
 * kube-apiserver's checks of a CRD's `spec.conversion` (read in 1.37.2 and probed): the strategy is `None` or
 * `Webhook`; a webhook's client config is checked as an admission webhook's (webhook-client-config.ts: an https
 * `url` or a `service`), and its `conversionReviewVersions` are DNS-1035 labels, each once, with one kube-apiserver
 * speaks (v1, v1beta1);
 * `None` takes neither. The paths are those of kube-apiserver's internal form (`spec.conversion.webhookClientConfig`,
 * not `webhook.clientConfig`).
 */
import { asSchema } from '../resources/schema-keywords.js';
import { reviewVersionProblems } from './review-versions.js';
import { fieldForbidden, fieldNotSupported, fieldRequired, type FieldProblem } from '../status-errors.js';
import { clientConfigProblems } from './webhook-client-config.js';

const PATH = 'spec.conversion';

export function conversionProblems(conversion: unknown): FieldProblem[] {
  const spec = asSchema(conversion);
  if (spec === undefined) return [];
  const problems: FieldProblem[] = [];
  const strategy = typeof spec['strategy'] === 'string' ? spec['strategy'] : '';
  if (strategy === '') problems.push(fieldRequired(`${PATH}.strategy`));
  else if (strategy !== 'None' && strategy !== 'Webhook') problems.push(fieldNotSupported(`${PATH}.strategy`, strategy, ['None', 'Webhook']));
  const webhook = asSchema(spec['webhook']);
  const clientConfig = asSchema(webhook?.['clientConfig']);
  const reviewVersions = Array.isArray(webhook?.['conversionReviewVersions']) ? (webhook['conversionReviewVersions'] as unknown[]).map(String) : [];
  if (strategy !== 'Webhook') {
    if (clientConfig !== undefined) problems.push(fieldForbidden(`${PATH}.webhookClientConfig`, 'should not be set when strategy is not set to Webhook'));
    if (reviewVersions.length > 0) problems.push(fieldForbidden(`${PATH}.conversionReviewVersions`, 'should not be set when strategy is not set to Webhook'));
    return problems;
  }
  if (clientConfig === undefined) problems.push(fieldRequired(`${PATH}.webhookClientConfig`, 'required when strategy is set to Webhook'));
  else problems.push(...clientConfigProblems(clientConfig, `${PATH}.webhookClientConfig`));
  problems.push(...reviewVersionProblems(reviewVersions, `${PATH}.conversionReviewVersions`, { requireKnown: true }));
  return problems;
}
