// CRD-level profiles: a profiles: block on a CRD entry, read like the document's (same classes, fields and
// errors at file:line:column), resolving for that CRD's reconciler block and entries only, before the
// document's profiles and Orkestra's built-ins (docs/orkestra-compatibility.md#crd-level-profiles).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import type { Definition } from '../../src/definition/index.js';
import { loadProblems } from '../support/definition-problems.js';

type Map = Record<string, unknown>;

const TYPES = (kind: string): string => `apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: ${kind}, plural: ${kind.toLowerCase()}s }`;

function katalog(widgetProfiles: string, widgetEntry: string, gadgetEntry = '{ image: x, resources: { profile: small } }', head = ''): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
${head}spec:
  crds:
    widget:
      ${TYPES('Widget')}
${widgetProfiles}      operatorBox:
        onCreate:
          deployments:
            - ${widgetEntry}
    gadget:
      ${TYPES('Gadget')}
      operatorBox:
        onCreate:
          deployments:
            - ${gadgetEntry}
`;
}

function resources(definition: Definition, crd: string): unknown {
  const phase: Readonly<Record<string, ReadonlyArray<{ readonly body: Map }> | undefined>> = definition.crds.get(crd)?.operatorBox.onCreate ?? {};
  return phase['deployments']?.[0]?.body['resources'];
}

const SMALL = `      profiles:
        resources:
          - name: small
            requests: { cpu: 1m }
          - name: crd-only
            limits: { memory: 1Gi }
`;

describe('CRD-level profiles', () => {
  test("a CRD's own profile resolves for its entries, before the document's and the built-ins", () => {
    const head = 'profiles:\n  resources:\n    - { name: small, requests: { cpu: 2m } }\n';
    const definition = parseDefinition(katalog(SMALL, '{ image: x, resources: { profile: small } }', undefined, head));
    assert.deepEqual(resources(definition, 'widget'), { requests: { cpu: '1m' } });
    // The other CRD sees the document's profile, not widget's.
    assert.deepEqual(resources(definition, 'gadget'), { requests: { cpu: '2m' } });
  });

  test('a name only the CRD declares is unknown to another CRD, with the same message as any unknown name', () => {
    const found = loadProblems(katalog(SMALL, '{ image: x, resources: { profile: crd-only } }', '{ image: x, resources: { profile: crd-only } }'));
    assert.equal(found.length, 1);
    assert.equal(found[0]?.path, 'spec.crds.gadget.operatorBox.onCreate.deployments[0].resources.profile');
    assert.match(found[0]?.message ?? '', /^unknown resource profile "crd-only" \(profiles\.resources\); known: built-in tiny, small/);
    assert.equal(found[0]?.line, 23); // the gadget entry's line
  });

  test("the CRD's reconciler profile resolves against its own profiles too", () => {
    const text = katalog(`      profiles:\n        reconciler:\n          - { name: calm, workers: 3, resync: 2m }\n`, '{ image: x }').replace(
      '      operatorBox:\n        onCreate:',
      '      operatorBox:\n        reconciler: { profile: calm }\n        onCreate:',
    );
    const settings = parseDefinition(text).crds.get('widget')?.settings;
    assert.deepEqual([settings?.workers?.value, settings?.resync?.value], [3, 120_000]);
  });

  test('a malformed CRD-level block is reported at its place, as a document-level one', () => {
    const found = loadProblems(katalog('      profiles:\n        widgets: []\n        resources:\n          - { name: a, cpu: 1 }\n', '{ image: x }'));
    const text = found.map((p) => `${p.line ?? '?'}:${p.column ?? '?'} ${p.message}`).join('\n');
    assert.match(text, /^9:\d+ unknown profile class "widgets"/m);
    assert.match(text, /^11:\d+ unknown field "cpu" in a resources profile \(requests, limits\)/m);
  });
});
