/**
 * Kubernetes Events about an object (`kubectl describe` shows them). Recording is best effort: a failure is
 * reported to `onError` and never thrown, so an operator never fails a reconcile for want of an Event.
 */
import type { KubeClient } from './client.js';
import type { KubeObject, ResourceRef } from './resource.js';

const EVENTS: ResourceRef = { group: '', version: 'v1', kind: 'Event', plural: 'events', namespaced: true };

export interface ObjectEventRecorder {
  normal(reason: string, message: string): Promise<void>;
  warning(reason: string, message: string): Promise<void>;
}

export function eventRecorderFor(
  client: KubeClient,
  object: KubeObject,
  options: { component: string; now: () => number; onError: (error: unknown) => void },
): ObjectEventRecorder {
  const record = async (type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> => {
    const meta = object.metadata ?? {};
    const namespace = meta.namespace ?? 'default';
    const time = new Date(options.now()).toISOString();
    try {
      await client.create(EVENTS, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { generateName: `${meta.name ?? 'object'}.`, namespace },
        involvedObject: {
          apiVersion: object.apiVersion,
          kind: object.kind,
          name: meta.name,
          namespace: meta.namespace,
          uid: meta.uid,
          resourceVersion: meta.resourceVersion,
        },
        type,
        reason,
        message: message.slice(0, 1024),
        source: { component: options.component },
        reportingComponent: options.component,
        firstTimestamp: time,
        lastTimestamp: time,
        count: 1,
      });
    } catch (error) {
      options.onError(error);
    }
  };
  return {
    normal: (reason, message) => record('Normal', reason, message),
    warning: (reason, message) => record('Warning', reason, message),
  };
}
