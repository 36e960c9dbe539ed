// Records what kube-controller-manager's deployment and replicaset controllers do through eight Deployment scenarios,
// for test/testing/deployment-recorded.test.ts (scripts/record-rollouts.sh runs this, then fixture.ts). It starts
// kube-apiserver and etcd (startKubeApiServer), runs kube-controller-manager beside them, and plays the scheduler and
// the kubelet itself: it binds a Pod to a node when it makes it Running and Ready, and ends Pods left terminating
// with a DELETE of grace period 0. After each step it waits until nothing changes for two seconds, then keeps the
// Deployment, its ReplicaSets, their Pods and the new Events.
//
//   node --import tsx scripts/rollouts/record.ts <kube-apiserver assets> <kube-controller-manager> <transcript.json> [scenarios]
//
// Any failure ends the run with a non-zero exit; a transcript is only written whole.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKubeApiServer } from '../../src/testing/index.js';
import { rawRequest, type Endpoint } from '../../src/testing/control-plane/raw-request.js';

/** Kubernetes JSON, read loosely: the recorder only copies what it finds. */
type J = Record<string, any>;

const [assets, kcmBinary, out, only] = process.argv.slice(2);
if (assets === undefined || kcmBinary === undefined || out === undefined) {
  console.error('usage: record.ts <kube-apiserver assets> <kube-controller-manager> <transcript.json> [a,b,...]');
  process.exit(2);
}
const NS = 'default';
const NODE = 'recorder-node-1';

