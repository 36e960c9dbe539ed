// bench/peers: the job on @dot-i/k8s-operator (client-node 0.20 underneath): its watchResource for Widgets and
// their ConfigMaps, its patchResourceStatus for Ready; the library runs event handlers one at a time, so handlers
// only record the object and hand the name to a 2-worker queue.
import { JOB, started, workQueue } from './probe.mjs';
import OperatorModule from '@dot-i/k8s-operator';

const Operator = OperatorModule.default ?? OperatorModule;
const { group, version, plural, namespace } = JOB;
const widgets = new Map();
const children = new Map();

class BenchOperator extends Operator {
  async init() {
    const queue = workQueue(JOB.workers, async (name) => {
      const entry = widgets.get(name);
      if (entry === undefined) return;
      const widget = entry.object;
      if (!JOB.childMatches(widget, children.get(name))) {
        await this.k8sApi.patchNamespacedConfigMap(name, namespace, JOB.child(widget), undefined, undefined, JOB.fieldManager, undefined, true, {
          headers: { 'Content-Type': 'application/apply-patch+yaml' },
        });
      }
      if (!JOB.isReady(widget)) {
        await this.patchResourceStatus(entry.meta, JOB.readyStatus(widget));
      }
    });
    await this.watchResource('', 'v1', 'configmaps', async (event) => {
      const owner = event.object.metadata?.labels?.['bench.example.io/owner'];
      if (owner === undefined) return;
      if (event.type === 'DELETED') children.delete(owner);
      else children.set(owner, event.object);
      // As the hand-written loop: a child's ADDED is the echo of the peer's own apply; an update or a deletion is drift.
      if (event.type !== 'ADDED') queue.add(owner);
    }, namespace);
    await this.watchResource(group, version, plural, async (event) => {
      const name = event.object.metadata.name;
      if (event.type === 'DELETED') widgets.delete(name);
      else widgets.set(name, { object: event.object, meta: event.meta });
      queue.add(name);
    }, namespace);
  }
}

// The library logs every failed status patch (a 409 whenever the Widget changed after the event it reacts to: it
// sends the resourceVersion) with its stack, and goes on; the server counts those 409s (the bench's "409s" rows), so
// they are not printed here. Any other error still is.
const isConflict = (message) => /status code 409/.test(typeof message === 'string' ? message : JSON.stringify(message) ?? '');
const silent = { debug() {}, info() {}, warn: console.warn, error: (message, ...rest) => void (isConflict(message) || console.error(message, ...rest)) };
started();
await new BenchOperator(silent).start();
