// Shared by every operator of bench/peers, each in its own process: answers the bench's questions over IPC.
//   started()  — call right before the operator starts watching: heap and CPU from here on are the operator's.
//   { heap } — heap in use after a full GC, minus the heap at started(); { cpu } — CPU µs since started();
//   { elu } — the share of wall time the event loop was busy since started() (0..1);
//   { gcMark } — starts counting garbage-collection pauses; { gcs } — their count, total and longest ms since then.
import { performance, PerformanceObserver } from 'node:perf_hooks';

let pauses = undefined;
new PerformanceObserver((list) => {
  if (pauses !== undefined) for (const entry of list.getEntries()) pauses.push(entry.duration);
}).observe({ entryTypes: ['gc'] });

let baseHeap = 0;
let baseCpu = { user: 0, system: 0 };
let baseElu = performance.eventLoopUtilization();

function heapNow() {
  for (let i = 0; i < 4; i++) globalThis.gc?.();
  return process.memoryUsage().heapUsed;
}

export function started() {
  baseHeap = heapNow();
  baseCpu = process.cpuUsage();
  baseElu = performance.eventLoopUtilization();
  process.send?.({ id: 0, value: 'started' });
}

process.on('message', (message) => {
  if (message.heap) process.send?.({ id: message.id, value: heapNow() - baseHeap });
  else if (message.cpu) {
    const cpu = process.cpuUsage(baseCpu);
    process.send?.({ id: message.id, value: cpu.user + cpu.system });
  } else if (message.elu) process.send?.({ id: message.id, value: performance.eventLoopUtilization(baseElu).utilization });
  else if (message.gcMark) {
    pauses = [];
    process.send?.({ id: message.id, value: true });
  } else if (message.gcs) {
    const seen = pauses ?? [];
    process.send?.({ id: message.id, value: { count: seen.length, totalMs: seen.reduce((a, b) => a + b, 0), maxMs: Math.max(0, ...seen) } });
  } else if (message.exit) process.exit(0);
});

/** The job of every peer, for the ones written by hand. */
export const JOB = {
  group: 'example.io',
  version: 'v1',
  plural: 'widgets',
  kind: 'Widget',
  namespace: 'default',
  workers: Number(process.env.WORKERS ?? 2),
  fieldManager: 'peer',
  /** The child ConfigMap of a Widget: same name, owned by it. */
  child(widget) {
    return {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: widget.metadata.name,
        namespace: widget.metadata.namespace,
        labels: { 'bench.example.io/owner': widget.metadata.name },
        ownerReferences: [{ apiVersion: 'example.io/v1', kind: 'Widget', name: widget.metadata.name, uid: widget.metadata.uid, controller: true, blockOwnerDeletion: true }],
      },
      data: { image: String(widget.spec?.image ?? ''), replicas: String(widget.spec?.replicas ?? 1) },
    };
  },
  /** True when the child has the data the Widget asks for (drift correction compares this). */
  childMatches(widget, child) {
    const want = JOB.child(widget).data;
    return child !== undefined && child.data?.image === want.image && child.data?.replicas === want.replicas;
  },
  isReady(widget) {
    return (widget.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True' && c.observedGeneration === widget.metadata.generation);
  },
  readyStatus(widget) {
    return { conditions: [{ type: 'Ready', status: 'True', reason: 'Reconciled', message: '', observedGeneration: widget.metadata.generation, lastTransitionTime: new Date().toISOString() }] };
  },
};

/** A keyed queue drained by `workers` async workers; a key is never processed twice at once. */
export function workQueue(workers, handle) {
  const queued = new Set();
  const order = [];
  const busy = new Set();
  const again = new Set();
  let wake = [];
  async function worker() {
    for (;;) {
      const key = order.shift();
      if (key === undefined) {
        await new Promise((resolve) => wake.push(resolve));
        continue;
      }
      queued.delete(key);
      busy.add(key);
      try {
        await handle(key);
      } catch (error) {
        // The bench has no faults: an error here is a bug of the peer's setup; say it and retry.
        console.error(`peer reconcile of ${key} failed: ${error?.message ?? error}`);
        again.add(key);
      }
      busy.delete(key);
      if (again.delete(key)) add(key);
    }
  }
  function add(key) {
    if (busy.has(key)) {
      again.add(key);
      return;
    }
    if (queued.has(key)) return;
    queued.add(key);
    order.push(key);
    const waiting = wake;
    wake = [];
    for (const resolve of waiting) resolve();
  }
  for (let i = 0; i < workers; i++) void worker();
  return { add };
}
