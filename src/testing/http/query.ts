/** Query parameters the server understands, decoded and checked. */
import { badRequest } from '../status-errors.js';

/**
 * A boolean query parameter as kube-apiserver converts it: absent is false, `0` and `false` (any case) are false,
 * anything else (`true`, `True` as Python sends it, `1`, even an empty value) is true.
 */
export function flag(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null) return false;
  return value !== '0' && value.toLowerCase() !== 'false';
}

export function optional(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name);
  return value === null ? undefined : value;
}

export function nonNegativeInt(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw badRequest(`${name}: invalid value ${JSON.stringify(value)}: must be a non-negative integer`);
  return n;
}

/** `dryRun=All` → true; absent → false; anything else → 400. */
export function dryRun(query: URLSearchParams): boolean {
  const values = query.getAll('dryRun');
  if (values.length === 0) return false;
  if (values.every((v) => v === 'All')) return true;
  throw badRequest(`dryRun: Unsupported value: ${JSON.stringify(values[0])}: supported values: "All"`);
}

/** The default field manager Kubernetes derives from a User-Agent: the part before the first `/`. */
export function managerFromUserAgent(userAgent: string | undefined): string {
  const head = (userAgent ?? '').split('/')[0] ?? '';
  let printable = '';
  for (const ch of head) if (ch >= ' ' && ch <= '~') printable += ch;
  return printable.slice(0, 128) || 'unknown';
}
