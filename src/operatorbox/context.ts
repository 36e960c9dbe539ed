/**
 * Builds the one context object hooks and reconcilers receive (DESIGN.md habit 6: new fields never break a hook).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeClient } from '../kube/client.js';
import { eventRecorderFor } from '../kube/event-recorder.js';
import type { KubeObject } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import type { CacheReader, CrdInfo, EventRecorder, HookContext, NotFoundContext, ReconcilerContext } from './types.js';
import type { CodeArgs } from './code-args.js';

/** What every context of one CRD shares. */
export interface ContextDeps {
  readonly crd: CrdInfo;
  readonly client: KubeClient;
  readonly kubeConfig: KubeConfig;
  readonly cache: CacheReader;
  readonly logger: Logger;
  readonly now: () => number;
  /** The args of the CRD's hooks or constructor (code-args.ts); none when absent. */
  readonly args?: CodeArgs;
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

/** The fields every context shares. */
function common(deps: ContextDeps, key: string, signal: AbortSignal): Pick<HookContext, 'crd' | 'client' | 'kubeConfig' | 'cache' | 'logger' | 'signal'> {
  return { crd: deps.crd, client: deps.client, kubeConfig: deps.kubeConfig, cache: deps.cache, logger: deps.logger.child({ key }), signal };
}

export function hookContext(
  deps: ContextDeps,
  key: string,
  object: KubeObject,
  signal: AbortSignal,
  children: HookContext['children'] = {},
): HookContext {
  const base = common(deps, key, signal);
  const args = deps.args?.render?.(object, children) ?? writtenArgs(deps);
  return { ...base, object, events: recorder(deps, object, base.logger), children, args };
}

/** A private copy of the args as written. */
function writtenArgs(deps: ContextDeps): HookContext['args'] {
  return deps.args === undefined ? {} : structuredClone(deps.args.written);
}

export function notFoundContext(deps: ContextDeps, key: string, signal: AbortSignal): NotFoundContext {
  return { ...common(deps, key, signal), key, events: NO_EVENTS, args: writtenArgs(deps) };
}

/** `external`: the constructor's call results of this cycle (copied, so the reconciler may change its own). */
export function reconcilerContext(
  deps: ContextDeps,
  key: string,
  object: KubeObject | undefined,
  signal: AbortSignal,
  external: ReconcilerContext['external'] = {},
): ReconcilerContext {
  const base = common(deps, key, signal);
  return { ...base, object, events: recorder(deps, object, base.logger), args: writtenArgs(deps), external: structuredClone(external) };
}
