/**
 * Go's `net/url.Parse` (Go 1.26, which kube-apiserver 1.37 is built with), as far as a webhook's URL is judged by
 * it: the parts apiserver's ValidateWebhookURL looks at (scheme, user, host, query, fragment) or the error Parse
 * answers, worded as Go words it (`parse "<url>": invalid URL escape "%zz"`). Colons in an http(s) host are strict
 * (Go 1.26's default). Pure.
 * Approximated: an IPv6 literal is read by Node's `net.isIPv6`, and a bad one is refused with a shorter reason than
 * netip's (`invalid host: ParseAddr("<host>"): unable to parse IP`).
 */
import { isIP } from 'node:net';
import { goQuote } from './go-values.js';

export interface GoUrl {
  /** Lowercased, as Go keeps it. */
  readonly scheme: string;
  /** The user information as `Userinfo.String()` writes it (escaped), when the URL has any. */
  readonly user: string | undefined;
  readonly host: string;
  readonly rawQuery: string;
  /** Unescaped. */
  readonly fragment: string;
}

/** The bytes a host (and an IPv6 zone) may hold unescaped (Go's encoding table, `encodeHost`). */
const HOST = /^[A-Za-z0-9!"$&'()*+,\-.:;<=>[\]_~]$/;
/** The bytes user information keeps unescaped (`encodeUserPassword`). */
const USER = /^[A-Za-z0-9$&+,\-.;=_~]$/;
/** `validUserinfo`'s characters (`%` and `@` included: the escapes are checked after). */
const USERINFO = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

type Mode = 'host' | 'user' | 'path' | 'fragment';

class ParseError extends Error {}

const isHex = (char: string | undefined): boolean => char !== undefined && /^[0-9A-Fa-f]$/.test(char);

/** Go's `unescape`: each `%XX` decoded, with its EscapeError and InvalidHostError. */
function unescape(text: string, mode: Mode): string {
  for (let i = 0; i < text.length; ) {
    const char = text[i] ?? '';
    if (char === '%') {
      if (!isHex(text[i + 1]) || !isHex(text[i + 2])) throw new ParseError(`invalid URL escape ${goQuote(text.slice(i, i + 3))}`);
      // A host may %-encode only non-ASCII bytes, and `%25` (an IPv6 zone's `%`).
      if (mode === 'host' && parseInt(text[i + 1] ?? '0', 16) < 8 && text.slice(i, i + 3) !== '%25') throw new ParseError(`invalid URL escape ${goQuote(text.slice(i, i + 3))}`);
      i += 3;
      continue;
    }
    if (mode === 'host' && char.charCodeAt(0) < 0x80 && !HOST.test(char)) throw new ParseError(`invalid character ${goQuote(char)} in host name`);
    i += 1;
  }
  return text.includes('%') ? decodeBytes(text) : text;
}

/** The UTF-8 text of `text` with its escapes decoded as bytes. */
function decodeBytes(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '%') {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i] ?? ''));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Go's `escape` in user-information mode, as `Userinfo.String()` writes a name or password. */
function escapeUser(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text)) {
    const char = String.fromCharCode(byte);
    out += byte < 0x80 && USER.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Go's `getScheme`: a letter, then letters, digits, `+`, `-` or `.`, then `:`. */
function splitScheme(raw: string): [scheme: string, rest: string] {
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i] ?? '';
    if (/[A-Za-z]/.test(char)) continue;
    if (/[0-9+\-.]/.test(char)) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (char === ':') {
      if (i === 0) throw new ParseError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

/** Whether `port` is empty or `:` and digits. */
const validOptionalPort = (port: string): boolean => port === '' || /^:[0-9]*$/.test(port);

/** Go's `parseHost`: `host[:port]` or an IPv6 literal in brackets. */
function parseHost(scheme: string, host: string): string {
  const open = host.lastIndexOf('[');
  if (open > 0) throw new ParseError('invalid IP-literal');
  if (open === 0) {
    const close = host.lastIndexOf(']');
    if (close < 0) throw new ParseError("missing ']' in host");
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) throw new ParseError(`invalid port ${goQuote(colonPort)} after host`);
    const literal = unescape(host.slice(1, close), 'host');
    const version = isIP(literal);
    if (version === 4) throw new ParseError('invalid IP-literal');
    if (version !== 6) throw new ParseError(`invalid host: ParseAddr(${goQuote(literal)}): unable to parse IP`);
    return `[${literal}]${colonPort}`;
  }
  const first = host.indexOf(':');
  if (first >= 0) {
    // Go 1.26 takes the first colon of an http(s) host (a second one is then a bad port), the last of others'.
    const at = scheme === 'http' || scheme === 'https' ? first : host.lastIndexOf(':');
    const colonPort = host.slice(at);
    if (!validOptionalPort(colonPort)) throw new ParseError(`invalid port ${goQuote(colonPort)} after host`);
  }
  return unescape(host, 'host');
}

/** Go's `parseAuthority`: the host after the last `@`, then the user information before it. */
function parseAuthority(scheme: string, authority: string): { user: string | undefined; host: string } {
  const at = authority.lastIndexOf('@');
  const host = parseHost(scheme, at < 0 ? authority : authority.slice(at + 1));
  if (at < 0) return { user: undefined, host };
  const info = authority.slice(0, at);
  if (!USERINFO.test(info)) throw new ParseError('net/url: invalid userinfo');
  const colon = info.indexOf(':');
  if (colon < 0) return { user: escapeUser(unescape(info, 'user')), host };
  const [name, password] = [unescape(info.slice(0, colon), 'user'), unescape(info.slice(colon + 1), 'user')];
  return { user: `${escapeUser(name)}:${escapeUser(password)}`, host };
}

/** Go's `parse` (not via a request) of a URL without its fragment. */
function parseWithoutFragment(raw: string): Omit<GoUrl, 'fragment'> {
  if ([...raw].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) throw new ParseError('net/url: invalid control character in URL');
  const none = { scheme: '', user: undefined, host: '', rawQuery: '' };
  if (raw === '*') return none;
  const [rawScheme, afterScheme] = splitScheme(raw);
  const scheme = rawScheme.toLowerCase();
  let rest = afterScheme;
  let rawQuery = '';
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) rest = rest.slice(0, -1);
  else if (rest.includes('?')) [rest, rawQuery] = [rest.slice(0, rest.indexOf('?')), rest.slice(rest.indexOf('?') + 1)];
  if (!rest.startsWith('/')) {
    // A rootless path after a scheme is opaque; without a scheme, a colon in the first segment is refused.
    if (scheme !== '') return { ...none, scheme, rawQuery };
    if ((rest.split('/')[0] ?? '').includes(':')) throw new ParseError('first path segment in URL cannot contain colon');
  }
  let user: string | undefined;
  let host = '';
  if ((scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    const authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    rest = slash < 0 ? '' : rest.slice(slash);
    ({ user, host } = parseAuthority(scheme, authority));
  }
  unescape(rest, 'path');
  return { scheme, user, host, rawQuery };
}

/** What `read` answers, or the reason a ParseError gives. */
function attempt<T>(read: () => T): { readonly value: T } | { readonly error: string } {
  try {
    return { value: read() };
  } catch (error) {
    if (error instanceof ParseError) return { error: error.message };
    throw error;
  }
}

/** The parts of `raw` as Go's `url.Parse` reads them, or its error's text (`parse "<url>": <reason>`). */
export function parseGoUrl(raw: string): GoUrl | string {
  const hash = raw.indexOf('#');
  const [beforeFragment, rawFragment] = hash < 0 ? [raw, ''] : [raw.slice(0, hash), raw.slice(hash + 1)];
  // Go names the URL without its fragment when the rest fails, the whole URL when the fragment does.
  const parsed = attempt(() => parseWithoutFragment(beforeFragment));
  if ('error' in parsed) return `parse ${goQuote(beforeFragment)}: ${parsed.error}`;
  const fragment = attempt(() => unescape(rawFragment, 'fragment'));
  if ('error' in fragment) return `parse ${goQuote(raw)}: ${fragment.error}`;
  return { ...parsed.value, fragment: fragment.value };
}
