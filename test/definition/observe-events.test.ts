// observe.events at load (Orkestra's pkg/types/types_observe.go EventEntry, pkg/katalog/validate/event.go): a map of
// named entries normalised into operatorBox.observeEvents, the same model from an Orkestra document and from
// katalog.dev/v1; problems at file:line:column; observe.include fragments may carry events:; RBAC for the informer.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDefinition, parseDefinition } from '../../src/definition/load.js';
import { rbacRequirements } from '../../src/cli/rbac-rules.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { loadProblems } from '../support/definition-problems.js';

function doc(apiVersion: string, box: string): string {
  return `apiVersion: ${apiVersion}
kind: Katalog
metadata: { name: w }
spec:
  crds:
    widget:
      apiTypes: { group: demo.example.io, version: v1, kind: Widget, plural: widgets }
      operatorBox:
${box}`;
}

const ORKESTRA = 'orkestra.orkspace.io/v1';
const KATALOG = 'katalog.dev/v1';

const EVENTS = `        observe:
          events:
            backOff:
              reason: BackOff
              type: Warning
              regarding: { apiVersion: v1, kind: Pod, namespace: apps }
              on: [create]
            dbReady:
              reportingController: example.com/db
              related: { group: "", version: v1, kind: ConfigMap, name: settings }
              keyFrom: { label: example.com/widget }
`;

describe('observe.events loads', () => {
  test('an Orkestra document and a katalog.dev/v1 one give the same entries, in declaration order', () => {
    const fromOrkestra = parseDefinition(doc(ORKESTRA, EVENTS)).crds.get('widget')?.operatorBox.observeEvents;
    const fromKatalog = parseDefinition(doc(KATALOG, EVENTS)).crds.get('widget')?.operatorBox.observeEvents;
    assert.deepEqual(fromOrkestra, [
      {
        name: 'backOff',
        reason: 'BackOff',
        type: 'Warning',
        regarding: { apiVersion: 'v1', kind: 'Pod', namespace: 'apps' },
        on: ['create'],
        keyFrom: undefined,
        path: 'spec.crds.widget.operatorBox.observe.events.backOff',
      },
      {
        name: 'dbReady',
        reportingController: 'example.com/db',
        related: { group: '', version: 'v1', kind: 'ConfigMap', name: 'settings' },
        on: ['create', 'update', 'delete'],
        keyFrom: { label: 'example.com/widget' },
        path: 'spec.crds.widget.operatorBox.observe.events.dbReady',
      },
    ]);
    assert.deepEqual(fromKatalog, fromOrkestra);
    const again = parseDefinition(JSON.stringify(definitionToInput(parseDefinition(doc(ORKESTRA, EVENTS)))));
    assert.deepEqual(again.crds.get('widget')?.operatorBox.observeEvents, fromOrkestra, 'survives definitionToInput');
  });

  test("Orkestra's enqueueGate spelling (or, the shorthand, eventAware) is lifted as a watch entry's", () => {
    const definition = parseDefinition(
      doc(ORKESTRA, `        observe:
          events:
            warned:
              type: Warning
              name: exact-event
              namespace: apps
              enqueueGate:
                eventAware: true
                or:
                  - field: note
                    equals: disk full
`),
    );
    const [entry] = definition.crds.get('widget')?.operatorBox.observeEvents ?? [];
    assert.equal(entry?.eventName, 'exact-event');
    assert.equal(entry?.namespace, 'apps');
    assert.deepEqual(entry?.enqueueGate?.anyOf.map((c) => [c.field, c.operator, c.value]), [['note', 'eq', 'disk full']]);
  });

  test('katalog rbac grants list and watch on events.k8s.io events only when a CRD observes Events', () => {
    const rules = rbacRequirements(parseDefinition(doc(ORKESTRA, EVENTS))).cluster;
    assert.ok(rules.some((r) => r.apiGroups.includes('events.k8s.io') && r.resources.includes('events') && r.verbs.includes('list') && r.verbs.includes('watch')), JSON.stringify(rules));
    const without = rbacRequirements(parseDefinition(doc(ORKESTRA, '        default: true\n'))).cluster;
    assert.ok(!without.some((r) => r.apiGroups.includes('events.k8s.io')), JSON.stringify(without));
  });
});

