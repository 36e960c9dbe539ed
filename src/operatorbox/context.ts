/**
 * Builds the one context object hooks and reconcilers receive (DESIGN.md habit 6: new fields never break a hook).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeClient } from '../kube/client.js';
import { eventRecorderFor } from '../kube/event-recorder.js';
import type { KubeObject } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import type { CacheReader, CrdInfo, EventRecorder, HookContext, NotFoundContext, ReconcilerContext } from './types.js';

/** What every context of one CRD shares. */
export interface ContextDeps {
  readonly crd: CrdInfo;
  readonly client: KubeClient;
  readonly kubeConfig: KubeConfig;
  readonly cache: CacheReader;
  readonly logger: Logger;
  readonly now: () => number;
}

const NO_EVENTS: EventRecorder = Object.freeze({
  normal: async (): Promise<void> => undefined,
  warning: async (): Promise<void> => undefined,
});

function recorder(deps: ContextDeps, object: KubeObject | undefined, logger: Logger): EventRecorder {
  if (object === undefined) return NO_EVENTS;
  return eventRecorderFor(deps.client, object, {
    component: 'katalog',
    now: deps.now,
    onError: (error) => logger.warn('could not record a Kubernetes Event', { error }),
  });
}

export function hookContext(
  deps: ContextDeps,
  key: string,
  object: KubeObject,
  signal: AbortSignal,
  children: HookContext['children'] = {},
): HookContext {
  const logger = deps.logger.child({ key });
  return {
    object,
    crd: deps.crd,
    client: deps.client,
    kubeConfig: deps.kubeConfig,
    cache: deps.cache,
    logger,
    signal,
    events: recorder(deps, object, logger),
    children,
  };
}

export function notFoundContext(deps: ContextDeps, key: string, signal: AbortSignal): NotFoundContext {
  return {
    key,
    crd: deps.crd,
    client: deps.client,
    kubeConfig: deps.kubeConfig,
    cache: deps.cache,
    logger: deps.logger.child({ key }),
    signal,
    events: NO_EVENTS,
  };
}

export function reconcilerContext(deps: ContextDeps, key: string, object: KubeObject | undefined, signal: AbortSignal): ReconcilerContext {
  const logger = deps.logger.child({ key });
  return {
    object,
    crd: deps.crd,
    client: deps.client,
    kubeConfig: deps.kubeConfig,
    cache: deps.cache,
    logger,
    signal,
    events: recorder(deps, object, logger),
  };
}
