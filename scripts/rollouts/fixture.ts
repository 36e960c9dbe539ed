// Turns a transcript of scripts/rollouts/record.ts into test/fixtures/kube-controller-manager/rollouts.json: for each
// step, the action the replay takes (from the step's label) and what the replay compares.
//
//   node --import tsx scripts/rollouts/fixture.ts <transcript.json> <rollouts.json>
import { readFileSync, writeFileSync } from 'node:fs';

/** Kubernetes JSON, read loosely. */
type J = Record<string, any>;

const [input, output] = process.argv.slice(2);
if (input === undefined || output === undefined) {
  console.error('usage: fixture.ts <transcript.json> <rollouts.json>');
  process.exit(2);
}

/** What each created Deployment was created with (record.ts's scenarios). */
const CREATED: Record<string, [number, J]> = {
  web: [3, {}],
  batch: [3, { strategy: { type: 'Recreate' } }],
  quick: [3, { strategy: { type: 'Recreate' } }],
  held: [1, {}],
  lean: [1, { revisionHistoryLimit: 1 }],
  wide: [4, { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 2 } } }],
};

/** The replay's action for a step's label; undefined for a step the replay does not take (nothing happened). */
function action(label: string): J | undefined {
  const kubelet = /made (\d+) pod\(s\) ready, finished (\d+) terminating/.exec(label);
  if (kubelet !== null) {
    if (Number(kubelet[1]) > 0) return { do: 'ready' };
    return Number(kubelet[2]) > 0 ? { do: 'finish' } : undefined;
  }
  if (/^made .*ready/.test(label)) return { do: 'ready' };
  if (label.startsWith('created')) {
    const name = label.split(' ')[1] ?? '';
    const created = CREATED[name];
    if (created === undefined) throw new Error(`${input}: no creation known for "${name}" (step "${label}")`);
    return { do: 'create', name, replicas: created[0], image: 'nginx:1', spec: created[1], ready: label.includes('made ready') };
  }
  const image = /image -> (nginx:\d)/.exec(label);
  if (image !== null) return { do: 'image', image: image[1] };
  if (label.startsWith('spec.paused=')) return { do: 'pause', paused: label.endsWith('true') };
  const scale = /spec.replicas -> (\d+)/.exec(label);
  if (scale !== null) return { do: 'scale', replicas: Number(scale[1]) };
  if (label.endsWith('complete')) return { do: 'nothing' };
  if (/^kubelet finished \d+ terminating/.test(label)) return { do: 'finish' };
  throw new Error(`${input}: no replay action for the step "${label}"`);
}

function status(s: J = {}): J {
  const { conditions, ...counts } = s;
  return conditions === undefined ? counts : { ...counts, conditions: (conditions as J[]).map((c) => ({ type: c['type'], status: c['status'], reason: c['reason'], message: c['message'] })) };
}

const transcript = JSON.parse(readFileSync(input, 'utf8')) as { scenarios: Record<string, J[]> };
const missing = ['a', 'b', 'c', 'd', 'd2', 'e', 'f', 'g'].filter((name) => (transcript.scenarios[name] ?? []).length === 0);
if (missing.length > 0) throw new Error(`${input}: no steps of scenario ${missing.join(', ')}; the fixture is made from a whole recording`);
const scenarios: Record<string, J[]> = {};
for (const [name, recorded] of Object.entries(transcript.scenarios)) {
  const steps: J[] = [];
  // The Events of a step the replay does not take are seen in the next one it takes.
  let carried: J[] = [];
  for (const step of recorded) {
    const taken = action(step['step']);
    carried = [...carried, ...(step['events'] as J[])];
    if (taken === undefined) continue;
    const events = carried;
    carried = [];
    const d = step['deployment'];
    steps.push({
      step: step['step'],
      action: taken,
      deployment: {
        name: d['name'],
        annotations: d['annotations'] ?? {},
        status: status(d['status']),
        kubeControllerManager: (d['managedFields'] as J[]).filter((e) => e['manager'] === 'kube-controller-manager').map((e) => [e['operation'], e['subresource'] ?? '', e['fieldsV1']]),
      },
      replicaSets: (step['replicaSets'] as J[])
        .map((rs) => ({
          name: rs['name'],
          labels: rs['labels'] ?? {},
          annotations: rs['annotations'] ?? {},
          spec: { replicas: rs['spec']['replicas'], matchLabels: rs['spec']['selector']['matchLabels'], templateLabels: rs['spec']['templateLabels'], image: rs['spec']['image'] },
          status: status(rs['status']),
        }))
        .sort((a, b) => (a.name < b.name ? -1 : 1)),
      // The Events of the Deployment and its ReplicaSets since the step before: [object, type, reason, message, count].
      events: events.map((e) => [e['involved'], e['type'], e['reason'], e['message'], e['count']]),
    });
  }
  scenarios[name] = steps;
}

// Scenario g's recording is not comparable everywhere: the recorder made its Pods ready one at a time and the
// controllers resized the ReplicaSets in between (one more resize each, and an Event each), and it bound a Pod only when it made it
// ready, so the Pending Pods the controllers deleted went at once, where the simulation binds every Pod it makes.
for (const [index, step] of (scenarios['g'] ?? []).entries()) {
  const ignore: J = {};
  if (index >= 3) ignore['replicaSetGeneration'] = 'the probe made the Pods ready one by one and the controllers resized the ReplicaSets in between (one more resize each)';
  if (index >= 3) ignore['events'] = 'the same resizes in between made more ScalingReplicaSet Events, and past ten of them they were combined';
  if (index >= 2) ignore['terminatingReplicas'] = 'the probe bound Pods only when it made them ready: those deleted while Pending went at once, where the simulation binds every Pod when it is made';
  if (Object.keys(ignore).length > 0) step['ignore'] = ignore;
}

const fixture = {
  recorded:
    'kube-controller-manager v1.37.2 (--controllers=deployment,replicaset) against kube-apiserver v1.37.2, the probe acting as kubelet: each "ready" step marks every Pending Pod Running and Ready and ends Pods left terminating',
  'left out': "condition timestamps, uids, Events' names and times; of managedFields, only the Deployment's kube-controller-manager entries (the other managers are the probe's)",
  scenarios,
};
writeFileSync(output, JSON.stringify(fixture, null, 1));
console.log(Object.entries(scenarios).map(([name, steps]) => `${name}: ${steps.length}`).join(', '));
