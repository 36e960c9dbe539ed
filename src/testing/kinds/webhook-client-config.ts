/**
 * apiserver's validation of a webhook's client config (util/webhook/validation.go), the same for an admission webhook
 * and a CRD's conversion webhook: exactly one of an https `url` (read as Go's `url.Parse` reads it: a host, no user
 * information, fragment or query) and a `service` (its name and namespace, a port in 1-65535, a path of DNS-1123
 * subdomain segments after its leading `/`).
 */
import { parseGoUrl } from '../go/go-url.js';
import { dns1123SubdomainProblems } from '../resources/dns-names.js';
import { fieldInvalid, fieldRequired, type FieldProblem } from '../status-errors.js';
import { portNumberProblems } from './builtin/field-rules.js';
import { objectAt, textAt, type Json } from './builtin/fields.js';

const URL_FORM = '; desired format: https://host[/path]';

const isSet = (parent: Json, key: string): boolean => parent[key] !== undefined && parent[key] !== null;

/** apiserver's ValidateWebhookURL (https forced): the URL Go parses, its scheme, host, and no user, fragment or query. */
function urlProblems(text: string, at: string): FieldProblem[] {
  const url = parseGoUrl(text);
  if (typeof url === 'string') return [fieldRequired(at, `url must be a valid URL: ${url}${URL_FORM}`)];
  const problems: FieldProblem[] = [];
  if (url.scheme !== 'https') problems.push(fieldInvalid(at, url.scheme, `'https' is the only allowed URL scheme${URL_FORM}`));
  if (url.host === '') problems.push(fieldInvalid(at, url.host, `host must be specified${URL_FORM}`));
  if (url.user !== undefined) problems.push(fieldInvalid(at, url.user, 'user information is not permitted in the URL'));
  if (url.fragment !== '') problems.push(fieldInvalid(at, url.fragment, 'fragments are not permitted in the URL'));
  if (url.rawQuery !== '') problems.push(fieldInvalid(at, url.rawQuery, 'query parameters are not permitted in the URL'));
  return problems;
}

/**
 * apiserver's ValidateWebhookService. Its caller passes the Service's name where it takes the namespace and the
 * other way round: a missing namespace is reported at `.name` and a missing name at `.namespace`, as there.
 */
function serviceProblems(service: Json, at: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (textAt(service, 'namespace') === '') problems.push(fieldRequired(`${at}.name`));
  if (textAt(service, 'name') === '') problems.push(fieldRequired(`${at}.namespace`));
  const port = typeof service['port'] === 'number' ? service['port'] : 0;
  const portProblems = portNumberProblems(port);
  if (portProblems.length > 0) problems.push(fieldInvalid(`${at}.port`, port, `port is not valid: ${portProblems.join(', ')}`));
  if (!isSet(service, 'path')) return problems;
  const path = textAt(service, 'path');
  if (path === '/' || path === '') return problems;
  if (path === '//') return [...problems, fieldInvalid(`${at}.path`, path, 'segment[0] may not be empty')];
  if (!path.startsWith('/')) problems.push(fieldInvalid(`${at}.path`, path, "must start with a '/'"));
  // Go drops the first character whatever it is, then one trailing slash.
  const checked = path.slice(1).replace(/\/$/, '');
  checked.split('/').forEach((segment, i) => {
    if (segment === '') problems.push(fieldInvalid(`${at}.path`, path, `segment[${i}] may not be empty`));
    else for (const message of dns1123SubdomainProblems(segment)) problems.push(fieldInvalid(`${at}.path`, path, `segment[${i}]: ${message}`));
  });
  return problems;
}

/** The problems of a client config at `at`. */
export function clientConfigProblems(config: Json, at: string): FieldProblem[] {
  const url = isSet(config, 'url') ? textAt(config, 'url') : undefined;
  const service = objectAt(config, 'service');
  if ((url === undefined) === (service === undefined)) return [fieldRequired(at, 'exactly one of url or service is required')];
  return url !== undefined ? urlProblems(url, `${at}.url`) : serviceProblems(service ?? {}, `${at}.service`);
}
