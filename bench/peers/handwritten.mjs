// bench/peers: the job written by hand on @kubernetes/client-node (the version katalog is built with): two
// informers, a keyed queue with 2 workers, server-side apply of the child and a merge patch of status.
import { JOB, started, workQueue } from './probe.mjs';

const k8s = await import(new URL('../../node_modules/@kubernetes/client-node/dist/index.js', import.meta.url).href);
const kc = new k8s.KubeConfig();
kc.loadFromClusterAndUser({ name: 'bench', server: process.argv[2], skipTLSVerify: true }, { name: 'bench' });
const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
const custom = kc.makeApiClient(k8s.CustomObjectsApi);
const core = kc.makeApiClient(k8s.CoreV1Api);
const { group, version, plural, namespace } = JOB;

const widgets = k8s.makeInformer(kc, `/apis/${group}/${version}/namespaces/${namespace}/${plural}`, () =>
  custom.listNamespacedCustomObject({ group, version, namespace, plural }),
);
const children = k8s.makeInformer(kc, `/api/v1/namespaces/${namespace}/configmaps`, () => core.listNamespacedConfigMap({ namespace, labelSelector: 'bench.example.io/owner' }), 'bench.example.io/owner');

const queue = workQueue(JOB.workers, async (name) => {
  const widget = widgets.get(name, namespace);
  if (widget === undefined) return;
  if (!JOB.childMatches(widget, children.get(name, namespace))) {
    await objects.patch(JOB.child(widget), undefined, undefined, JOB.fieldManager, true, k8s.PatchStrategy.ServerSideApply);
  }
  if (!JOB.isReady(widget)) {
    await custom.patchNamespacedCustomObjectStatus(
      { group, version, namespace, plural, name, body: { status: JOB.readyStatus(widget) } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
  }
});
for (const event of ['add', 'update']) widgets.on(event, (widget) => queue.add(widget.metadata.name));
for (const event of ['update', 'delete']) children.on(event, (child) => queue.add(child.metadata.labels['bench.example.io/owner']));
widgets.on('error', (error) => console.error('widget informer', error));
children.on('error', (error) => console.error('child informer', error));
started();
await children.start();
await widgets.start();
