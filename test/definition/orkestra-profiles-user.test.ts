// User-defined profiles (Orkestra's profiles: block, orkspace/orkestra pkg/types/types_profiles.go: resolved before
// the built-ins), merged from Motifs through spec.imports (the document's own win), explicit fields beside a
// profile (they win over the profile's: docs/orkestra-compatibility.md#profiles), and the load errors: an unknown
// name at file:line:column naming the class and the known names, malformed blocks (templated names:
// orkestra-profiles-templated.test.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefinitionError } from '../../src/errors.js';
import { loadDefinition, parseDefinition } from '../../src/definition/index.js';
import type { Definition } from '../../src/definition/index.js';
import { loadProblems } from '../support/definition-problems.js';

type Map = Record<string, unknown>;

function katalog(onCreate: string, head = '', box = ''): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
${head}spec:
  crds:
    widget:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Widget, plural: widgets }
      operatorBox:
${box}        onCreate:
${onCreate}`;
}

function first(definition: Definition, kind: string): Map {
  const phase: Readonly<Record<string, ReadonlyArray<{ readonly body: unknown }> | undefined>> = definition.crds.get('widget')?.operatorBox.onCreate ?? {};
  return (phase[kind]?.[0]?.body ?? {}) as Map;
}

function problems(text: string): string[] {
  return loadProblems(text).map((p) => `${p.file ?? '?'}:${p.line ?? '?'}:${p.column ?? '?'} ${p.message}`);
}

const PROFILES = `profiles:
  resources:
    - name: small
      description: the organisation's small, shadowing the built-in
      requests: { cpu: 10m, memory: 16Mi }
      limits: { cpu: 20m, memory: 32Mi }
  probes:
    - name: org-http
      initialDelaySeconds: 1
      periodSeconds: 2
  hpa:
    - name: org-hpa
      minReplicas: "2"
      targetCPUUtilizationPercentage: "65"
      behavior: { scaleDown: { stabilizationWindowSeconds: 30 } }
  reconciler:
    - name: org-tuning
      workers: 3
      resync: 45s
      queue: { maxDepth: 7 }
