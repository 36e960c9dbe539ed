/**
 * The base64 fields of built-in kinds (a Secret's `data`, a ConfigMap's `binaryData`) as kube-apiserver decodes them:
 * Go's standard encoding with padding (go/go-base64.ts), whose error names the byte where it gave up. A value that does
 * not decode fails the whole request with 400 before anything else is looked at.
 */
import { badRequest } from '../../status-errors.js';
import { goBase64Error } from '../../go/go-base64.js';
import { objectAt, type Json } from './fields.js';

const FIELDS: Readonly<Record<string, string>> = { '/secrets': 'data', '/configmaps': 'binaryData' };

/** Throws kube-apiserver's 400 when a base64 field of `object` (of the resource `key`, kind `kind`) does not decode. */
export function checkBase64Fields(key: string, kind: string, object: Json): void {
  const field = FIELDS[key];
  if (field === undefined) return;
  for (const value of Object.values(objectAt(object, field) ?? {})) {
    const at = typeof value === 'string' ? goBase64Error(value) : 0;
    if (at >= 0) throw badRequest(`${kind} in version "v1" cannot be handled as a ${kind}: illegal base64 data at input byte ${at}`);
  }
}
