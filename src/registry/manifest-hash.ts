/**
 * The hash of a rendered manifest, stored on the child in the annotation `katalog.dev/template-hash` when it is
 * applied. It tells the two reasons for a re-apply apart: the template (or the parent's spec) changed, so the hash
 * differs; or someone edited the child, so the hash is the same but the child no longer holds the manifest. Only
 * the second is drift, counted in `controller_drift_corrections_total`.
 */
import { createHash } from 'node:crypto';

export const TEMPLATE_HASH_ANNOTATION = 'katalog.dev/template-hash';

/** JSON with map keys sorted, so that equal values have equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** 16 hex digits of the SHA-256 of the manifest's canonical JSON. */
export function manifestHash(manifest: unknown): string {
  return createHash('sha256').update(canonicalJson(manifest)).digest('hex').slice(0, 16);
}