const server = await startKubeApiServer({ assets, fieldManager: 'probe' });
const cluster = server.kubeConfig.getCurrentCluster();
const token = server.kubeConfig.getCurrentUser()?.token;
if (cluster?.caData === undefined || token === undefined) throw new Error('the kube-apiserver kubeconfig has no CA or token');
const ep: Endpoint = { url: server.url, ca: Buffer.from(cluster.caData, 'base64').toString('utf8'), token };
const dir = await mkdtemp(join(tmpdir(), 'katalog-rollouts-'));
const kubeconfigFile = join(dir, 'kubeconfig');
await writeFile(kubeconfigFile, server.kubeconfigYaml, { mode: 0o600 });
const kcmArgs = [`--kubeconfig=${kubeconfigFile}`, '--controllers=deployment,replicaset', '--leader-elect=false', '--use-service-account-credentials=false', '--secure-port=0'];
const kcm = spawn(kcmBinary, kcmArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
const log = createWriteStream(`${out}.kube-controller-manager.log`);
kcm.stdout.pipe(log);
kcm.stderr.pipe(log);
let kcmExit: string | undefined;
kcm.on('exit', (code, signal) => {
  kcmExit = `kube-controller-manager exited (code ${String(code)}, signal ${String(signal)}); see ${out}.kube-controller-manager.log`;
});

async function shutdown(): Promise<void> {
  if (kcm.exitCode === null && kcm.signalCode === null) {
    kcm.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (kcm.exitCode === null && kcm.signalCode === null) kcm.kill('SIGKILL');
  }
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}

async function req(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<J> {
  const answer = await rawRequest(ep, method, path, body, 30_000, contentType);
  if (answer.status >= 400) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
  return JSON.parse(answer.text) as J;
}
const depPath = (name = ''): string => `/apis/apps/v1/namespaces/${NS}/deployments${name === '' ? '' : `/${name}`}`;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const now = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const imageOf = (o: J): unknown => o['spec']?.template?.spec?.containers?.[0]?.image;
const isReady = (pod: J): boolean => (pod['status']?.conditions ?? []).some((c: J) => c['type'] === 'Ready' && c['status'] === 'True');

interface Snapshot {
  readonly dep: J;
  readonly rss: J[];
  readonly pods: J[];
}

/** The Deployment, its ReplicaSets (by revision) and their Pods (by creation). */
async function snapshot(name: string): Promise<Snapshot> {
  const dep = await req('GET', depPath(name));
  const rss = ((await req('GET', `/apis/apps/v1/namespaces/${NS}/replicasets`))['items'] as J[])
    .filter((rs) => (rs['metadata']['ownerReferences'] ?? []).some((o: J) => o['kind'] === 'Deployment' && o['name'] === name))
    .sort((a, b) => Number(a['metadata']['annotations']?.['deployment.kubernetes.io/revision'] ?? 0) - Number(b['metadata']['annotations']?.['deployment.kubernetes.io/revision'] ?? 0));
  const owners = new Set(rss.map((rs) => rs['metadata']['name'] as string));
  const pods = ((await req('GET', `/api/v1/namespaces/${NS}/pods`))['items'] as J[])
    .filter((pod) => (pod['metadata']['ownerReferences'] ?? []).some((o: J) => owners.has(o['name'])))
    .sort((a, b) => String(a['metadata']['creationTimestamp']).localeCompare(String(b['metadata']['creationTimestamp'])) || String(a['metadata']['name']).localeCompare(String(b['metadata']['name'])));
  return { dep, rss, pods };
}

/** Polls every second until three reads in a row see the same resourceVersions (two quiet seconds). */
async function quiet(name: string): Promise<Snapshot> {
  const versions = (s: Snapshot): string => JSON.stringify([s.dep, ...s.rss, ...s.pods].map((o) => o['metadata']['resourceVersion']));
  await sleep(300);
  let last = await snapshot(name);
  let same = 0;
  for (let i = 0; i < 120; i++) {
    await sleep(1000);
    if (kcmExit !== undefined) throw new Error(kcmExit);
    const next = await snapshot(name);
    same = versions(next) === versions(last) ? same + 1 : 0;
    if (same >= 2) return next;
    last = next;
  }
  throw new Error(`${name}: the controllers were still writing after two minutes`);
}

const transcript: { meta: J; scenarios: Record<string, J[]> } = { meta: {}, scenarios: {} };
const seenEvents = new Map<string, string>();

/** The core/v1 Events of the Deployment and its ReplicaSets written since the last step. */
async function newEvents(name: string): Promise<J[]> {
  const fresh: J[] = [];
  for (const e of (await req('GET', `/api/v1/namespaces/${NS}/events`))['items'] as J[]) {
    const rv = e['metadata']['resourceVersion'] as string;
    if (seenEvents.get(e['metadata']['uid']) === rv) continue;
    seenEvents.set(e['metadata']['uid'], rv);
    const involved = e['involvedObject'] as J;
    if (!String(involved['name'] ?? '').startsWith(name)) continue;
    fresh.push({ involved: `${involved['kind']}/${involved['name']}`, type: e['type'], reason: e['reason'], message: e['message'], count: e['count'], source: e['source'], reportingComponent: e['reportingComponent'] });
  }
  return fresh;
}

const managed = (o: J): J[] => (o['metadata']['managedFields'] ?? []).map((f: J) => ({ manager: f['manager'], operation: f['operation'], subresource: f['subresource'], apiVersion: f['apiVersion'], fieldsV1: f['fieldsV1'] }));

async function record(scenario: string, step: string, s: Snapshot): Promise<void> {
  const { dep, rss, pods } = s;
  const meta = dep['metadata'] as J;
  (transcript.scenarios[scenario] ??= []).push({
    step,
    deployment: { name: meta['name'], generation: meta['generation'], annotations: meta['annotations'], spec: { replicas: dep['spec']['replicas'], paused: dep['spec']['paused'], image: imageOf(dep) }, status: dep['status'], managedFields: managed(dep) },
    replicaSets: rss.map((rs) => ({
      name: rs['metadata']['name'],
      generation: rs['metadata']['generation'],
      labels: rs['metadata']['labels'],
      annotations: rs['metadata']['annotations'],
      spec: { replicas: rs['spec']['replicas'], selector: rs['spec']['selector'], templateLabels: rs['spec']['template']['metadata']?.labels, image: imageOf(rs) },
      status: rs['status'],
    })),
    pods: pods.map((pod) => ({ name: pod['metadata']['name'], nodeName: pod['spec']['nodeName'], phase: pod['status']?.phase, ready: isReady(pod), deletionTimestamp: pod['metadata']['deletionTimestamp'], deletionGracePeriodSeconds: pod['metadata']['deletionGracePeriodSeconds'], image: pod['spec']['containers'][0]?.image })),
    events: await newEvents(meta['name']),
  });
  const sizes = rss.map((rs) => `${rs['metadata']['name']}=${rs['spec']['replicas']}/${rs['status']?.replicas ?? 0}`).join(' ');
  console.log(`[${scenario}] ${step}: ${sizes}; pods ${pods.map((p) => `${isReady(p) ? 'R' : '-'}${p['metadata']['deletionTimestamp'] === undefined ? '' : 'T'}`).join('')}`);
}

/** The scheduler and kubelet: binds (unless told not to) and makes Running and Ready every live Pod that is not. */
async function makeReady(name: string, options: { bind?: boolean } = {}, snap?: Snapshot): Promise<number> {
  let made = 0;
  for (const pod of (snap ?? (await snapshot(name))).pods) {
    if (pod['metadata']['deletionTimestamp'] !== undefined || isReady(pod)) continue;
    const podName = pod['metadata']['name'] as string;
    const uid = pod['metadata']['uid'] as string;
    try {
      if ((options.bind ?? true) && pod['spec']['nodeName'] === undefined) {
        await req('POST', `/api/v1/namespaces/${NS}/pods/${podName}/binding?fieldManager=probe-scheduler`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: podName, uid }, target: { apiVersion: 'v1', kind: 'Node', name: NODE } });
      }
      const t = now();
      const condition = (type: string): J => ({ type, status: 'True', lastTransitionTime: t });
      const status = {
        phase: 'Running',
        startTime: t,
        conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map(condition),
        containerStatuses: (pod['spec']['containers'] as J[]).map((c) => ({ name: c['name'], image: c['image'], imageID: '', containerID: `containerd://${podName}-${c['name']}`, ready: true, started: true, restartCount: 0, state: { running: { startedAt: t } } })),
      };
      await req('PATCH', `/api/v1/namespaces/${NS}/pods/${podName}/status?fieldManager=probe-kubelet`, { metadata: { uid }, status }, 'application/merge-patch+json');
      made++;
    } catch (error) {
      // A Pod the controllers deleted between the snapshot and this write: it is not made ready, as a kubelet would not.
      if (!/: (404|409) /.test(error instanceof Error ? error.message : String(error))) throw error;
    }
  }
  return made;
}

