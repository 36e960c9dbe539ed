/**
 * kube-apiserver's checks of a CRD's `spec.conversion` (read in 1.37.2 and probed): the strategy is `None` or
 * `Webhook`; a webhook has exactly one of an https `url` (here http too) or a `service`, and
 * `conversionReviewVersions` that are DNS-1035 labels, each once, with one kube-apiserver speaks (v1, v1beta1);
 * `None` takes neither. The paths are those of kube-apiserver's internal form (`spec.conversion.webhookClientConfig`,
 * not `webhook.clientConfig`).
 */
import { asSchema } from '../resources/schema-keywords.js';
import { reviewVersionProblems } from './review-versions.js';
import { fieldForbidden, fieldInvalid, fieldNotSupported, fieldRequired, type FieldProblem } from '../status-errors.js';

const PATH = 'spec.conversion';
const FORM = '; desired format: https://host[/path]';

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
  else problems.push(...clientConfigProblems(clientConfig));
  problems.push(...reviewVersionProblems(reviewVersions, `${PATH}.conversionReviewVersions`, { requireKnown: true }));
  return problems;
}

function clientConfigProblems(config: Readonly<Record<string, unknown>>): FieldProblem[] {
  const at = `${PATH}.webhookClientConfig`;
  const url = typeof config['url'] === 'string' ? config['url'] : undefined;
  const service = asSchema(config['service']);
  if ((url === undefined) === (service === undefined)) return [fieldRequired(at, 'exactly one of url or service is required')];
  if (url !== undefined) return urlProblems(url, `${at}.url`);
  const problems: FieldProblem[] = [];
  if (typeof service?.['name'] !== 'string' || service['name'] === '') problems.push(fieldRequired(`${at}.service.name`));
  if (typeof service?.['namespace'] !== 'string' || service['namespace'] === '') problems.push(fieldRequired(`${at}.service.namespace`));
  return problems;
}

/** Go's `ValidateWebhookURL` (the common cases: the scheme, the host, user, fragment, query), http allowed. */
function urlProblems(text: string, at: string): FieldProblem[] {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(text)?.[1] ?? '';
  let parsed: URL | undefined;
  try {
    parsed = new URL(text);
  } catch {
    // Not a URL JavaScript reads (Go reads more): only the scheme and the host are judged, from the text.
    parsed = undefined;
  }
  const problems: FieldProblem[] = [];
  // kube-apiserver allows https only; http is taken here on purpose, so that a test can serve its webhook without TLS.
  if (scheme !== 'https' && scheme !== 'http') problems.push(fieldInvalid(at, scheme, `'https' is the only allowed URL scheme${FORM}`));
  const host = parsed?.host ?? '';
  if (host === '') problems.push(fieldInvalid(at, host, `host must be specified${FORM}`));
  if (parsed !== undefined && (parsed.username !== '' || parsed.password !== '')) problems.push(fieldInvalid(at, parsed.password === '' ? parsed.username : `${parsed.username}:${parsed.password}`, 'user information is not permitted in the URL'));
  if (parsed !== undefined && parsed.hash.length > 1) problems.push(fieldInvalid(at, parsed.hash.slice(1), 'fragments are not permitted in the URL'));
  if (parsed !== undefined && parsed.search.length > 1) problems.push(fieldInvalid(at, parsed.search.slice(1), 'query parameters are not permitted in the URL'));
  return problems;
}