describe('observe.events problems', () => {
  test('each bad field is reported at its line, for either apiVersion', () => {
    for (const apiVersion of [ORKESTRA, KATALOG]) {
      const found = loadProblems(
        doc(apiVersion, `        observe:
          events:
            empty: { on: [create] }
            db-ready: { reason: Ready }
            both: { reason: X, keyFrom: { label: a, name: b } }
            templated: { reason: "{{ .spec.reason }}" }
            twice: { regarding: { apiVersion: v1, group: apps } }
            badOn: { reason: X, on: [modify] }
`),
      );
      const at = (line: number, pattern: RegExp): boolean => found.some((p) => p.line === line && pattern.test(p.message));
      const all = found.map((p) => `${p.line}:${p.column} ${p.message}`).join('\n');
      assert.ok(at(11, /at least one matching or routing field/), all);
      assert.ok(at(12, /must be an identifier/), all);
      assert.ok(at(13, /keyFrom needs exactly one of label and name/), all);
      assert.ok(at(14, /must be literal/), all);
      assert.ok(at(15, /either apiVersion or group\/version/), all);
      assert.ok(found.some((p) => p.line === 16 && /modify/.test(p.message)), all);
    }
  });

  test('an entry-level include and a reference plural are refused by name, never as an unknown field', () => {
    const found = loadProblems(doc(ORKESTRA, '        observe:\n          events:\n            x: { reason: X, include: ./more.yaml }\n            y: { regarding: { kind: Pod, plural: pods } }\n'));
    assert.ok(found.some((p) => p.code === 'orkestra-unsupported' && p.line === 11 && p.message.includes('observe.events.<name>.include')), JSON.stringify(found));
    assert.ok(found.some((p) => p.code === 'orkestra-unsupported' && p.line === 12 && p.message.includes('regarding.plural')), JSON.stringify(found));
    assert.ok(!found.some((p) => p.code === 'unknown-field'), JSON.stringify(found));
  });
});

describe('observe.include with events', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'katalog-observe-'));
    mkdirSync(join(dir, 'include'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string): string => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  test("the fragment's events join the inline ones; an inline entry of the same name wins", async () => {
    write('include/observe.yaml', 'watch:\n  - { apiVersion: v1, kind: Node }\nevents:\n  shared: { reason: FromFragment }\n  onlyThere: { type: Warning }\n');
    const file = write('merge.yaml', doc(ORKESTRA, '        observe:\n          include: ./include/observe.yaml\n          events:\n            shared: { reason: Inline }\n'));
    const box = (await loadDefinition(file)).crds.get('widget')?.operatorBox;
    assert.deepEqual(box?.watch?.map((w) => w.kind), ['Node']);
    assert.deepEqual(box?.observeEvents?.map((e) => [e.name, e.reason ?? e.type]), [['shared', 'Inline'], ['onlyThere', 'Warning']]);
  });

  test("a fragment holding only events: works; a problem in it is at the fragment's line", async () => {
    const fragment = write('include/bad.yaml', 'events:\n  fine: { reason: Ok }\n  broken: { reason: "{{ .x }}" }\n');
    const file = write('bad.yaml', doc(ORKESTRA, '        observe:\n          include: ./include/bad.yaml\n'));
    const found = await loadProblemsOf(file);
    const problem = found.find((p) => p.file === fragment);
    assert.equal(problem?.line, 3, JSON.stringify(found));
    assert.match(problem?.message ?? '', /must be literal/);
  });
});

async function loadProblemsOf(file: string): Promise<Array<{ file?: string | undefined; line?: number | undefined; message: string }>> {
  try {
    await loadDefinition(file);
  } catch (error) {
    return [...((error as { problems?: Array<{ file?: string; line?: number; message: string }> }).problems ?? [])];
  }
  return assert.fail('the definition loaded');
}
