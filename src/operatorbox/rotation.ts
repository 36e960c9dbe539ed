/**
 * Secret rotation (`rotateAfter`, docs/orkestra-compatibility.md#rotation): a `secrets` entry created once and
 * regenerated (rendered afresh, so `randomAlphanumeric` & co. give new values) when its age passes the duration.
 * The age is read from the Secret's `katalog.dev/generated-at` annotation; the reconcile asks to be requeued when
 * the next rotation is due (at most a day ahead: the timer then looks again).
 */
import { KatalogError } from '../errors.js';
import type { KubeObject, ResourceRef } from '../kube/resource.js';
import { parseDuration } from '../util/duration.js';
import type { SourceReader } from './copies.js';

/** The annotation holding when a rotating Secret's values were generated (RFC 3339). */
export const GENERATED_AT = 'katalog.dev/generated-at';

/** The longest requeue a rotation asks for; a later rotation is looked at again after it. */
export const MAX_ROTATION_WAIT_MS = 24 * 3_600_000;

const DAY = 86_400_000;
/** Orkestra's extended units beside Go's: days, weeks, months of 30 days, years of 365 days. */
const EXTENDED: Readonly<Record<string, number>> = { d: DAY, w: 7 * DAY, mo: 30 * DAY, y: 365 * DAY };
const EXTENDED_FORM = /^(\d+(?:\.\d+)?)(d|w|mo|y)$/;

/** A rotation duration in milliseconds: a Go duration (`90m`, `1h30m`) or Orkestra's `30d`, `2w`, `6mo`, `1y`. */
export function parseRotation(text: string): number | undefined {
  const extended = EXTENDED_FORM.exec(text.trim());
  const ms = extended === null ? parseDuration(text.trim()) : Number(extended[1]) * (EXTENDED[extended[2] ?? ''] ?? Number.NaN);
  return ms !== undefined && Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

const SECRETS: ResourceRef = { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true };

/**
 * Decides one rotating Secret: stamps `manifest` with its generation time and says whether it must be written
 * now (`regenerate`: missing annotation, unreadable annotation, or due) and when to look again.
 */
export async function planRotation(
  manifest: KubeObject,
  rendered: unknown,
  source: string,
  read: SourceReader,
  now: number,
  signal: AbortSignal,
): Promise<{ readonly regenerate: boolean; readonly requeueAfterMs: number }> {
  const every = typeof rendered === 'string' ? parseRotation(rendered) : undefined;
  if (every === undefined) throw new KatalogError('E_MANIFEST', `${source}: rotateAfter must render a duration such as 90d, 12h or 1y`);
  const metadata = (manifest.metadata ??= {});
  const existing = await read(SECRETS, metadata.name ?? '', metadata.namespace, signal);
  const stamped = existing?.metadata?.annotations?.[GENERATED_AT];
  const generatedAt = stamped === undefined ? Number.NaN : Date.parse(stamped);
  const age = now - generatedAt;
  const due = existing !== undefined && (Number.isNaN(generatedAt) || age >= every);
  const keep = existing !== undefined && !due;
  metadata.annotations = { ...metadata.annotations, [GENERATED_AT]: keep && stamped !== undefined ? stamped : new Date(now).toISOString() };
  const wait = keep ? every - age : every;
  return { regenerate: due, requeueAfterMs: Math.max(1, Math.min(wait, MAX_ROTATION_WAIT_MS)) };
}
