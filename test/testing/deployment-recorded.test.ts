// The simulated Deployment controller replayed against a recording of the real one: kube-controller-manager v1.37.2
// (its deployment and replicaset controllers) ran against kube-apiserver v1.37.2 with a probe acting as the kubelet,
// through rolling updates, a rollback, Recreate, a pause, a history limit and a scaling during a rollout
// (test/fixtures/kube-controller-manager/rollouts.json; docs/testing.md says how it was recorded). Each step is done
// again here, the kubelet's "make the Pending Pods ready" being the simulation's readyAfterMs and its "finish the
// Pods left terminating" the simulated kubelet's podTerminationMs (shorter: a step that makes Pods ready also ends
// those that were terminating before it), and the Deployment and its ReplicaSets must be what the real controllers
// left: sizes, revisions and their annotations, labels and selectors, status counts (terminating Pods included;
// those Go leaves out when 0 left out), condition reasons and messages, and the fields the controller's status
// writes own on the Deployment (its managedFields entry), and the Events the controllers recorded meanwhile (Pod
// names, random there, compared by their ReplicaSet). Scenario d2's Pods were never bound to a node, so they
// went at once: it runs on a server whose kubelet ends a Pod as soon as it is marked. ReplicaSet names differ by
// their hash, so both sides name them by order of creation.
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppsV1Api, CoreV1Api, type V1Deployment, type V1ReplicaSet } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FakeClock } from '../support/fake-clock.js';

type Json = Record<string, unknown>;
type Action =
  | { do: 'create'; name: string; replicas: number; image: string; spec: Json; ready: boolean }
  | { do: 'ready' | 'finish' | 'nothing' }
  | { do: 'image'; image: string }
  | { do: 'pause'; paused: boolean }
  | { do: 'scale'; replicas: number };
interface RecordedReplicaSet {
  name: string;
  labels: Json;
  annotations: Json;
  spec: { replicas: number; matchLabels: Json; templateLabels: Json; image: string };
  status: Json;
}
interface Step {
  step: string;
  action: Action;
  /** What of the recording this step does not compare, and why. */
  ignore?: { replicaSetGeneration?: string; terminatingReplicas?: string; events?: string };
  /** `kubeControllerManager`: the controller's managedFields entries on the Deployment, as [operation, subresource, fieldsV1]. */
  deployment: { name: string; annotations: Json; status: Json; kubeControllerManager: unknown[][] };
  replicaSets: RecordedReplicaSet[];
  /** The Events of the Deployment and its ReplicaSets since the step before: [object, type, reason, message, count]. */
  events: unknown[][];
}

const recording = JSON.parse(readFileSync(new URL('../fixtures/kube-controller-manager/rollouts.json', import.meta.url), 'utf8')) as { scenarios: Record<string, Step[]> };
const READY_AFTER = 1000;
const TERMINATION = 400;

/** Replaces each ReplicaSet name (and its hash) by `<deployment>-#<n>`, n counting names in order of first sight. */
class Names {
  private readonly seen = new Map<string, string>();
  constructor(private readonly deployment: string) {}
  learn(names: readonly string[]): void {
    for (const name of names) if (!this.seen.has(name)) this.seen.set(name, `${this.deployment}-#${this.seen.size + 1}`);
  }
  apply(value: unknown): unknown {
    let text = JSON.stringify(value);
    for (const [name, alias] of this.seen) {
      text = text.replaceAll(name, alias).replaceAll(name.slice(this.deployment.length + 1), alias.slice(this.deployment.length + 1));
    }
    return JSON.parse(text);
  }
}

function conditionsOf(status: Json): Json[] {
  return ((status['conditions'] as Json[] | undefined) ?? []).map((c) => ({ type: c['type'], status: c['status'], reason: c['reason'], message: c['message'] }));
}

function statusOf(status: Json | undefined): Json {
  const { conditions: _, ...counts } = status ?? {};
  return conditionsOf(status ?? {}).length > 0 ? { ...counts, conditions: conditionsOf(status ?? {}) } : counts;
}

function observed(deployment: V1Deployment, replicaSets: V1ReplicaSet[]): Omit<State, 'events'> {
  return {
    deployment: {
      name: deployment.metadata?.name ?? '',
      annotations: { ...deployment.metadata?.annotations },
      status: statusOf(deployment.status as Json | undefined),
      kubeControllerManager: (deployment.metadata?.managedFields ?? []).filter((e) => e.manager === 'kube-controller-manager').map((e) => [e.operation, e.subresource ?? '', e.fieldsV1]),
    },
    replicaSets: replicaSets
      .map((rs) => ({
        name: rs.metadata?.name ?? '',
        labels: { ...rs.metadata?.labels },
        annotations: { ...rs.metadata?.annotations },
        spec: { replicas: rs.spec?.replicas ?? 0, matchLabels: { ...rs.spec?.selector.matchLabels }, templateLabels: { ...rs.spec?.template?.metadata?.labels }, image: rs.spec?.template?.spec?.containers[0]?.image ?? '' },
        status: statusOf(rs.status as Json | undefined),
      })),
  };
}

type State = Omit<Step, 'step' | 'action' | 'ignore'>;

