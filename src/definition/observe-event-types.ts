/**
 * The observed Events of the frozen model (re-exported by types.ts): Kubernetes Events (events.k8s.io/v1) whose
 * appearance, change or removal reconciles custom resources of a CRD again (Orkestra's `observe.events`).
 */
import type { Gate, WatchEntry, WatchEvent } from './flow-types.js';

/** `regarding` / `related`: each field given must equal the Event's reference; absent fields match anything. */
export interface EventObjectMatch {
  readonly apiVersion?: string;
  readonly kind?: string;
  /** The group of the reference's apiVersion (`""` = the core group). */
  readonly group?: string;
  /** The version of the reference's apiVersion. */
  readonly version?: string;
  readonly name?: string;
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
  readonly reason?: string;
  readonly action?: string;
  readonly type?: string;
  readonly reportingController?: string;
  readonly reportingInstance?: string;
  readonly regarding?: EventObjectMatch;
  readonly related?: EventObjectMatch;
  /** Only Events in this namespace. */
  readonly namespace?: string;
  /** Only the Event of this name. */
  readonly eventName?: string;
  /** Which changes of a matching Event trigger; all three when none were written. */
  readonly on: readonly WatchEvent[];
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
