// bench/scale's operator process: one katalog runtime with `crds` CRDs (Scale0…), each with one child ConfigMap
// (drift correction on) and a Ready condition, against the test API server named by the kubeconfig it is given.
// Driven over IPC: { go } runs start() and answers its milliseconds; { memory } answers RSS (now and peak since
// start), heap after a full GC and V8's collections since { go }; { rss } answers RSS and V8's committed heap as
// they are (no GC); { exit } stops the runtime and exits. Message 0 reports the heap and RSS measured after a GC
// before anything was created, the baseline of "heap per cached resource".
import { KubeConfig } from '@kubernetes/client-node';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { constants as perfConstants, performance, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics, writeHeapSnapshot } from 'node:v8';
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
// When the peak happened (ms after { go }, -1: before it) and V8's spaces then (used / committed, bytes): where
// the peak comes from (the first lists, the first reconciles, convergence) is printed beside it.
let goAt: number | undefined;
let peakAtMs = -1;
let peakSpaces: Record<string, [number, number]> = {};
const sampler = setInterval(() => {
  const rss = process.memoryUsage.rss();
  if (rss <= peakRss) return;
  peakRss = rss;
  peakAtMs = goAt === undefined ? -1 : performance.now() - goAt;
  peakSpaces = Object.fromEntries(getHeapSpaceStatistics().map((space) => [space.space_name.replace('_space', ''), [space.space_used_size, space.space_size]]));
}, 25);
sampler.unref();
// V8's collections from { go } on, by kind: scavenges (the young generation) and full collections, with their
// pauses (ms), answered with { memory } before its own forced collection. A small young generation (a container's:
// Node sizes it from the memory limit) shows here as many scavenges (docs/performance.md, "Scale, session 12").
const collections = { scavenges: 0, scavengeMs: 0, full: 0, fullMs: 0 };
const collecting = new PerformanceObserver((list) => {
  if (goAt === undefined) return;
  for (const entry of list.getEntries()) {
    const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
    if (kind === perfConstants.NODE_PERFORMANCE_GC_MINOR) {
      collections.scavenges++;
      collections.scavengeMs += entry.duration;
    } else if (kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) {
      collections.full++;
      collections.fullMs += entry.duration;
    }
  }
});
collecting.observe({ entryTypes: ['gc'] });
// Development aid: V8's heap spaces (used / committed, MiB) every 500 ms on stderr (SCALE_TRACE_SPACES=1).
if (process.env['SCALE_TRACE_SPACES'] !== undefined) {
  const t0 = performance.now();
  const mib = (bytes: number): string => (bytes / 1048576).toFixed(0);
  setInterval(() => {
    const spaces = getHeapSpaceStatistics()
      .filter((space) => space.space_size > 1048576)
      .map((space) => `${space.space_name.replace('_space', '')} ${mib(space.space_used_size)}/${mib(space.space_size)}`);
    console.error(`[spaces ${((performance.now() - t0) / 1000).toFixed(1)} s] rss ${mib(process.memoryUsage.rss())} ${spaces.join(', ')}`);
  }, 500).unref();
}

// Development aid: every allocation of start() and convergence, garbage included, sampled by V8's heap profiler
// (SCALE_ALLOCATIONS=file.heapprofile; open it in Chrome's DevTools). Without SCALE_ALLOCATIONS_YOUNG=1, objects that
// die young are left out: what remains is what was promoted to the old generation (kept, or garbage that a major GC
// collects), the allocations that make V8 grow the old generation.
const allocationsFile = process.env['SCALE_ALLOCATIONS'];
const allocationProfile =
  allocationsFile === undefined
    ? undefined
    : (() => {
        const session = new Session();
        session.connect();
        return {
          start: () => session.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: process.env['SCALE_ALLOCATIONS_YOUNG'] !== undefined } as never),
          stop: async () => writeFileSync(allocationsFile, JSON.stringify((await session.post('HeapProfiler.stopSampling')).profile)),
        };
      })();

