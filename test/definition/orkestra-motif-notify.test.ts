// notify: inside a Motif (orkspace/orkestra@eacb260 pkg/katalog/motif_imports.go mergeExpandedMotif: a CRD-scoped
// import appends the Motif's onCreate/onReconcile entries and status fields, conditions and their notify: included,
// to the importing CRD; pkg/types/conditions.go: a condition's `notify: {teams, message}`). katalog lifts each one
// into a rule of the importing CRD's notifications, with the import's inputs; problems point into the Motif file.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDefinition } from '../../src/definition/index.js';
import { DefinitionError } from '../../src/errors.js';

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: shop }
notification:
  teams:
    platform: { slack: ["#platform"] }
spec:
  crds:
    widget:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Widget, plural: widgets }
      imports:
        - motif: ./motif.yaml
          with: { owner: web }
      operatorBox:
        status:
          fields:
            - path: phase
              value: Big
              when:
                - field: spec.replicas
                  greaterThan: "3"
                  notify: [platform]
`;

const MOTIF = (notify: string): string => `apiVersion: orkestra.orkspace.io/v1
kind: Motif
metadata: { name: watched }
inputs:
  - name: owner
    required: true
resources:
  onCreate:
    configMaps:
      - name: "{{ .metadata.name }}-watched"
        data: { owner: "{{ .inputs.owner }}" }
        when:
          - field: spec.mode
            equals: loud
${notify}
status:
  fields:
    - path: owner
      value: "{{ .inputs.owner }}"
      when:
        - field: spec.mode
          exists: true
          notify:
            teams: [platform]
            message: "{{ .inputs.owner }} owns {{ .metadata.name }}"
`;

function dir(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'katalog-motif-notify-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return root;
}

describe('Orkestra: notify: inside a Motif', () => {
  test('each notify: of the Motif becomes a rule of the importing CRD, after its own, with the import\'s inputs', async () => {
    const root = dir({ 'katalog.yaml': KATALOG, 'motif.yaml': MOTIF('            notify: [platform]') });
    const widget = (await loadDefinition(join(root, 'katalog.yaml'))).crds.get('widget');
    const rules = widget?.notifications ?? [];
    assert.deepEqual(
      rules.map((r) => ({ path: r.path, field: r.when.map((c) => c.field), teams: r.teams, message: r.message, inputs: r.inputs })),
      [
        { path: 'spec.crds.widget.notifications[0]', field: ['spec.replicas'], teams: ['platform'], message: undefined, inputs: undefined },
        { path: 'spec.crds.widget.imports[0].notifications[0]', field: ['spec.mode'], teams: ['platform'], message: undefined, inputs: { owner: 'web' } },
        { path: 'spec.crds.widget.imports[0].notifications[1]', field: ['spec.mode'], teams: ['platform'], message: '{{ .inputs.owner }} owns {{ .metadata.name }}', inputs: { owner: 'web' } },
      ],
    );
    // The conditions still gate what they gated: the entry and the status field keep theirs, without notify.
    const entry = widget?.operatorBox.onCreate.configMaps?.[0];
    assert.deepEqual(entry?.when.map((c) => c.field), ['spec.mode']);
  });

  test('a bad notify: in the Motif is reported at its line and column in the Motif file', async () => {
    const root = dir({ 'katalog.yaml': KATALOG, 'motif.yaml': MOTIF('            notify: { teams: platform }') });
    await assert.rejects(loadDefinition(join(root, 'katalog.yaml')), (error: unknown) => {
      assert.ok(error instanceof DefinitionError, String(error));
      const [problem] = error.problems;
      assert.equal(problem?.file, join(root, 'motif.yaml'));
      assert.equal(problem?.line, 15);
      assert.equal(problem?.column, 30); // the value of teams
      assert.match(problem?.message ?? '', /must be a list, got "platform"/);
      return true;
    });
  });
});
