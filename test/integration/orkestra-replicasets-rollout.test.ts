// Orkestra's `replicasets` enrich target over a rollout the test server's simulated Deployment controller makes (no
// ReplicaSet written by the test): a Site's Deployment child changes image when the Site does, and the Site's status
// reads the ReplicaSets through Orkestra's notes while the rollout moves on, through client-node over HTTP.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppsV1Api } from '@kubernetes/client-node';
import { parseDefinition } from '../../src/definition/index.js';
import { waitFor } from '../support/cluster.js';
import { runningDefinition } from '../support/orkestra-run.js';

const GROUP = 'demo.orkestra.io';
const API = `${GROUP}/v1alpha1`;

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: rollouts }
spec:
  crds:
    site:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Site, plural: sites }
      enrich: [replicasets]
      operatorBox:
        onCreate:
          deployments:
            - { name: "{{ .metadata.name }}", image: "{{ .spec.image }}", replicas: 2, reconcile: true }
        status:
          fields:
            - { path: image, value: "{{ .spec.image }}" }
            - { path: replicaSets, value: "{{ deploymentReplicaSetCount .children.deployment }}", type: int }
            - { path: oldReplicaSets, value: "{{ oldDeploymentReplicaSets .children.deployment }}" }
            - { path: ready, value: "{{ readyReplicas .children.deployment }}", type: int }
            - { path: allReady, value: "{{ allReplicasReady .children.deployment }}" }
`;

type Status = Record<string, unknown>;

describe('Orkestra replicasets enrich over a simulated rollout, run', () => {
  const server = runningDefinition(async () => parseDefinition(KATALOG), { server: { simulateWorkloads: { readyAfterMs: 50 } } });
  const status = (): Status | undefined => (server().get(API, 'Site', 'site', 'default') as { status?: Status } | undefined)?.status;
  const replicaSetNames = async (): Promise<string[]> =>
    (await server().kubeConfig.makeApiClient(AppsV1Api).listNamespacedReplicaSet({ namespace: 'default' })).items.map((rs) => rs.metadata?.name ?? '');

  test('the status counts the ReplicaSets the rollout makes and names the old one once the new one is ready', async () => {
    server().create({ apiVersion: API, kind: 'Site', metadata: { name: 'site', namespace: 'default' }, spec: { image: 'nginx:1' } });
    const first = await waitFor('one ready ReplicaSet', () => {
      const s = status();
      return s?.['allReady'] === 'true' ? s : undefined;
    }, 30_000);
    assert.deepEqual([first['replicaSets'], first['oldReplicaSets'], first['ready']], [1, '[]', 2]);
    const [original] = await replicaSetNames();
    assert.match(original ?? '', /^site-[bcdf4-9]+$/);

    server().patch(API, 'Site', 'site', { spec: { image: 'nginx:2' } }, { namespace: 'default' });
    // Right after the new template is applied the Deployment still names revision 1, so for a moment the notes take
    // the new ReplicaSet for an old one (as they would in a cluster); the status settles once the controller writes
    // revision 2 and the new Pods are ready.
    const rolled = await waitFor('the rollout seen in the status', () => {
      const s = status();
      return s?.['image'] === 'nginx:2' && s['allReady'] === 'true' && s['oldReplicaSets'] === `["${original}"]` ? s : undefined;
    }, 30_000);
    assert.equal(rolled['replicaSets'], 2, 'the old ReplicaSet is kept, scaled to 0');
    assert.equal(rolled['ready'], 2);
    const image = (server().get('apps/v1', 'Deployment', 'site', 'default') as { spec: { template: { spec: { containers: { image: string }[] } } } }).spec.template.spec.containers[0]?.image;
    assert.equal(image, 'nginx:2');
  });
});