const crds = Object.fromEntries(Array.from({ length: CRDS }, (_, i) => [`scale${i}`, scaleCrd(i)]));
// SCALE_WORKERS and SCALE_MAX_RECONCILES (development): workers per CRD and the runtime's reconcile cap;
// SCALE_STREAMING_LISTS=1 fills the caches from streaming lists (`watch.streamingLists`).
const runtime = createRuntime({ apiVersion: 'katalog.dev/v1', kind: 'Katalog', metadata: { name: 'scale' }, spec: { crds } }, { kubeConfig, ...(process.env['SCALE_STREAMING_LISTS'] === '1' ? { watch: { streamingLists: true } } : {}), ...(process.env['SCALE_MAX_RECONCILES'] === undefined ? {} : { maxConcurrentReconciles: Number(process.env['SCALE_MAX_RECONCILES']) }), defaults: { maxDepth: Number(maxDepthArg), ...(process.env['SCALE_WORKERS'] === undefined ? {} : { workers: Number(process.env['SCALE_WORKERS']) }) } });

process.on('message', async (raw: unknown) => {
  const message = raw as { id: number; go?: boolean; memory?: boolean; rss?: boolean; exit?: boolean };
  if (message.go === true) {
    const began = performance.now();
    goAt = began;
    if (allocationProfile !== undefined) await allocationProfile.start();
    // Development aid: what in-flight reconciles hold, in a heap snapshot taken during convergence
    // (SCALE_MID_SNAPSHOT=file.heapsnapshot, SCALE_MID_SNAPSHOT_MS after start(), default 10 s).
    const midSnapshot = process.env['SCALE_MID_SNAPSHOT'];
    if (midSnapshot !== undefined) setTimeout(() => writeHeapSnapshot(midSnapshot), Number(process.env['SCALE_MID_SNAPSHOT_MS'] ?? 10_000)).unref();
    // Development aid: a CPU profile of start() alone (SCALE_START_PROFILE=file.cpuprofile; open it in DevTools).
    const startProfile = process.env['SCALE_START_PROFILE'];
    const profiler = startProfile === undefined ? undefined : new Session();
    if (profiler !== undefined) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    runtime.start().then(
      async () => {
        const ms = performance.now() - began;
        if (profiler !== undefined && startProfile !== undefined) writeFileSync(startProfile, JSON.stringify((await profiler.post('Profiler.stop')).profile));
        send(message.id, ms);
      },
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  } else if (message.memory === true) {
    if (allocationProfile !== undefined) await allocationProfile.stop();
    collecting.disconnect();
    gc();
    const rss = process.memoryUsage.rss();
    if (rss > peakRss) {
      peakRss = rss;
      peakAtMs = goAt === undefined ? -1 : performance.now() - goAt;
    }
    // Development aid: where the heap goes (SCALE_HEAP_SNAPSHOT=file.heapsnapshot).
    if (process.env['SCALE_HEAP_SNAPSHOT'] !== undefined) writeHeapSnapshot(process.env['SCALE_HEAP_SNAPSHOT']);
    const cpu = process.cpuUsage();
    const usage = process.memoryUsage();
    send(message.id, { rss, peakRss, peakAtMs, peakSpaces, heap: usage.heapUsed, heapTotal: usage.heapTotal, external: usage.external + usage.arrayBuffers, heapLimit: getHeapStatistics().heap_size_limit, cpuMs: (cpu.user + cpu.system) / 1000, collections });
  } else if (message.rss === true) {
    // RSS as it is, without a collection first (bench/scale `idle=`).
    send(message.id, { rss: process.memoryUsage.rss(), heapTotal: process.memoryUsage().heapTotal });
  } else if (message.exit === true) {
    void runtime.stop().then(() => {
      clearInterval(sampler);
      process.exit(0);
    });
  }
});
send(0, baseline);
