// notify: inside a Motif, end to end: the runtime reconciles through the real client-node against the test API
// server. The Motif's conditions notify as the importing CRD's own do (orkspace/orkestra pkg/katalog/motif_imports.go
// merges them into the CRD), their message rendering the import's inputs; the host's sink receives them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '../../src/create-runtime.js';
import { loadDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import type { Notification } from '../../src/runtime/notifier-options.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

const GROUP = 'demo.orkestra.io';

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: shop }
notification:
  teams:
    platform: { email: [ops@example.com] }
spec:
  crds:
    widget:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Widget, plural: widgets }
      imports:
        - motif: ./motif.yaml
          with: { owner: "team-{{ .spec.mode }}" }
      operatorBox:
        status:
          fields:
            - path: replicas
              value: "{{ .spec.replicas }}"
`;

const MOTIF = `apiVersion: orkestra.orkspace.io/v1
kind: Motif
metadata: { name: watched }
inputs:
  - name: owner
    required: true
resources:
  onCreate:
    configMaps:
      - name: "{{ .metadata.name }}-loud"
        data: { owner: "{{ .inputs.owner }}" }
        when:
          - field: spec.mode
            equals: loud
            notify:
              teams: [platform]
              message: "{{ .metadata.name }} is loud, ask {{ .inputs.owner }}"
`;

describe('Orkestra notify: inside a Motif, run', () => {
  const received: Notification[] = [];
  let server: TestApiServer | undefined;
  let runtime: Runtime | undefined;
  before(async () => {
    const root = mkdtempSync(join(tmpdir(), 'katalog-motif-notify-run-'));
    writeFileSync(join(root, 'katalog.yaml'), KATALOG);
    writeFileSync(join(root, 'motif.yaml'), MOTIF);
    const definition = await loadDefinition(join(root, 'katalog.yaml'));
    server = await startTestApiServer();
    server.create(crdManifest({ group: GROUP, kind: 'Widget', plural: 'widgets', scope: 'Namespaced', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    runtime = createRuntime(definition, { kubeConfig: server.kubeConfig, watch: FAST_WATCH, notifications: { notify: async (n) => void received.push(n) } });
    await runtime.start();
  });
  after(async () => {
    await runtime?.stop();
    await server?.stop();
  });
  const api = (): TestApiServer => server ?? assert.fail('no server');
  const widget = (name: string, mode: string): Record<string, unknown> => ({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Widget', metadata: { name, namespace: 'default' }, spec: { mode, replicas: 2 } });

  test('the Motif\'s condition notifies its team when it holds, with the import\'s (templated) inputs in the message', async () => {
    api().create(widget('quiet-one', 'quiet'));
    api().create(widget('loud-one', 'loud'));
    const notification = await waitFor('the notification of loud-one', () => received.find((n) => n.object.name === 'loud-one'));
    assert.equal(notification.team, 'platform');
    assert.equal(notification.message, 'loud-one is loud, ask team-loud');
    assert.equal(notification.subject, 'spec.mode condition triggered');
    assert.ok(api().get('v1', 'ConfigMap', 'loud-one-loud', 'default'), 'the entry the condition gates is created');
    // quiet-one reconciled (its status is written) and its condition does not hold: no notification, no child.
    await waitFor('quiet-one reconciled', () => ((api().get(`${GROUP}/v1alpha1`, 'Widget', 'quiet-one', 'default') as { status?: Record<string, unknown> } | undefined)?.status?.['replicas'] === '2'));
    assert.equal(received.filter((n) => n.object.name === 'quiet-one').length, 0);
    assert.equal(api().get('v1', 'ConfigMap', 'quiet-one-loud', 'default'), undefined);
  });
});
