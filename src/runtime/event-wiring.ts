/**
 * An active CRD's observed Events (`observe.events`, operatorbox/event-triggers.ts) on the runtime's shared Events
 * informer: one informer per runtime and scope (the CRD's `namespace` when it watches one, else all namespaces),
 * held by the CRDs that subscribe while their controllers run.
 */
import type { Controller } from '../controller/controller.js';
import type { CrdDefinition } from '../definition/types.js';
import { SharedInformers } from '../kube/shared-informer.js';
import type { ResourceRef } from '../kube/resource.js';
import { EVENTS_RESOURCE, EventTriggers } from '../operatorbox/event-triggers.js';
import type { ActivationInput } from './activation.js';

/** What ActivationInput carries for observed Events. */
export interface SharedInformersInput {
  /** The runtime's shared informers (the Events informer); default: this CRD's own. */
  readonly sharedInformers?: SharedInformers | undefined;
}

/** The CRD's EventTriggers, or undefined when it observes no Events. `controller` is read when an Event arrives. */
export function eventTriggersOf(crd: CrdDefinition, input: ActivationInput, owner: ResourceRef, controller: () => Controller | undefined): EventTriggers | undefined {
  const entries = crd.operatorBox.observeEvents ?? [];
  if (entries.length === 0) return undefined;
  const { client, options, logger, observer } = input;
  const shared = input.sharedInformers ?? new SharedInformers();
  return new EventTriggers({
    entries,
    source: shared.of({ client, resource: EVENTS_RESOURCE, namespace: crd.namespace, clock: options.clock, tuning: options.watch }),
    owner,
    primary: { keys: () => controller()?.informer.keys() ?? [], has: (key) => controller()?.informer.get(key) !== undefined },
    enqueue: (key) => controller()?.enqueue(key),
    onRestart: (reason) => observer.watchRestarted(reason),
    onError: (error) => observer.informerError(error),
    gates: { dialect: crd.templateDialect, notes: crd.notes, logger, now: () => options.clock.now() },
  });
}
