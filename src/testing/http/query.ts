/** Query parameters the server understands, decoded and checked. */
import type { IncomingMessage } from 'node:http';
import { badRequest, StatusError } from '../status-errors.js';

/**
 * A boolean query parameter as kube-apiserver converts it: absent is false, `0` and `false` (any case) are false,
 * anything else (`true`, `True` as Python sends it, `1`, even an empty value) is true.
 */
export function flag(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null) return false;
  return value !== '0' && value.toLowerCase() !== 'false';
}

/** A boolean kube-apiserver decodes into a pointer: undefined when absent, else as `flag` reads it. */
function optionalFlag(query: URLSearchParams, name: string): boolean | undefined {
  return query.has(name) ? flag(query, name) : undefined;
}

export function optional(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name);
  return value === null ? undefined : value;
}

/** The kind of options object kube-apiserver decodes a request's query into (named in its 422 answers). */
export type OptionsKind = 'ListOptions' | 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

/** 422 Invalid on the request's options: `<Options>.meta.k8s.io "" is invalid: <field>: <message>`. */
export function invalidOption(options: OptionsKind, field: string, reason: OptionReason, message: string): StatusError {
  return invalidOptions(options, [{ reason, message, field }]);
}

type OptionReason = 'FieldValueNotSupported' | 'FieldValueForbidden' | 'FieldValueInvalid' | 'FieldValueTooLong';

/** 422 with several causes, as kube-apiserver aggregates them: `... is invalid: [<field>: <message>, ...]`. */
function invalidOptions(options: OptionsKind, causes: ReadonlyArray<{ readonly reason: OptionReason; readonly message: string; readonly field: string }>): StatusError {
  const each = causes.map((cause) => `${cause.field}: ${cause.message}`);
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${options}.meta.k8s.io "" is invalid: ${each.length === 1 ? each[0] : `[${each.join(', ')}]`}`,
    reason: 'Invalid',
    details: { group: 'meta.k8s.io', kind: options, causes },
    code: 422,
  });
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * An integer parameter as Go's query conversion reads it: the first value when repeated, spaces trimmed, empty
 * meaning absent, otherwise `strconv.ParseInt(value, 10, 64)` with its error as a 400 message
 * (`strconv.ParseInt: parsing "abc": invalid syntax`, `... value out of range`).
 */
export function goInt(query: URLSearchParams, name: string): number | undefined {
  const value = (query.getAll(name)[0] ?? '').trim();
  if (value === '') return undefined;
  if (!/^[+-]?\d+$/.test(value)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  const big = BigInt(value);
  if (big < INT64_MIN || big > INT64_MAX) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: value out of range`);
  return Number(big);
}

/** `limit`: kube-apiserver accepts any int64 and treats zero or less as no limit. */
export function limitOf(query: URLSearchParams): number | undefined {
  const limit = goInt(query, 'limit');
  return limit === undefined || limit <= 0 ? undefined : limit;
}

/**
 * A resourceVersion as kube-apiserver's etcd storage parses it (`strconv.ParseUint`); undefined for "" and absent.
 * `onError` builds the error from the parse error's text (a list answers 400, a watch 500).
 */
export function resourceVersionOf(query: URLSearchParams, onError: (detail: string) => StatusError): number | undefined {
  const value = query.getAll('resourceVersion')[0] ?? '';
  if (value === '') return undefined;
  const syntax = /^\+?\d+$/.test(value);
  const inRange = syntax && BigInt(value) <= 2n ** 64n - 1n;
  if (!inRange) throw onError(`resourceVersion: Invalid value: ${JSON.stringify(value)}: strconv.ParseUint: parsing ${JSON.stringify(value)}: ${syntax ? 'value out of range' : 'invalid syntax'}`);
  return Number(value);
}

/**
 * Checks a list's resourceVersion, resourceVersionMatch, continue and sendInitialEvents (a watch's option only) as
 * kube-apiserver validates ListOptions (every cause of a 422 at once, in its order), then as its storage does (a
 * resourceVersion other than "0" with continue).
 * Returns the resourceVersion and the match asked for.
 */
export function checkListVersion(query: URLSearchParams): { readonly resourceVersion: number | undefined; readonly match: 'Exact' | 'NotOlderThan' | undefined } {
  const resourceVersion = resourceVersionOf(query, (detail) => badRequest(`invalid resource version: ${detail}`));
  const asked = query.getAll('resourceVersion')[0] ?? '';
  const continued = (query.getAll('continue')[0] ?? '') !== '';
  const match = query.getAll('resourceVersionMatch')[0] ?? '';
  const causes = new OptionCauses();
  if (match !== '') {
    if (asked === '') causes.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided');
    if (continued) causes.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided');
    if (match !== 'Exact' && match !== 'NotOlderThan') causes.notSupported('resourceVersionMatch', match, '"Exact", "NotOlderThan", ""');
    if (match === 'Exact' && asked === '0') causes.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  }
  if (query.has('sendInitialEvents')) causes.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list');
  causes.check();
  if (continued && asked !== '' && asked !== '0') throw badRequest('specifying resource version is not allowed when using continue');
  return { resourceVersion, match: match === 'Exact' || match === 'NotOlderThan' ? match : undefined };
}

