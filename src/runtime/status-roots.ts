/**
 * The roots Orkestra's status fields and Events read beside the object and its children:
 * - `.metrics`: the CRD's load figures and `autoscaleActive` ({@link CrdAutoscale.templateFigures}); absent before
 *   the controller runs;
 * - `.health`: the CRD's own health, as Orkestra's health route shapes it: `name`, `state` (`pending`, `healthy`,
 *   `degraded`), `healthy` and `lastError` (`""` when there is none). `lastError` is the health record's text, the
 *   one the inspection API serves, so it carries no custom-resource data.
 * Each is added only for a CRD whose status or Events read it (`.metrics`, `.health` as a root, not `.cross.x.metrics`
 * or `.healthy`), so that no other CRD computes them per status write.
 */
import type { CrdDefinition } from '../definition/types.js';
import type { CrdHealthSnapshot } from '../observe/health.js';
import type { CrdAutoscale } from './autoscale-wiring.js';

/** `.<root>` read as a root of the data: not a field of another value (`.cross.x.metrics`), not a longer name. */
const reads = (text: string, root: string): boolean => new RegExp(`(?<![\\w\\])])\\.${root}\\b`).test(text);

/** The data of status fields and Events with the roots they read added. */
export function withStatusRoots(
  crd: CrdDefinition,
  autoscaler: () => CrdAutoscale | undefined,
  health: (() => CrdHealthSnapshot) | undefined,
): <T extends Record<string, unknown>>(data: T) => T {
  const text = JSON.stringify([crd.operatorBox.status, crd.operatorBox.events ?? null]);
  const metrics = reads(text, 'metrics');
  const healthRead = health !== undefined && reads(text, 'health') ? health : undefined;
  if (!metrics && healthRead === undefined) return (data) => data;
  return (data) => {
    const figures = metrics ? autoscaler()?.templateFigures() : undefined;
    const snapshot = healthRead?.();
    return {
      ...data,
      ...(figures === undefined ? {} : { metrics: figures }),
      ...(snapshot === undefined ? {} : { health: { name: snapshot.name, state: snapshot.state, healthy: snapshot.state === 'healthy', lastError: snapshot.lastError ?? '' } }),
    };
  };
}