/** With the names replaced, the ReplicaSets in the order of their new names, and what the step ignores left out. */
function normalized(names: Names, state: State, ignore: Step['ignore']): unknown {
  const out = names.apply(state) as State;
  const left = [...(ignore?.terminatingReplicas === undefined ? [] : ['terminatingReplicas'])];
  const leftOfReplicaSets = [...left, ...(ignore?.replicaSetGeneration === undefined ? [] : ['observedGeneration'])];
  const without = (status: Json, fields: string[]): Json => Object.fromEntries(Object.entries(status).filter(([key]) => !fields.includes(key)));
  const replicaSets = out.replicaSets.map((rs) => ({ ...rs, status: without(rs.status, leftOfReplicaSets) }));
  const deployment = { ...out.deployment, status: without(out.deployment.status, left) };
  // A Pod's name ends in a random suffix there and a hash here: only its ReplicaSet is compared.
  const events = ignore?.events !== undefined ? [] : out.events.map((e) => e.map((part) => (typeof part === 'string' ? part.replace(/ pod: (\S+)-[a-z0-9]+$/, ' pod: $1-*') : part))).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return { ...out, deployment, replicaSets: replicaSets.sort((a, b) => (a.name < b.name ? -1 : 1)), events };
}

describe('the simulated Deployment controller, replayed against a recording of kube-controller-manager 1.37.2', () => {
  const clock = new FakeClock();
  let main: TestApiServer;
  let unbound: TestApiServer;
  let server: TestApiServer;
  let apps: AppsV1Api;

  before(async () => {
    main = await startTestApiServer({ clock, simulateWorkloads: { readyAfterMs: READY_AFTER, podTerminationMs: TERMINATION } });
    unbound = await startTestApiServer({ clock, simulateWorkloads: { readyAfterMs: READY_AFTER, podTerminationMs: 0 } });
  });
  after(async () => {
    await main.stop();
    await unbound.stop();
  });
  function use(scenario: string): void {
    server = scenario === 'd2' ? unbound : main;
    apps = server.kubeConfig.makeApiClient(AppsV1Api);
  }
  /** The Events about the Deployment `name` and its ReplicaSets that the server had not shown before. */
  const seen = new Set<string>();
  async function newEvents(name: string): Promise<unknown[][]> {
    const events = (await server.kubeConfig.makeApiClient(CoreV1Api).listNamespacedEvent({ namespace: 'default' })).items;
    const fresh = events.filter((e) => !seen.has(`${e.metadata.uid}/${e.metadata.resourceVersion}`) && (e.involvedObject.name ?? '').startsWith(name));
    for (const e of events) seen.add(`${e.metadata.uid}/${e.metadata.resourceVersion}`);
    return fresh.map((e) => [`${e.involvedObject.kind}/${e.involvedObject.name}`, e.type, e.reason, e.message, e.count]);
  }

  const patch = (name: string, body: object[]): Promise<V1Deployment> => apps.patchNamespacedDeployment({ namespace: 'default', name, body });
  async function act(name: string, action: Action): Promise<void> {
    switch (action.do) {
      case 'create':
        await apps.createNamespacedDeployment({
          namespace: 'default',
          body: {
            metadata: { name },
            spec: { replicas: action.replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'nginx', image: action.image }] } }, ...action.spec },
          },
        });
        if (action.ready) {
          await server.settled();
          await clock.advance(READY_AFTER);
        }
        break;
      case 'ready':
        await clock.advance(READY_AFTER);
        break;
      case 'finish':
        await clock.advance(TERMINATION);
        break;
      case 'image':
        await patch(name, [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: action.image }]);
        break;
      case 'pause':
        await patch(name, [{ op: 'add', path: '/spec/paused', value: action.paused }]);
        break;
      case 'scale':
        await patch(name, [{ op: 'replace', path: '/spec/replicas', value: action.replicas }]);
        break;
      case 'nothing':
        break;
    }
    await server.settled();
  }

  // Scenarios a, b and c go on with the same Deployment, so they share one name map.
  const names = new Map<string, [recorded: Names, here: Names]>();
  for (const [scenario, steps] of Object.entries(recording.scenarios)) {
    test(`scenario ${scenario}: ${steps.map((s) => s.action.do).join(', ')}`, async () => {
      use(scenario);
      for (const step of steps) {
        const name = step.deployment.name;
        const [recorded, here] = names.get(name) ?? [new Names(name), new Names(name)];
        names.set(name, [recorded, here]);
        await act(name, step.action);
        const deployment = await apps.readNamespacedDeployment({ namespace: 'default', name });
        const replicaSets = (await apps.listNamespacedReplicaSet({ namespace: 'default', labelSelector: `app=${name}` })).items;
        recorded.learn([...step.replicaSets].sort((a, b) => Number(a.annotations['deployment.kubernetes.io/revision']) - Number(b.annotations['deployment.kubernetes.io/revision'])).map((rs) => rs.name));
        here.learn([...replicaSets].sort((a, b) => Number(a.metadata?.annotations?.['deployment.kubernetes.io/revision']) - Number(b.metadata?.annotations?.['deployment.kubernetes.io/revision'])).map((rs) => rs.metadata?.name ?? ''));
        const { step: _, action: __, ignore, ...expected } = step;
        const state = { ...observed(deployment, replicaSets), events: await newEvents(name) };
        assert.deepEqual(normalized(here, state, ignore), normalized(recorded, expected, ignore), `after "${step.step}"`);
      }
    });
  }
});
