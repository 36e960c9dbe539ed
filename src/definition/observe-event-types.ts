/**
 * The observed Events of the frozen model (re-exported by types.ts): Kubernetes Events (events.k8s.io/v1) whose
 * appearance, change or removal reconciles custom resources of a CRD again (Orkestra's `observe.events`).
 */
import type { Gate, WatchEntry, WatchEvent } from './flow-types.js';

/** `regarding` / `related`: each field given must equal the Event's reference; absent fields match anything. */
export interface EventObjectMatch {
  /** The reference's apiVersion, whole. */
  readonly apiVersion?: string;
  /** The reference's kind. */
  readonly kind?: string;
  /** The group of the reference's apiVersion (`""` = the core group). */
  readonly group?: string;
  /** The version of the reference's apiVersion. */
  readonly version?: string;
  /** The referenced object's name. */
  readonly name?: string;
  /** The referenced object's namespace. */
  readonly namespace?: string;
}

/**
 * `observe.events.<name>`: an Event matches when every field given equals the Event's (`reason`, `action`, `type`,
 * `reportingController`, `reportingInstance`, `metadata.namespace`, `metadata.name`, `regarding`, `related`).
 * A match whose change is in `on` and passes `enqueueGate` enqueues keys as a watch entry does: `keyFrom`, else
 * the Event's owner references to the CRD's kind, else every custom resource of the CRD.
 */
export interface ObservedEvent {
  /** The entry's name (the key under `observe.events`). */
  readonly name: string;
  /** The Event's `reason` must be this. */
  readonly reason?: string;
  /** The Event's `action` must be this. */
  readonly action?: string;
  /** The Event's `type` must be this (`Normal`, `Warning`). */
  readonly type?: string;
  /** The Event's `reportingController` must be this. */
  readonly reportingController?: string;
  /** The Event's `reportingInstance` must be this. */
  readonly reportingInstance?: string;
  /** What the Event's `regarding` reference must be (matching only: it does not route). */
  readonly regarding?: EventObjectMatch;
  /** What the Event's `related` reference must be (matching only). */
  readonly related?: EventObjectMatch;
  /** Only Events in this namespace. */
  readonly namespace?: string;
  /** Only the Event of this name. */
  readonly eventName?: string;
  /** Which changes of a matching Event trigger; all three when none were written. */
  readonly on: readonly WatchEvent[];
  /** Key resolution, as a watch entry's: a label of the Event holding the key, or a fixed custom resource. */
  readonly keyFrom: WatchEntry['keyFrom'];
  /** Checked on the Event before any key is enqueued; absent = every match passes. */
  readonly enqueueGate?: Gate;
  /** The document path of the entry, for messages. */
  readonly path: string;
}

/** The operatorBox's part for observed Events (OperatorBox extends it). */
export interface BoxObserve {
  /** Kubernetes Events whose changes reconcile this CRD's custom resources again (`observe.events`); absent when none. */
  readonly observeEvents?: readonly ObservedEvent[];
}
