/**
 * The hash kube-controller-manager gives a Pod template (`pod-template-hash`, the suffix of a ReplicaSet's name, a
 * StatefulSet's and DaemonSet's revision hash): FNV-32a of the template, then of the collision count when there is
 * one, written in decimal with each digit mapped onto Kubernetes' safe alphabet (`rand.SafeEncodeString`). So the
 * value has a cluster's form ("7c5ddbdf54", digits and `bcdf`). kube-controller-manager hashes Go's dump of the
 * struct, which cannot be reproduced here: the text hashed is the template's canonical JSON, so the same template
 * always has the same hash, but not the one a cluster would give it. Pure.
 */
import { canonicalJson } from '../../../util/canonical-json.js';
import { SAFE_ALPHABET } from '../../resources/dns-names.js';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function fnv32a(hash: number, bytes: Uint8Array): number {
  let h = hash;
  for (const byte of bytes) h = Math.imul(h ^ byte, FNV_PRIME) >>> 0;
  return h;
}

/** `rand.SafeEncodeString`: each character's code, modulo the alphabet's length, picks a letter. */
function safeEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += SAFE_ALPHABET[text.charCodeAt(i) % SAFE_ALPHABET.length] ?? 'b';
  return out;
}

/** The hash of `template`; `collisionCount` (the Deployment's `status.collisionCount`) is mixed in when set. */
export function podTemplateHash(template: unknown, collisionCount?: number): string {
  let hash = fnv32a(FNV_OFFSET, new TextEncoder().encode(canonicalJson(template ?? {})));
  if (collisionCount !== undefined) {
    // Go writes the count as 4 little-endian bytes into an 8-byte buffer and hashes all 8.
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    hash = fnv32a(hash, bytes);
  }
  return safeEncode(String(hash));
}
