/**
 * The notifier's counter, on the runtime's registry: `controller_notifications_total{crd, team, result}` with
 * `result` one of `sent`, `failed` (every attempt failed), `dropped` (the queue was full, or the runtime stopped
 * first). Teams come from the definition, so the cardinality is bounded by it.
 */
import { Counter, type Registry } from 'prom-client';

export type NotificationResult = 'sent' | 'failed' | 'dropped';

export interface NotifierMetrics {
  count(crd: string, team: string, result: NotificationResult): void;
}

export function notifierMetrics(registry: Registry, prefix: string): NotifierMetrics {
  const name = `${prefix}controller_notifications_total`;
  const existing = registry.getSingleMetric(name);
  const counter =
    existing instanceof Counter
      ? (existing as Counter<'crd' | 'team' | 'result'>)
      : new Counter({ name, help: 'Notifications by CRD, team and result (sent, failed, dropped).', labelNames: ['crd', 'team', 'result'], registers: [registry] });
  return { count: (crd, team, result) => counter.inc({ crd, team, result }) };
}
