/**
 * The runtime's notifier, made when the definition declares notifications (teams or rules) and not otherwise: its
 * failure Events go through the runtime's client, its counter onto the runtime's registry.
 */
import type { Registry } from 'prom-client';
import type { Definition } from '../definition/types.js';
import type { KubeClient } from '../kube/client.js';
import { eventRecorderFor } from '../kube/event-recorder.js';
import type { ResolvedOptions } from '../options.js';
import { notifierMetrics } from './notifier-metrics.js';
import { Notifier } from './notifier.js';

/** The notifier of `definition`, or undefined when it has no notifications. `client` is there once the runtime started. */
export function notifierFor(definition: Definition, options: ResolvedOptions, registry: Registry, client: () => KubeClient | undefined): Notifier | undefined {
  const rules = [...definition.crds.values()].some((crd) => crd.enabled && (crd.notifications?.length ?? 0) > 0);
  if (!rules) return undefined;
  const logger = options.logger;
  return new Notifier({
    katalog: definition.name,
    config: definition.notification ?? { enabled: true, teams: new Map() },
    options: options.notifications,
    clock: options.clock,
    logger,
    metrics: notifierMetrics(registry, options.metricsPrefix),
    warn: async (object, reason, message) => {
      const kube = client();
      if (kube === undefined) return;
      await eventRecorderFor(kube, object, {
        component: 'katalog',
        now: () => options.clock.now(),
        onError: (error) => logger.warn('notifications: could not record the NotificationFailed Event', { error: error instanceof Error ? error.message : String(error) }),
      }).warning(reason, message);
    },
  });
}
