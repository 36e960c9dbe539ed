// Profiles named by a template (orkspace/orkestra pkg/profiles/docs/02-internals.md "Template expressions": the name
// is rendered at reconcile time, then looked up like a literal one). katalog expands every name the reference can
// take at load; these rows render the templated entry for each value and compare it with the literal name's
// expansion: they must be equal, field for field (probes, resources, security contexts, strategies included).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import type { TemplateEntry } from '../../src/definition/index.js';
import { KatalogError } from '../../src/errors.js';
import { bodyFor, compileProfileChoice } from '../../src/operatorbox/profile-choice.js';
import { compileValue } from '../../src/template/index.js';
import { loadProblems } from '../support/definition-problems.js';

const PROFILES = `profiles:
  resources:
    - { name: org-web, requests: { cpu: 150m }, limits: { cpu: 300m } }
    - { name: small, requests: { cpu: 1m } }
  limitRanges:
    - { name: org-limits, limits: [{ type: Container, default: { cpu: 200m } }] }
  probes:
    - { name: snappy, periodSeconds: 2 }
`;

function katalog(kind: string, entry: string): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
${PROFILES}spec:
  crds:
    widget:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Widget, plural: widgets }
      operatorBox:
        onCreate:
          ${kind}:
            - ${entry}
`;
}

function entryOf(text: string): TemplateEntry {
  const phase: Readonly<Record<string, readonly TemplateEntry[] | undefined>> = parseDefinition(text).crds.get('widget')?.operatorBox.onCreate ?? {};
  const entry = Object.values(phase)[0]?.[0];
  assert.ok(entry !== undefined, 'no entry');
  return entry;
}

const compile = (value: unknown, name: string): ReturnType<typeof compileValue> => compileValue(value, { name, dialect: 'orkestra' });

/** The templated entry rendered with `.spec.size` = `size`. */
function renderTemplated(entry: TemplateEntry, size: string): unknown {
  const choice = compileProfileChoice(entry, compile);
  assert.ok(choice !== undefined, 'the entry has no profile choice');
  const data = { spec: { size }, metadata: { name: 'x' } };
  return bodyFor({ body: compile(entry.body, entry.path), choice }, data).render(data);
}

function renderLiteral(entry: TemplateEntry): unknown {
  assert.equal(entry.profileChoice, undefined);
  return compile(entry.body, entry.path).render({ spec: {}, metadata: { name: 'x' } });
}

// [kind, entry with NAME where the profile goes, names to compare]
const ROWS: Array<[string, string, string[]]> = [
  ['deployments', '{ name: web, image: nginx, port: 8080, resources: { profile: NAME } }', ['tiny', 'small', 'medium', 'large', 'burst', 'steady', 'compute-heavy', 'memory-heavy', 'org-web', 'Large', 'Small', 'SMALL']],
  ['deployments', '{ name: web, image: nginx, port: 8080, resources: { profile: NAME, limits: { memory: 3Gi } } }', ['small', 'org-web']],
  ['deployments', '{ name: web, image: nginx, port: 8080, probes: { readiness: { path: /ready, profile: NAME, timeoutSeconds: 7 } } }', ['fast', 'standard', 'patient', 'slow-start', 'snappy']],
  ['deployments', '{ name: web, image: nginx, securityContext: { profile: NAME } }', ['baseline', 'restricted', 'hardened']],
  ['statefulSets', '{ name: db, image: pg, podSecurity: { profile: NAME } }', ['baseline', 'restricted', 'hardened']],
  ['deployments', '{ name: web, image: nginx, rollingUpdate: { profile: NAME } }', ['safe', 'fast', 'blue-green']],
  ['statefulSets', '{ name: db, image: pg, rollingUpdate: { profile: NAME } }', ['safe', 'fast', 'blue-green']],
  ['hpa', '{ name: h, deploymentRef: web, maxReplicas: 5, behavior: { profile: NAME } }', ['web', 'api', 'latency-sensitive', 'batch', 'cost-optimized']],
  ['pdb', '{ name: p, behavior: { profile: NAME } }', ['zero-downtime', 'rolling', 'relaxed']],
  ['networkPolicies', '{ name: n, profile: NAME }', ['deny-all', 'deny-all-ingress', 'deny-all-egress', 'allow-same-namespace', 'allow-dns-egress']],
  ['resourceQuotas', '{ name: q, profile: NAME }', ['small', 'medium', 'large', 'xlarge']],
  ['limitRanges', '{ name: l, profile: NAME }', ['org-limits']],
];

describe('a profile named by a template renders as the literal name expands', () => {
  for (const [kind, written, names] of ROWS) {
    test(`${kind}: ${written.replace(/\{ name: \w+, /, '{ ')}`, () => {
      const templated = entryOf(katalog(kind, written.replace('NAME', '"{{ .spec.size }}"')));
      for (const name of names) {
        const literal = entryOf(katalog(kind, written.replace('NAME', name)));
        assert.deepEqual(renderTemplated(templated, name), renderLiteral(literal), `${kind} ${name}`);
      }
    });
  }

  test('two templated references in one entry choose independently', () => {
    const written = '{ name: web, image: nginx, port: 80, resources: { profile: A }, probes: { liveness: { type: tcp, profile: B } } }';
    const templated = entryOf(katalog('deployments', written.replace('A', '"{{ .spec.size }}"').replace('B', '"{{ if eq .spec.size \\"large\\" }}patient{{ else }}fast{{ end }}"')));
    for (const [size, probe] of [['small', 'fast'], ['large', 'patient']] as const) {
      const literal = entryOf(katalog('deployments', written.replace('A', size).replace('B', probe)));
      assert.deepEqual(renderTemplated(templated, size), renderLiteral(literal));
    }
  });

  test('an unknown name at render time is an error naming the entry, the class, the name template and the known names, never the name', () => {
    const templated = entryOf(katalog('deployments', '{ name: web, image: nginx, resources: { profile: "{{ .spec.size }}" } }'));
    assert.throws(
      () => renderTemplated(templated, 'huge'),
      (error: unknown) =>
        error instanceof KatalogError &&
        error.code === 'E_PROFILE' &&
        error.message ===
          'spec.crds.widget.operatorBox.onCreate.deployments[0].resources.profile: "{{ .spec.size }}" rendered a name (4 characters) that is no resource profile (profiles.resources); known: org-web, small, tiny, medium, large, burst, steady, compute-heavy, memory-heavy',
    );
  });
});

describe('templated profile names at load', () => {
  test('a name template that does not parse is a load error at its place', () => {
    const found = loadProblems(katalog('deployments', '{ image: x, resources: { profile: "{{ .spec.size" } }'));
    assert.equal(found[0]?.path, 'spec.crds.widget.operatorBox.onCreate.deployments[0].resources.profile');
    assert.equal(found[0]?.line, 19);
  });

  test('a class with nothing to choose from is a load error', () => {
    const text = katalog('limitRanges', '{ name: l, profile: "{{ .spec.size }}" }').replace(/ {2}limitRanges:\n.*\n/, '');
    assert.match(loadProblems(text)[0]?.message ?? '', /no limitRanges profile is declared and Orkestra has no built-in one/);
  });

  test('more combinations than katalog expands is a load error that says how many', () => {
    const written = '{ image: x, port: 80, resources: { profile: T }, securityContext: { profile: T }, podSecurity: { profile: T }, rollingUpdate: { profile: T }, probes: { liveness: { type: tcp, profile: T } } }';
    const found = loadProblems(katalog('deployments', written.replaceAll('T', '"{{ .spec.size }}"')));
    assert.match(found[0]?.message ?? '', /can take 1350 combinations; katalog expands at most 256 per entry/);
  });

  test("katalog's internal key for the choice cannot be written in a definition", () => {
    const found = loadProblems(katalog('deployments', '{ image: x, "katalog.dev/profile-choice": { references: 1 } }'));
    assert.match(found[0]?.message ?? '', /unknown field "katalog.dev\/profile-choice"/);
  });

  test("a templated reconciler profile is refused: the reconciler's settings are the CRD's", () => {
    const text = katalog('deployments', '{ image: x }').replace('      operatorBox:\n', '      operatorBox:\n        reconciler: { profile: "{{ .spec.size }}" }\n');
    assert.match(loadProblems(text)[0]?.message ?? '', /reconciler profile named by a template .* chosen once and not per custom resource/);
  });
});