/** The kubelet ending every Pod left terminating: a DELETE of grace period 0 with its uid as precondition. */
async function finishTerminating(name: string, snap?: Snapshot): Promise<number> {
  let ended = 0;
  for (const pod of (snap ?? (await snapshot(name))).pods) {
    if (pod['metadata']['deletionTimestamp'] === undefined) continue;
    const answer = await rawRequest(ep, 'DELETE', `/api/v1/namespaces/${NS}/pods/${pod['metadata']['name']}`, { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid: pod['metadata']['uid'] } }, 30_000);
    if (answer.status >= 400 && answer.status !== 404) throw new Error(`DELETE pod ${pod['metadata']['name']}: ${answer.status} ${answer.text}`);
    ended++;
  }
  return ended;
}

function complete({ dep, rss, pods }: Snapshot): boolean {
  const want = dep['spec']['replicas'];
  const status = dep['status'] ?? {};
  const oldGone = rss.filter((rs) => imageOf(rs) !== imageOf(dep)).every((rs) => rs['spec']['replicas'] === 0 && (rs['status']?.replicas ?? 0) === 0);
  return (
    (status.observedGeneration ?? 0) >= dep['metadata']['generation'] &&
    status.updatedReplicas === want &&
    status.replicas === want &&
    status.availableReplicas === want &&
    oldGone &&
    pods.every((pod) => pod['metadata']['deletionTimestamp'] === undefined && isReady(pod))
  );
}

/** The kubelet's step, until the rollout is complete: from one snapshot, make Pods ready and end terminating ones. */
async function stepToCompletion(scenario: string, name: string, label: string, options: { bind?: boolean } = {}): Promise<void> {
  for (let i = 1; i <= 30; i++) {
    const s = await snapshot(name);
    if (complete(s)) return;
    const ready = await makeReady(name, options, s);
    const gone = await finishTerminating(name, s);
    await record(scenario, `${label} step ${i}: kubelet made ${ready} pod(s) ready, finished ${gone} terminating pod(s)`, await quiet(name));
  }
  throw new Error(`${name}: the rollout did not complete in 30 steps`);
}

function deployment(name: string, replicas: number, image: string, spec: J = {}): J {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'nginx', image }] } }, ...spec },
  };
}
const setImage = (name: string, image: string): Promise<J> => req('PATCH', `${depPath(name)}?fieldManager=probe`, [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }], 'application/json-patch+json');
const mergePatch = (name: string, patch: J): Promise<J> => req('PATCH', `${depPath(name)}?fieldManager=probe`, patch, 'application/merge-patch+json');
const create = (d: J): Promise<J> => req('POST', `${depPath()}?fieldManager=probe`, d);

