/**
 * kube-apiserver's graceful deletion (the generic registry's BeforeDelete with a kind's CheckGracefulDelete): an
 * object of a kind that deletes gracefully (Pods) is first marked with a deletionTimestamp its grace period ahead,
 * and removed later by whoever finishes it (the kubelet) with a grace period of 0. While the deletion is pending, a
 * DELETE may only shorten the period; a longer one, or none, changes nothing. Pure.
 */
import { rfc3339 } from '../cluster.js';
import { metadataOf, type KubeObject } from '../store/record.js';

/** How a DELETE begins. */
export type DeletionStart =
  /** A graceful deletion is under way and this request does not shorten it: nothing changes. */
  | { readonly kind: 'pending' }
  /** The object is marked (or its mark moved earlier); with a period of 0 it is removed at once after the mark. */
  | { readonly kind: 'graceful'; readonly timestamp: string; readonly period: number; readonly first: boolean }
  /** No graceful deletion: the object is removed, or marked by its finalizers. */
  | { readonly kind: 'immediate' };

/** A kind's grace period for a new deletion, given the one the request asked for (kube's CheckGracefulDelete). */
export type GracePeriodRule = (object: KubeObject, requested: number | undefined) => number;

/**
 * How a DELETE of `object` begins. `rule` is the kind's grace period rule (none: the kind is deleted at once);
 * `requested` the request's `gracePeriodSeconds`; `nowMs` the server's clock.
 */
export function startDeletion(object: KubeObject, rule: GracePeriodRule | undefined, requested: number | undefined, nowMs: number): DeletionStart {
  // Negative values are taken as 1 second on the delete path.
  const asked = requested !== undefined && requested < 0 ? 1 : requested;
  if (rule === undefined) return { kind: 'immediate' };
  const metadata = metadataOf(object);
  const timestamp = metadata['deletionTimestamp'];
  if (typeof timestamp !== 'string') {
    const period = rule(object, asked);
    return { kind: 'graceful', timestamp: rfc3339(nowMs + period * 1000), period, first: true };
  }
  const recorded = metadata['deletionGracePeriodSeconds'];
  const existing = typeof recorded === 'number' && recorded < 0 ? 1 : recorded;
  // Marked without a grace period (or with 0): the earlier delete's removal did not happen; it is retried now.
  if (typeof existing !== 'number' || existing === 0) return { kind: 'immediate' };
  if (asked === undefined || asked >= existing) return { kind: 'pending' };
  // The mark moves back by the old period and forward by the new one, never into the past: a graceful request whose
  // time is already up keeps a period of 1 second, so that whoever finishes the deletion still does.
  const moved = Date.parse(timestamp) - existing * 1000 + asked * 1000;
  if (moved >= nowMs) return { kind: 'graceful', timestamp: rfc3339(moved), period: asked, first: false };
  return { kind: 'graceful', timestamp: rfc3339(nowMs), period: asked === 0 ? 0 : 1, first: false };
}