`;

describe('user-defined profiles', () => {
  test('resolve before the built-ins, in every class they are declared in', () => {
    const onCreate = '          deployments:\n            - { image: nginx, port: 80, resources: { profile: small }, probes: { readiness: { path: /, profile: org-http } } }\n          hpa:\n            - { maxReplicas: 4, behavior: { profile: org-hpa } }\n';
    const definition = parseDefinition(katalog(onCreate, PROFILES, '        reconciler: { profile: org-tuning }\n'));
    const deployment = first(definition, 'deployments');
    assert.deepEqual(deployment.resources, { requests: { cpu: '10m', memory: '16Mi' }, limits: { cpu: '20m', memory: '32Mi' } });
    // A user-defined probe profile sets what it declares; the API server defaults the rest (Orkestra leaves them 0).
    assert.deepEqual(deployment.readinessProbe, { httpGet: { path: '/', port: 80, scheme: 'HTTP' }, initialDelaySeconds: 1, periodSeconds: 2 });
    assert.deepEqual(first(definition, 'horizontalPodAutoscalers'), { maxReplicas: 4, minReplicas: '2', targetCPUUtilizationPercentage: '65', behavior: { scaleDown: { stabilizationWindowSeconds: 30 } } });
    const settings = definition.crds.get('widget')?.settings;
    assert.deepEqual([settings?.workers?.value, settings?.resync?.value, settings?.maxDepth?.value], [3, 45_000, 7]);
  });

  test('profiles under spec (the form of the research notes) load the same', () => {
    const text = katalog('          deployments:\n            - { image: nginx, resources: { profile: small } }\n').replace('spec:\n', `spec:\n${PROFILES.replace(/^/gm, '  ').trimEnd()}\n`);
    assert.deepEqual(first(parseDefinition(text), 'deployments').resources, { requests: { cpu: '10m', memory: '16Mi' }, limits: { cpu: '20m', memory: '32Mi' } });
  });
});

describe('explicit fields beside a profile win over the profile', () => {
  test('resources key by key, probe timings, the HPA target and rules, the PDB budget, reconciler workers', () => {
    const onCreate = [
      '          deployments:',
      '            - image: nginx',
      '              port: 80',
      '              resources: { profile: medium, limits: { memory: 3Gi } }',
      '              probes: { liveness: { type: tcp, profile: fast, failureThreshold: 9 } }',
      '              securityContext: { profile: restricted, readOnlyRootFilesystem: false, allowPrivilegeEscalation: true }',
      '          hpa:',
      '            - { maxReplicas: 3, targetCPUUtilizationPercentage: 55, behavior: { profile: web, scaleUp: { stabilizationWindowSeconds: 9 } } }',
      '          pdb:',
      '            - { minAvailable: 2, behavior: { profile: relaxed } }',
      '',
    ].join('\n');
    const definition = parseDefinition(katalog(onCreate, '', '        reconciler: { profile: conservative, workers: 6 }\n'));
    const deployment = first(definition, 'deployments');
    assert.deepEqual(deployment.resources, { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '1', memory: '3Gi' } });
    assert.equal((deployment.livenessProbe as Map).failureThreshold, 9);
    assert.equal((deployment.livenessProbe as Map).periodSeconds, 10);
    assert.deepEqual(deployment.containerSecurityContext, { readOnlyRootFilesystem: false, allowPrivilegeEscalation: true, runAsNonRoot: true, capabilities: { drop: ['ALL'] } });
    const hpa = first(definition, 'horizontalPodAutoscalers');
    assert.equal(hpa.targetCPUUtilizationPercentage, 55);
    assert.deepEqual((hpa.behavior as Map).scaleUp, { stabilizationWindowSeconds: 9 });
    assert.equal(((hpa.behavior as Map).scaleDown as Map).stabilizationWindowSeconds, 300);
    assert.deepEqual(first(definition, 'podDisruptionBudgets'), { minAvailable: 2 });
    const settings = definition.crds.get('widget')?.settings;
    assert.deepEqual([settings?.workers?.value, settings?.resync?.value, settings?.maxDepth?.value], [6, 60_000, 100]);
  });
});

describe('profiles from Motifs (spec.imports)', () => {
  test("an imported Motif's profiles resolve; the Katalog's own win over them", async () => {
    const root = mkdtempSync(join(tmpdir(), 'katalog-profiles-'));
    writeFileSync(
      join(root, 'motif.yaml'),
      'apiVersion: orkestra.orkspace.io/v1\nkind: Motif\nmetadata: { name: m }\nprofiles:\n  resources:\n    - { name: shared, requests: { cpu: 1m } }\n    - { name: small, requests: { cpu: 999m } }\n',
    );
    const onCreate = '          deployments:\n            - { image: a, resources: { profile: shared } }\n            - { image: b, resources: { profile: small } }\n';
    writeFileSync(join(root, 'katalog.yaml'), katalog(onCreate, PROFILES).replace('spec:\n', 'spec:\n  imports:\n    - motif: ./motif.yaml\n'));
    const entries = (await loadDefinition(join(root, 'katalog.yaml'))).crds.get('widget')?.operatorBox.onCreate.deployments ?? [];
    assert.deepEqual((entries[0]?.body as Map).resources, { requests: { cpu: '1m' } });
    assert.deepEqual((entries[1]?.body as Map).resources, { requests: { cpu: '10m', memory: '16Mi' }, limits: { cpu: '20m', memory: '32Mi' } });
  });
});

describe('profiles.include (Orkestra ExpandProfileInclude)', () => {
  const write = (files: Record<string, string>): string => {
    const root = mkdtempSync(join(tmpdir(), 'katalog-profiles-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
    return join(root, 'katalog.yaml');
  };
  const onCreate = '          deployments:\n            - { image: a, resources: { profile: shared } }\n';

  test("the fragment's profiles join the document's", async () => {
    const file = write({
      'katalog.yaml': katalog(onCreate, 'profiles:\n  include: ./profiles.yaml\n  pdb:\n    - { name: one, minAvailable: 1 }\n'),
      'profiles.yaml': 'profiles:\n  resources:\n    - { name: shared, limits: { memory: 1Gi } }\n',
    });
    assert.deepEqual(first(await loadDefinition(file), 'deployments').resources, { limits: { memory: '1Gi' } });
  });

  test('a name in both the fragment and the document, and an include in the fragment, are errors in the fragment', async () => {
    const file = write({
      'katalog.yaml': katalog(onCreate, 'profiles:\n  include: ./profiles.yaml\n  resources:\n    - { name: shared }\n'),
      'profiles.yaml': 'profiles:\n  include: ./more.yaml\n  resources:\n    - { name: shared, limits: { memory: 1Gi } }\n',
    });
    await assert.rejects(loadDefinition(file), (error: unknown) => {
      assert.ok(error instanceof DefinitionError);
      const found = error.problems.map((p) => `${p.file ?? ''}:${p.line ?? '?'} ${p.message}`).join('\n');
      assert.match(found, /profiles\.yaml:4 profile "shared" is declared twice in profiles\.resources/);
      assert.match(found, /profiles\.yaml:2 an included file cannot include another/);
      return true;
    });
  });
});

describe('profiles of a Komposer', () => {
  test("the Komposer's own win over those of the Katalogs it imports", async () => {
    const root = mkdtempSync(join(tmpdir(), 'katalog-profiles-'));
    const onCreate = '          deployments:\n            - { image: a, resources: { profile: org } }\n';
    writeFileSync(join(root, 'k.yaml'), katalog(onCreate, 'profiles:\n  resources:\n    - { name: org, requests: { cpu: 1m } }\n'));
    writeFileSync(join(root, 'komposer.yaml'), 'apiVersion: orkestra.orkspace.io/v1\nkind: Komposer\nmetadata: { name: k }\nimports:\n  files: [./k.yaml]\nprofiles:\n  resources:\n    - { name: org, requests: { cpu: 2m } }\n');
    const definition = await loadDefinition(join(root, 'komposer.yaml'));
    assert.deepEqual(first(definition, 'deployments').resources, { requests: { cpu: '2m' } });
  });
});

describe('profile errors at load', () => {
  test('an unknown name is an error at the name, naming the class and the known names', () => {
    const found = problems(katalog('          deployments:\n            - { image: nginx, resources: { profile: huge } }\n', PROFILES));
    assert.equal(found.length, 1);
    assert.match(found[0] ?? '', /^k\.yaml:\d+:\d+ unknown resource profile "huge" \(profiles\.resources\); known: declared small; built-in tiny, small, medium, large, burst, steady, compute-heavy, memory-heavy$/);
    assert.match(found[0] ?? '', /^k\.yaml:31:53 /); // the name's own line and column
  });

  test('each reference place reports its own class', () => {
    const onCreate = [
      '          deployments:',
      '            - { image: x, port: 1, probes: { readiness: { path: /, profile: Fast } }, podSecurity: { profile: nope }, rollingUpdate: { profile: slowly } }',
      '          hpa:',
      '            - { maxReplicas: 2, behavior: { profile: web2 } }',
      '          limitRanges:',
      '            - { profile: org-defaults }',
      '',
    ].join('\n');
    const found = problems(katalog(onCreate, '', '        reconciler: { profile: turbo }\n')).join('\n');
    assert.match(found, /unknown reconciler profile "turbo" .*built-in high-throughput, conservative, development/);
    assert.match(found, /unknown probe profile "Fast" .*built-in fast, standard, patient, slow-start/); // probes match as written, as in Orkestra
    assert.match(found, /unknown pod security profile "nope" .*built-in baseline, restricted, hardened/);
    assert.match(found, /unknown rolling update profile "slowly" .*built-in safe, fast, blue-green/);
    assert.match(found, /unknown HPA behavior profile "web2" .*built-in web, api, latency-sensitive, batch, cost-optimized/);
    assert.match(found, /unknown LimitRange profile "org-defaults" .*no built-ins/);
  });

  test('malformed profiles blocks: an unknown class or field, a missing or repeated name', () => {
    const head = 'profiles:\n  widgets: []\n  resources:\n    - { requests: {} }\n    - { name: a, cpu: 1 }\n    - { name: b }\n    - { name: b }\n';
    const found = problems(katalog('          deployments:\n            - { image: x }\n', head)).join('\n');
    assert.match(found, /unknown profile class "widgets"/);
    assert.match(found, /a profile of profiles\.resources needs a name/);
    assert.match(found, /unknown field "cpu" in a resources profile \(requests, limits\)/);
    assert.match(found, /profile "b" is declared twice in profiles\.resources/);
  });

  test('probes and rollingUpdate used where they cannot apply', () => {
    const onCreate = '          jobs:\n            - { image: x, rollingUpdate: { profile: safe }, probes: { readiness: { profile: fast } } }\n          deployments:\n            - { image: y, probes: { liveness: { type: tcp } }, profile: small }\n';
    const found = problems(katalog(onCreate)).join('\n');
    assert.match(found, /rollingUpdate is for deployments and statefulSets, not jobs/);
    assert.match(found, /a probe needs type: http \(with a path\) or type: tcp/);
    assert.match(found, /a probe needs a port/);
    assert.match(found, /a deployments entry has no profile/);
  });
});
