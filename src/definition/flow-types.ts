/**
 * The flow types of the frozen model: pre-reconcile gates with their sentinels, and watch entries (re-exported by
 * types.ts, which holds the rest of the model).
 */
import type { Condition } from './types.js';
import type { ExternalCall, GateFailPolicy } from './external-types.js';

/**
 * The sentinels of Orkestra's pre-reconcile gates: each is true when that part of the object changed between the
 * state the gate saw last for the key and the state it sees now (docs/operatorbox.md, "Pre-reconcile gates").
 */
export const SENTINELS = [
  'generationChanged',
  'labelsChanged',
  'annotationsChanged',
  'deletionStarted',
  'finalizersChanged',
  'nameChanged',
  'namespaceChanged',
  'generateNameChanged',
  'uidChanged',
  'resourceVersionChanged',
  'creationTimestampChanged',
  'deletionGracePeriodSecondsChanged',
  'ownerReferenceChanged',
  'managedFieldsChanged',
] as const;
export type Sentinel = (typeof SENTINELS)[number];

/** A pre-reconcile gate: passes when one of its sentinels is true, else when its conditions hold. */
export interface Gate {
  readonly when: readonly Condition[];
  readonly anyOf: readonly Condition[];
  /** Shorthand: the gate passes when any of these is true (then `when`/`anyOf` are not looked at). */
  readonly sentinels: readonly Sentinel[];
  /** Calls made before the conditions (after preReconcile.external); absent when none. */
  readonly external?: readonly ExternalCall[];
  /** What a failed call does to the gate; absent = `open`. */
  readonly failPolicy?: GateFailPolicy;
}

/**
 * `operatorBox.preReconcile`: gates evaluated before the box runs for a live object. A closed gate skips the
 * cycle (no children, no hooks, no status write); the delete path is never gated.
 */
export interface PreReconcile {
  /** The sentinels the gates may use (declared once, as in Orkestra). */
  readonly sentinels: readonly Sentinel[];
  readonly enqueueGate: Gate | undefined;
  readonly reconcileGate: Gate | undefined;
  /** Calls shared by both gates, made before each gate's own; absent when none. */
  readonly external?: readonly ExternalCall[];
}

export type WatchEvent = 'create' | 'update' | 'delete';

/**
 * `operatorBox.watch[]`: another kind whose changes reconcile custom resources of this CRD again. The keys come
 * from `keyFrom` when given, else from an owner reference to this CRD's kind, else every custom resource of the
 * CRD (broadcast).
 */
export interface WatchEntry {
  readonly apiVersion: string;
  readonly kind: string;
  /** Watch only this namespace (the informer's scope); absent = all namespaces. */
  readonly namespace: string | undefined;
  /** Watch only the object of this name. */
  readonly name: string | undefined;
  /** Which changes trigger; all three when none were written. */
  readonly on: readonly WatchEvent[];
  /** Key resolution: a label of the watched object holding the key, or a fixed custom resource. */
  readonly keyFrom: { readonly label: string } | { readonly name: string; readonly namespace: string | undefined } | undefined;
  /**
   * Checked before the change enqueues anything (Orkestra's `watch[].enqueueGate`): its sentinels compare the
   * watched object's old and new state, its conditions read the watched object. Absent = every change passes.
   * No external calls (refused at load).
   */
  readonly enqueueGate?: Gate;
  /** The document path of the entry, for messages. */
  readonly path: string;
}

export type { ObservedEvent, EventObjectMatch, BoxObserve } from './observe-event-types.js';
