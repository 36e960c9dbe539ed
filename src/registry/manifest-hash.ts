/**
 * The hash of a rendered manifest, stored on the child in the annotation `katalog.dev/template-hash` when it is
 * applied. It tells the two reasons for a re-apply apart: the template (or the parent's spec) changed, so the hash
 * differs; or someone edited the child, so the hash is the same but the child no longer holds the manifest. Only
 * the second is drift, counted in `controller_drift_corrections_total`.
 *
 * The text and the hash never change between versions of katalog for the same manifest (a new text would look like
 * a template change on every child after an upgrade): `test/registry/subset.test.ts` pins them.
 */
import * as crypto from 'node:crypto';
import { canonicalJson } from '../util/canonical-json.js';

export const TEMPLATE_HASH_ANNOTATION = 'katalog.dev/template-hash';

/**
 * `crypto.hash` (Node 20.12 and later) hashes in one call, without building a Hash object and its stream; older
 * Node 20 releases build one.
 */
const sha256Hex: (text: string) => string =
  typeof (crypto as { hash?: unknown }).hash === 'function'
    ? (text) => (crypto as unknown as { hash(algorithm: string, data: string): string }).hash('sha256', text)
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

/** 16 hex digits of the SHA-256 of the manifest's canonical JSON. */
export function manifestHash(manifest: unknown): string {
  return sha256Hex(canonicalJson(manifest)).slice(0, 16);
}
