/**
 * Watch events as Tables (`Accept: application/json;as=Table;…` on a watch, as `kubectl get -w` sends): each event's
 * object becomes a one-row Table, with the column definitions in the first event only; BOOKMARK and ERROR events
 * pass unchanged. PartialObjectMetadata watches get the object's metadata only.
 */
import type { Cluster } from '../cluster.js';
import type { ResourceView } from '../resources/resource-type.js';
import type { KubeObject } from '../store/record.js';
import type { Rendering } from './accept.js';
import { columnsFor, includeObjectOf, table } from './render.js';

/** A function that rewrites a chunk of watch lines (`{"type":…,"object":…}\n`…) in the negotiated rendering. */
export function tableEvents(cluster: Cluster, view: ResourceView, rendering: Rendering, query: URLSearchParams): (chunk: string) => string {
  const include = includeObjectOf(query);
  let first = true;
  return (chunk) =>
    chunk
      .split('\n')
      .map((line) => {
        if (line === '') return line;
        const event = JSON.parse(line) as { type: string; object: KubeObject };
        if (event.type === 'BOOKMARK' || event.type === 'ERROR') return line;
        if (rendering.as === 'metadata') {
          return JSON.stringify({ type: event.type, object: { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${rendering.version}`, metadata: event.object['metadata'] } });
        }
        const version = rendering.as === 'table' ? rendering.version : 'v1';
        const metadata = { resourceVersion: (event.object['metadata'] as { resourceVersion?: unknown } | undefined)?.resourceVersion };
        const object = table(columnsFor(cluster, view), [event.object], metadata, { version, include, withColumns: first, now: cluster.clock.now() });
        first = false;
        return JSON.stringify({ type: event.type, object });
      })
      .join('\n');
}
