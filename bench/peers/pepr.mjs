// bench/peers: the job on Pepr, run as Pepr runs watch bindings in a cluster: its watcher process
// (PEPR_WATCH_MODE=true; the admission server is not started, no webhook is involved). One Capability with Watch
// bindings for Widgets and for ConfigMaps carrying the owner label (drift correction), created-or-updated and deleted
// apart; Pepr calls Watch callbacks as events arrive, so they record the object and hand the name to the same
// 2-worker queue as the hand-written peers. The child is applied with Pepr's K8s (kubernetes-fluent-client)
// server-side apply, Ready with its PatchStatus. Pepr's watcher waits for its store (a PeprStore in pepr-system,
// created when missing) before it starts watching; the store's start-up jitter (0–3 s, to spread replicas) is taken
// out, and the clock starts when the module is built. Its HTTPS server (healthz and metrics in watch mode) gets a
// throwaway certificate.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JOB, started, workQueue } from './probe.mjs';

process.env.PEPR_WATCH_MODE = 'true';
process.env.LOG_LEVEL ??= 'warn';
const certs = mkdtempSync(join(tmpdir(), 'katalog-bench-pepr-'));
execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=pepr-bench', '-keyout', join(certs, 'tls.key'), '-out', join(certs, 'tls.crt')], { stdio: 'ignore' });
process.env.SSL_KEY_PATH = join(certs, 'tls.key');
process.env.SSL_CERT_PATH = join(certs, 'tls.crt');

// Imported after the environment is set: Pepr reads PEPR_WATCH_MODE when its module is evaluated.
const { Capability, K8s, PeprModule, RegisterKind, a } = await import('pepr');

const { group, version, kind, plural, namespace } = JOB;
class Widget extends a.GenericKind {}
RegisterKind(Widget, { group, version, kind, plural });
const widgets = new Map();
const children = new Map();

const queue = workQueue(JOB.workers, async (name) => {
  const widget = widgets.get(name);
  if (widget === undefined) return;
  if (!JOB.childMatches(widget, children.get(name))) await K8s(a.ConfigMap).Apply(JOB.child(widget), { force: true });
  if (!JOB.isReady(widget)) await K8s(Widget).PatchStatus({ metadata: { name, namespace }, status: JOB.readyStatus(widget) });
});

const bench = new Capability({ name: 'bench', description: 'the bench/peers job', namespaces: [namespace] });
// A Pepr binding takes one kind of event, and each opens a watch of its own: four bindings, four watches.
bench
  .When(Widget)
  .IsCreatedOrUpdated()
  .Watch((widget) => {
    widgets.set(widget.metadata.name, widget);
    queue.add(widget.metadata.name);
  });
bench
  .When(Widget)
  .IsDeleted()
  .Watch((widget) => void widgets.delete(widget.metadata.name));
const ownerOf = (child) => child.metadata?.labels?.['bench.example.io/owner'];
bench
  .When(a.ConfigMap)
  .IsCreatedOrUpdated()
  .WithLabel('bench.example.io/owner')
  .Watch((child, phase) => {
    const owner = ownerOf(child);
    if (owner === undefined) return;
    children.set(owner, child);
    // As the hand-written loop: a child's ADDED is the echo of the peer's own apply; an update is drift.
    if (phase !== 'ADDED') queue.add(owner);
  });
bench
  .When(a.ConfigMap)
  .IsDeleted()
  .WithLabel('bench.example.io/owner')
  .Watch((child) => {
    const owner = ownerOf(child);
    if (owner === undefined) return;
    children.delete(owner);
    queue.add(owner);
  });

started();
const random = Math.random;
Math.random = () => 0; // the store's start-up jitter: read once, in the constructor
const module = new PeprModule({ description: 'bench/peers', pepr: { uuid: 'bench', onError: 'reject', alwaysIgnore: { namespaces: [] } } }, [bench], { deferStart: true });
Math.random = random;
module.start(0);
