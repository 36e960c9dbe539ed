// bench/peers: the job on kubernetes-fluent-client (Pepr's client): K8s(kind).Watch for Widgets and ConfigMaps,
// K8s(ConfigMap).Apply (server-side apply) for the child, K8s(Widget).PatchStatus for Ready, 2 workers.
import { JOB, started, workQueue } from './probe.mjs';
import { K8s, kind, GenericKind, RegisterKind } from 'kubernetes-fluent-client';

class Widget extends GenericKind {}
RegisterKind(Widget, { group: JOB.group, version: JOB.version, kind: JOB.kind, plural: JOB.plural });
const widgets = new Map();
const children = new Map();

const queue = workQueue(JOB.workers, async (name) => {
  const widget = widgets.get(name);
  if (widget === undefined) return;
  if (!JOB.childMatches(widget, children.get(name))) await K8s(kind.ConfigMap).Apply(JOB.child(widget), { force: true });
  if (!JOB.isReady(widget)) await K8s(Widget).PatchStatus({ metadata: { name, namespace: JOB.namespace }, status: JOB.readyStatus(widget) });
});

started();
await K8s(kind.ConfigMap, { namespace: JOB.namespace })
  .WithLabel('bench.example.io/owner')
  .Watch((child, phase) => {
    const owner = child.metadata?.labels?.['bench.example.io/owner'];
    if (owner === undefined) return;
    if (phase === 'DELETED') children.delete(owner);
    else children.set(owner, child);
    // As the hand-written loop: a child's ADDED is the echo of the peer's own apply; an update or a deletion is drift.
    if (phase !== 'ADDED') queue.add(owner);
  })
  .start();
await K8s(Widget, { namespace: JOB.namespace })
  .Watch((widget, phase) => {
    const name = widget.metadata.name;
    if (phase === 'DELETED') widgets.delete(name);
    else widgets.set(name, widget);
    queue.add(name);
  })
  .start();
