// Profiles chosen per custom resource, end to end: a Katalog whose Deployment names its resources profile with a
// template (`resources: {profile: "{{ .spec.size }}"}`, as orkspace/orkestra pkg/profiles/docs/02-internals.md
// allows; the name is rendered at reconcile time), and a CRD-level profile, run against the test API server
// through the real client-node over HTTP. Two custom resources get their own size's resources; changing
// spec.size updates the child; a size that names no profile is Ready=False (retried with backoff) and recovers.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, waitFor } from '../support/cluster.js';

type Map = Record<string, unknown>;
type Obj = Map & { status?: { conditions?: Array<{ type: string; status: string; message?: string }> } };

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: sized }
spec:
  crds:
    site:
      apiTypes: { group: example.io, version: v1, kind: Site, plural: sites }
      profiles:
        resources:
          - name: large
            requests: { cpu: 700m, memory: 1Gi }
            limits: { cpu: "3", memory: 3Gi }
      operatorBox:
        onReconcile:
          deployments:
            - name: "{{ .metadata.name }}-web"
              image: nginx:1.27
              port: 8080
              resources: { profile: "{{ .spec.size }}" }
`;

const SMALL = { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '512Mi' } }; // Orkestra's built-in small
const LARGE = { requests: { cpu: '700m', memory: '1Gi' }, limits: { cpu: '3', memory: '3Gi' } }; // the CRD's own large, over the built-in

describe('Orkestra profiles named by a template, run', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  before(async () => {
    server = await startTestApiServer();
    server.create(crdManifest({ kind: 'Site', plural: 'sites' }));
    runtime = createRuntime(parseDefinition(KATALOG, { source: 'sized.yaml' }), { kubeConfig: server.kubeConfig, watch: FAST_WATCH, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
  });

  const resources = (name: string): unknown => {
    const deployment = server.get('apps/v1', 'Deployment', `${name}-web`, 'default') as Map | undefined;
    const pod = ((deployment?.['spec'] as Map | undefined)?.['template'] as Map | undefined)?.['spec'] as Map | undefined;
    return (pod?.['containers'] as Map[] | undefined)?.[0]?.['resources'];
  };
  const resourcesBecome = (name: string, expected: unknown): Promise<unknown> =>
    waitFor(`${name}'s resources`, () => (isDeepStrictEqual(resources(name), expected) ? true : undefined), 20_000);
  const ready = (name: string): { status: string; message?: string } | undefined =>
    (server.get('example.io/v1', 'Site', name, 'default') as Obj | undefined)?.status?.conditions?.find((c) => c.type === 'Ready');
  const site = (name: string, size: string): Map => ({ apiVersion: 'example.io/v1', kind: 'Site', metadata: { name, namespace: 'default' }, spec: { size } });

  test('each custom resource gets the resources of its own size; changing spec.size updates the child', async () => {
    server.create(site('little', 'small'));
    server.create(site('big', 'large'));
    await resourcesBecome('little', SMALL);
    await resourcesBecome('big', LARGE);

    server.patch('example.io/v1', 'Site', 'little', { spec: { size: 'large' } });
    await resourcesBecome('little', LARGE);
    // As the literal name would: "Large" is not the CRD's "large" (declared names match as written) but the built-in.
    server.patch('example.io/v1', 'Site', 'little', { spec: { size: 'Large' } });
    await resourcesBecome('little', { requests: { cpu: '500m', memory: '512Mi' }, limits: { cpu: '2', memory: '2Gi' } });
    assert.deepEqual(resources('big'), LARGE);
  });

  test('a size that names no profile is Ready=False naming the entry and the known names, and recovers', async () => {
    server.create(site('odd', 'colossal'));
    const failed = await waitFor('Ready=False', () => (ready('odd')?.status === 'False' ? ready('odd') : undefined), 20_000);
    assert.equal(
      failed.message,
      'spec.crds.site.operatorBox.onReconcile.deployments[0].resources.profile: "{{ .spec.size }}" rendered a name (8 characters) that is no resource profile (profiles.resources); known: large, tiny, small, medium, burst, steady, compute-heavy, memory-heavy',
    );
    assert.doesNotMatch(failed.message ?? '', /colossal/); // custom-resource data stays out of the message
    assert.equal(server.get('apps/v1', 'Deployment', 'odd-web', 'default'), undefined);

    server.patch('example.io/v1', 'Site', 'odd', { spec: { size: 'tiny' } });
    await resourcesBecome('odd', { requests: { cpu: '25m', memory: '64Mi' }, limits: { cpu: '100m', memory: '128Mi' } });
    await waitFor('Ready=True', () => (ready('odd')?.status === 'True' ? true : undefined), 20_000);
  });
});