/**
 * Checks a watch's resourceVersionMatch, sendInitialEvents and continue as kube-apiserver validates ListOptions for a
 * watch: a streaming list (`sendInitialEvents`) needs `resourceVersionMatch=NotOlderThan` and the WatchList feature
 * (`watchList`), and a watch may send that match only with `sendInitialEvents`. Returns `sendInitialEvents` as
 * asked: undefined when absent.
 */
export function checkWatchOptions(query: URLSearchParams, watchList: boolean): boolean | undefined {
  const sendInitialEvents = optionalFlag(query, 'sendInitialEvents');
  const match = query.getAll('resourceVersionMatch')[0] ?? '';
  const causes = new OptionCauses();
  if (sendInitialEvents !== undefined) {
    if (match !== 'NotOlderThan') causes.forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
    if (!watchList) causes.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled');
  }
  if (match !== '') {
    if (sendInitialEvents === undefined) causes.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided');
    if (match !== 'NotOlderThan') causes.notSupported('resourceVersionMatch', match, '"NotOlderThan"');
    if ((query.getAll('continue')[0] ?? '') !== '') causes.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided');
  }
  causes.check();
  return sendInitialEvents;
}

/** The causes of a 422 on ListOptions, gathered in kube-apiserver's order and thrown together. */
class OptionCauses {
  private readonly causes: Array<{ reason: OptionReason; message: string; field: string }> = [];

  forbidden(field: string, message: string): void {
    this.causes.push({ reason: 'FieldValueForbidden', message: `Forbidden: ${message}`, field });
  }

  notSupported(field: string, value: string, supported: string): void {
    this.causes.push({ reason: 'FieldValueNotSupported', message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${supported}`, field });
  }

  check(): void {
    if (this.causes.length > 0) throw invalidOptions('ListOptions', this.causes);
  }
}

/** `dryRun=All` (repeated or not) → true; absent → false; anything else → 422 on the request's options. */
export function dryRun(query: URLSearchParams, options: OptionsKind): boolean {
  return dryRunOf(query.getAll('dryRun'), options);
}

/** The same check of `dryRun` values wherever they came from (a query, a DeleteOptions body). */
export function dryRunOf(values: readonly unknown[], options: OptionsKind): boolean {
  if (values.length === 0) return false;
  if (values.every((v) => v === 'All')) return true;
  throw invalidOption(options, 'dryRun', 'FieldValueNotSupported', `Unsupported value: ${JSON.stringify(values)}: supported values: "All"`);
}

/** The default field manager Kubernetes derives from a User-Agent: the part before the first `/`. */
export function managerFromUserAgent(userAgent: string | undefined): string {
  const head = (userAgent ?? '').split('/')[0] ?? '';
  let printable = '';
  for (const ch of head) if (ch >= ' ' && ch <= '~') printable += ch;
  return printable.slice(0, 128) || 'unknown';
}

/**
 * The field manager of a write: `fieldManager`, or the one the User-Agent gives. More than 128 bytes is the 422 of
 * the write's options, as kube-apiserver's ValidateCreateOptions (and its update and patch ones) answer it.
 */
export function fieldManagerOf(req: IncomingMessage, query: URLSearchParams, options: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions'): string {
  const asked = optional(query, 'fieldManager');
  if (asked !== undefined && Buffer.byteLength(asked) > 128) throw invalidOption(options, 'fieldManager', 'FieldValueTooLong', 'Too long: may not be more than 128 bytes');
  return asked ?? managerFromUserAgent(req.headers['user-agent']);
}

/**
 * What a create, update or patch request set of its options, as admission webhooks are sent them (CreateOptions and
 * UpdateOptions share these fields, in this order): `dryRun`, `fieldManager` and `fieldValidation` from the query.
 */
export function writeOptionsOf(query: URLSearchParams): Record<string, unknown> {
  const dryRunValues = query.getAll('dryRun');
  const fieldManager = optional(query, 'fieldManager');
  const fieldValidation = query.getAll('fieldValidation')[0];
  return {
    ...(dryRunValues.length === 0 ? {} : { dryRun: dryRunValues }),
    ...(fieldManager === undefined || fieldManager === '' ? {} : { fieldManager }),
    ...(fieldValidation === undefined || fieldValidation === '' ? {} : { fieldValidation }),
  };
}
