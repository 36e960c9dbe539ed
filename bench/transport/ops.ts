// The requests bench/transport.ts sends: what the runtime sends most (server-side applies of children, merge
// patches of status) and a GET, all on small ConfigMaps.
import type { KubeClient } from '../../src/kube/client.js';
import type { ResourceRef } from '../../src/kube/resource.js';

export const OPS = ['apply', 'merge patch', 'get'] as const;
export type Op = (typeof OPS)[number];

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };
/** Objects the patches and GETs address (created by the applies of the first round). */
const TARGETS = 200;

/** Sends `count` requests of `op` from `concurrency` loops; returns the connections open at the end. */
export async function runOps(client: KubeClient, op: Op, count: number, concurrency: number, tag: string): Promise<number> {
  let next = 0;
  let peak = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        await send(client, op, i, tag);
        peak = Math.max(peak, client.transport.openSockets);
      }
    }),
  );
  return peak;
}

async function send(client: KubeClient, op: Op, i: number, tag: string): Promise<void> {
  const name = `target-${i % TARGETS}`;
  if (op === 'apply') {
    await client.apply(
      CONFIGMAPS,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels: { bench: 'transport' } }, data: { image: 'nginx:1.27', replicas: '2', round: tag } },
      { fieldManager: 'bench', force: true },
    );
  } else if (op === 'merge patch') {
    await client.patch(CONFIGMAPS, name, 'default', { data: { last: String(i) } }, { fieldManager: 'bench' });
  } else {
    await client.get(CONFIGMAPS, name, 'default');
  }
}
