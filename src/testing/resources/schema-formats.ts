/**
 * The string formats kube-apiserver checks in a custom resource (`format` of a `type: string` schema), as its
 * OpenAPI validator's registry checks them. A format outside this list is stripped from the schema before
 * validation, so it checks nothing (kube-apiserver does the same); `integer` keeps only `int32`/`int64` and `number`
 * only `float`/`double`, which are range checks (schema-validation.ts), not string formats.
 */
import { isIPv6 } from 'node:net';

/** A format's name as the registry knows it: hyphens removed (`date-time` is `datetime`). */
export function normalizedFormat(format: string): string {
  return format.replaceAll('-', '');
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const HOSTNAME =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const TIME_OF_DAY = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const IPV4_SLOPPY = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const MAC = /^(?:[0-9a-f]{2}(?:[:-][0-9a-f]{2}){5}|[0-9a-f]{2}(?:[:-][0-9a-f]{2}){7}|[0-9a-f]{2}(?:[:-][0-9a-f]{2}){19}|[0-9a-f]{4}(?:\.[0-9a-f]{4}){2}|[0-9a-f]{4}(?:\.[0-9a-f]{4}){3}|[0-9a-f]{4}(?:\.[0-9a-f]{4}){9})$/i;
const CREDIT_CARD = /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$/;
const SSN = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const HEX_COLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const RGB_PART = '\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*';
const RGB_COLOR = new RegExp(`^rgb\\(${RGB_PART},${RGB_PART},${RGB_PART}\\)$`);
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DURATION_PART = /(\d+)\s*([A-Za-zµ]+)/g;
const GO_DURATION = /^[-+]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$|^[-+]?0$/;
const DURATION_UNITS: readonly (readonly string[])[] = [['ns', 'nano'], ['us', 'µs', 'micro'], ['ms', 'milli'], ['s', 'sec'], ['m', 'min'], ['h', 'hr', 'hour'], ['d', 'day'], ['w', 'wk', 'week']];

/** A full date `YYYY-MM-DD` that exists (Go's `time.Parse("2006-01-02")`). */
function isDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function isDateTime(text: string): boolean {
  if (text.length < 4) return false;
  const parts = text.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0] ?? '')) return false;
  const match = TIME_OF_DAY.exec(parts[1] ?? '');
  return match !== null && (match[1] ?? '') <= '23' && (match[2] ?? '') <= '59' && (match[3] ?? '') <= '59';
}

/** IPv4 as Kubernetes' sloppy parser reads it (leading zeros tolerated), or an IPv6 address written with a dot. */
function isIPv4(text: string): boolean {
  const match = IPV4_SLOPPY.exec(text);
  if (match !== null) return match.slice(1).every((part) => Number(part) <= 255);
  return text.includes('.') && isIPv6(text);
}

function isCidr(text: string): boolean {
  const slash = text.indexOf('/');
  if (slash < 0) return false;
  const address = text.slice(0, slash);
  const bits = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return false;
  if (IPV4_SLOPPY.test(address)) return isIPv4(address) && Number(bits) <= 32;
  return isIPv6(address) && Number(bits) <= 128;
}

function isEmail(text: string): boolean {
  const angle = /<([^<>]*)>\s*$/.exec(text);
  const address = angle === null ? text.trim() : (angle[1] ?? '');
  return /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/.test(address);
}

function isRequestUri(text: string): boolean {
  if (text === '' || /[\s\u0000-\u001f\u007f]/.test(text)) return false;
  return text.startsWith('/') || /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(text);
}

function isIsbn10(text: string): boolean {
  const digits = text.replace(/[\s-]/g, '');
  if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * Number(digits[i]);
  sum += digits[9] === 'X' ? 100 : 10 * Number(digits[9]);
  return sum % 11 === 0;
}

function isIsbn13(text: string): boolean {
  const digits = text.replace(/[\s-]/g, '');
  if (!/^[0-9]{13}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(digits[i]);
  return (10 - (sum % 10)) % 10 === Number(digits[12]);
}

function isCreditCard(text: string): boolean {
  const digits = text.replace(/[^0-9]/g, '');
  if (!CREDIT_CARD.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = Number(digits[i]);
    if (double) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

function isDuration(text: string): boolean {
  if (GO_DURATION.test(text)) return true;
  for (const match of text.matchAll(DURATION_PART)) {
    const unit = (match[2] ?? '').trim().toLowerCase();
    for (const variants of DURATION_UNITS) {
      const last = variants.length - 1;
      if (variants.some((variant, i) => (i === last && unit.startsWith(variant)) || variant === unit)) return true;
    }
  }
  return false;
}

function isHostname(text: string): boolean {
  return HOSTNAME.test(text) && text.length <= 255 && text.split('.').every((part) => part.length <= 63);
}

/** Each known format's check, by normalized name. */
const CHECKS: ReadonlyMap<string, (text: string) => boolean> = new Map<string, (text: string) => boolean>([
  ['bsonobjectid', (t) => /^[0-9a-fA-F]{24}$/.test(t)],
  ['uri', isRequestUri],
  ['email', isEmail],
  ['hostname', isHostname],
  ['ipv4', isIPv4],
  ['ipv6', (t) => t.includes(':') && isIPv6(t)],
  ['cidr', isCidr],
  ['mac', (t) => MAC.test(t)],
  ['uuid', (t) => UUID.test(t)],
  ['uuid3', (t) => UUID3.test(t)],
  ['uuid4', (t) => UUID4.test(t)],
  ['uuid5', (t) => UUID5.test(t)],
  ['isbn', (t) => isIsbn10(t) || isIsbn13(t)],
  ['isbn10', isIsbn10],
  ['isbn13', isIsbn13],
  ['creditcard', isCreditCard],
  ['ssn', (t) => t.length >= 9 && t.length <= 11 && SSN.test(t)],
  ['hexcolor', (t) => HEX_COLOR.test(t)],
  ['rgbcolor', (t) => RGB_COLOR.test(t)],
  ['byte', (t) => BASE64.test(t)],
  ['password', () => true],
  ['date', isDate],
  ['duration', isDuration],
  ['datetime', isDateTime],
  ['k8sshortname', (t) => t.length <= 63 && DNS_LABEL.test(t)],
  ['k8slongname', (t) => t.length <= 253 && DNS_SUBDOMAIN.test(t)],
]);

/** Whether kube-apiserver checks `format` on strings (other formats are stripped from the schema). */
export function isKnownStringFormat(format: string): boolean {
  return CHECKS.has(normalizedFormat(format));
}

/** Whether `text` is valid in `format` (true for a format that is not checked). */
export function matchesFormat(format: string, text: string): boolean {
  const check = CHECKS.get(normalizedFormat(format));
  return check === undefined || check(text);
}
