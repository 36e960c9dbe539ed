// bench/scale's operator process: one katalog runtime with `crds` CRDs (Scale0…), each with one child ConfigMap
// (drift correction on) and a Ready condition, against the test API server named by the kubeconfig it is given.
// Driven over IPC: { go } runs start() and answers its milliseconds; { memory } answers RSS (now and peak since
// start) and heap after a full GC; { exit } stops the runtime and exits. Message 0 reports the heap and RSS measured
// after a GC before anything was created, the baseline of "heap per cached resource".
import { KubeConfig } from '@kubernetes/client-node';
import { performance } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';
import { createRuntime } from '../../src/create-runtime.js';
import { scaleCrd } from './scale-definition.js';

const [kubeconfigPath, crdsArg, maxDepthArg] = process.argv.slice(2);
const CRDS = Number(crdsArg);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const send = (id: number, value: unknown): void => void process.send?.({ id, value });

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(kubeconfigPath ?? '');
gc();
const baseline = { heap: process.memoryUsage().heapUsed, rss: process.memoryUsage.rss() };
let peakRss = baseline.rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 25);
sampler.unref();

const crds = Object.fromEntries(Array.from({ length: CRDS }, (_, i) => [`scale${i}`, scaleCrd(i)]));
const runtime = createRuntime({ apiVersion: 'katalog.dev/v1', kind: 'Katalog', metadata: { name: 'scale' }, spec: { crds } }, { kubeConfig, defaults: { maxDepth: Number(maxDepthArg) } });

process.on('message', (raw: unknown) => {
  const message = raw as { id: number; go?: boolean; memory?: boolean; exit?: boolean };
  if (message.go === true) {
    const began = performance.now();
    runtime.start().then(
      () => send(message.id, performance.now() - began),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  } else if (message.memory === true) {
    gc();
    const rss = process.memoryUsage.rss();
    peakRss = Math.max(peakRss, rss);
    // Development aid: where the heap goes (SCALE_HEAP_SNAPSHOT=file.heapsnapshot).
    if (process.env['SCALE_HEAP_SNAPSHOT'] !== undefined) writeHeapSnapshot(process.env['SCALE_HEAP_SNAPSHOT']);
    const cpu = process.cpuUsage();
    const usage = process.memoryUsage();
    send(message.id, { rss, peakRss, heap: usage.heapUsed, heapTotal: usage.heapTotal, external: usage.external + usage.arrayBuffers, cpuMs: (cpu.user + cpu.system) / 1000 });
  } else if (message.exit === true) {
    void runtime.stop().then(() => {
      clearInterval(sampler);
      process.exit(0);
    });
  }
});
send(0, baseline);