// The scenarios; fixture.ts turns each step's label into the action the replay takes, so the labels are its input.
const scenarios: Record<string, () => Promise<void>> = {
  async a() {
    await create(deployment('web', 3, 'nginx:1'));
    await record('a', 'created web (3 replicas, nginx:1); no pod ready', await quiet('web'));
    const made = await makeReady('web');
    await record('a', `made ${made} pods ready`, await quiet('web'));
  },
  async b() {
    await setImage('web', 'nginx:2');
    await record('b', 'image -> nginx:2 (JSON patch); nothing made ready yet', await quiet('web'));
    await stepToCompletion('b', 'web', 'b');
  },
  async c() {
    await setImage('web', 'nginx:1');
    await record('c', 'image -> nginx:1 (rollback to the first template); nothing made ready yet', await quiet('web'));
    await stepToCompletion('c', 'web', 'c');
  },
  async d() {
    await create(deployment('batch', 3, 'nginx:1', { strategy: { type: 'Recreate' } }));
    await record('d', 'created batch (Recreate, 3 replicas)', await quiet('batch'));
    await makeReady('batch');
    await record('d', 'made all pods ready (bound to a node)', await quiet('batch'));
    await setImage('batch', 'nginx:2');
    await record('d', 'image -> nginx:2; nothing done by the kubelet yet', await quiet('batch'));
    const gone = await finishTerminating('batch');
    await record('d', `kubelet finished ${gone} terminating pod(s) (delete gracePeriodSeconds=0)`, await quiet('batch'));
    await stepToCompletion('d', 'batch', 'd');
  },
  /** Recreate again, with Pods made ready but never bound to a node: their deletion is immediate. */
  async d2() {
    await create(deployment('quick', 3, 'nginx:1', { strategy: { type: 'Recreate' } }));
    await makeReady('quick', { bind: false });
    await record('d2', 'created quick (Recreate, 3), pods made ready WITHOUT nodeName', await quiet('quick'));
    await setImage('quick', 'nginx:2');
    await record('d2', 'image -> nginx:2; nothing done by the kubelet yet', await quiet('quick'));
    await stepToCompletion('d2', 'quick', 'd2', { bind: false });
  },
  async e() {
    await create(deployment('held', 1, 'nginx:1'));
    await makeReady('held');
    await record('e', 'created held (1 replica), made ready', await quiet('held'));
    await mergePatch('held', { spec: { paused: true } });
    await record('e', 'spec.paused=true', await quiet('held'));
    await setImage('held', 'nginx:2');
    await record('e', 'image -> nginx:2 while paused', await quiet('held'));
    await mergePatch('held', { spec: { paused: false } });
    await record('e', 'spec.paused=false', await quiet('held'));
    await stepToCompletion('e', 'held', 'e');
  },
  async f() {
    await create(deployment('lean', 1, 'nginx:1', { revisionHistoryLimit: 1 }));
    await makeReady('lean');
    await record('f', 'created lean (1 replica, revisionHistoryLimit 1, nginx:1), made ready', await quiet('lean'));
    for (const image of ['nginx:2', 'nginx:3']) {
      await setImage('lean', image);
      await record('f', `image -> ${image}`, await quiet('lean'));
      await stepToCompletion('f', 'lean', `f ${image}`);
      await record('f', `${image} complete`, await quiet('lean'));
    }
  },
  async g() {
    await create(deployment('wide', 4, 'nginx:1', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 2 } } }));
    await makeReady('wide');
    await record('g', 'created wide (4, maxSurge 0, maxUnavailable 2), made ready', await quiet('wide'));
    await setImage('wide', 'nginx:2');
    await record('g', 'image -> nginx:2; nothing made ready', await quiet('wide'));
    await mergePatch('wide', { spec: { replicas: 8 } });
    await record('g', 'spec.replicas -> 8 before anything is ready', await quiet('wide'));
    await stepToCompletion('g', 'wide', 'g');
  },
};

try {
  transcript.meta = { kubeControllerManager: kcmArgs.filter((a) => !a.startsWith('--kubeconfig=')), version: await req('GET', '/version'), recordedAt: now() };
  // kube-controller-manager is up once its informers have synced: a throwaway Deployment gets observed.
  await create(deployment('warmup', 0, 'nginx:1'));
  for (let i = 0; ((await req('GET', depPath('warmup')))['status']?.observedGeneration ?? 0) < 1; i++) {
    if (kcmExit !== undefined) throw new Error(kcmExit);
    if (i > 600) throw new Error('kube-controller-manager did not observe a Deployment within 5 minutes');
    await sleep(500);
  }
  await req('DELETE', depPath('warmup'));
  const chosen = only === undefined || only === '' ? undefined : only.split(',');
  for (const [key, run] of Object.entries(scenarios)) {
    if (chosen !== undefined && !chosen.includes(key)) continue;
    console.log(`=== scenario ${key}`);
    await run();
  }
  await writeFile(out, `${JSON.stringify(transcript, null, 1)}\n`);
  console.log(`wrote ${out}`);
} finally {
  await shutdown();
}
