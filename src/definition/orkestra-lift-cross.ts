/**
 * Orkestra's `cross` entries into katalog's shape: the older `kind:` key names the CRD as `crd:` does now; in
 * `source`, the older `type:` is `protocol:`. Credentials that katalog does not read are refused by name: a token
 * written in the document or taken from the environment (`token`, `auth.token`, `auth.env`), as for external calls.
 * `labelSelector` (finding the CRD through a CRD entry's own labelSelector) stays as written: the normaliser
 * resolves it (cross-label-selector.ts).
 */
import type { Path } from './path.js';
import { isMap } from './schema-check.js';
import { move, refuse, type Lift } from './orkestra-lift-steps.js';

type Map = Record<string, unknown>;

const TOKEN = {
  feature: 'cross source token',
  reason: 'a credential written in the document (or an environment variable) is not read; put it in a Secret and use auth.secretRef',
  anchor: 'cross',
} as const;

/** One `cross[]` entry, lifted in place. */
export function liftCrossEntry(lift: Lift, entry: Map, path: Path): void {
  move(lift, entry, 'kind', path, entry, 'crd', path, 'both "kind" (older Orkestra) and "crd" are given; keep "crd"');
  const source = entry.source;
  if (!isMap(source)) return;
  const at = [...path, 'source'];
  move(lift, source, 'type', at, source, 'protocol', at, 'both "type" (older Orkestra) and "protocol" are given; keep "protocol"');
  if (Object.hasOwn(source, 'token')) refuse(lift, source, 'token', at, TOKEN);
  const auth = source.auth;
  if (!isMap(auth)) return;
  const authAt = [...at, 'auth'];
  if (Object.hasOwn(auth, 'token')) refuse(lift, auth, 'token', authAt, { ...TOKEN, feature: 'cross source auth.token' });
  if (Object.hasOwn(auth, 'env')) refuse(lift, auth, 'env', authAt, { ...TOKEN, feature: 'cross source auth.env' });
  // Reported above; "missing secretRef" would be noise.
  if (!Object.hasOwn(auth, 'secretRef')) delete source.auth;
}
