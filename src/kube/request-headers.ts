/**
 * The headers of a node:http request as the flat list node:http takes (`[name, value, name, value…]`), built once
 * per credentials and header set instead of once per request.
 *
 * Given an object, node:http calls `setHeader` for each header of every request (a validated, lower-cased entry in a
 * table of its own), then adds `Host` and the basic-auth `Authorization`; given a list, it writes the list as it is.
 * So the list holds what node:http would have sent: the credentials' headers, then the request's, a name given twice
 * (in any case) keeping the later value, `Authorization` from basic auth unless a header already sets it, and `Host`.
 * node:http still validates every name and value; an invalid one fails the request as before.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { RequestOptions as HttpsRequestOptions } from 'node:https';

export type HeaderList = readonly string[];

/** Header lists of one pool, by the request's header set, for the credentials they were built with. */
export class HeaderLists {
  private readonly lists = new WeakMap<OutgoingHttpHeaders, { readonly given: HttpsRequestOptions; readonly list: HeaderList }>();

  /** @param host the `Host` header: host name, and port unless it is the scheme's default (a URL's `host`). */
  constructor(private readonly host: string) {}

  /**
   * The list for a request with `headers` under the credentials `given`, plus `Content-Length` when the request has a
   * body (node:http cannot add it to a list it was given). Reused while `given` and `headers` are the same objects.
   */
  list(given: HttpsRequestOptions, headers: OutgoingHttpHeaders, bodyLength: number | undefined): HeaderList {
    const known = this.lists.get(headers);
    let list: HeaderList;
    if (known !== undefined && known.given === given) list = known.list;
    else {
      list = build(given, headers, this.host);
      this.lists.set(headers, { given, list });
    }
    if (bodyLength === undefined) return list;
    // Sized once and filled: a spread grows its array as it goes.
    const sized = new Array<string>(list.length + 2);
    for (let i = 0; i < list.length; i++) sized[i] = list[i] as string;
    sized[list.length] = 'Content-Length';
    sized[list.length + 1] = String(bodyLength);
    return sized;
  }
}

function build(given: HttpsRequestOptions, headers: OutgoingHttpHeaders, host: string): HeaderList {
  const merged = new Map<string, readonly [string, unknown]>();
  for (const source of [given.headers as OutgoingHttpHeaders | undefined, headers]) {
    if (source === undefined) continue;
    for (const name of Object.keys(source)) merged.set(name.toLowerCase(), [name, source[name]]);
  }
  if (given.auth !== undefined && given.auth !== null && !merged.has('authorization')) {
    merged.set('authorization', ['Authorization', `Basic ${Buffer.from(given.auth).toString('base64')}`]);
  }
  if (!merged.has('host')) merged.set('host', ['Host', host]);
  const list: string[] = [];
  for (const [lower, [name, value]] of merged) {
    if (!Array.isArray(value)) list.push(name, value as string);
    // node:http sends one line per item, except for two or more cookies, which it joins.
    else if (lower === 'cookie' && value.length > 1) list.push(name, value.join('; '));
    else for (const item of value as unknown[]) list.push(name, item as string);
  }
  return Object.freeze(list);
}
