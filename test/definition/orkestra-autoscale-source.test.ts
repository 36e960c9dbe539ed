// An autoscale condition's own `source` (Orkestra's HTTP fallback for cross.<crd>.metrics.* fields) loads into
// autoscale.sources.<crd> (lifted as a cross entry's source: `type:` → protocol), lets the rule read a CRD this
// definition does not declare, and writes back equal; katalog.dev/v1 writes autoscale.sources itself. A source on
// any other field, two different sources for one CRD, a protocol that serves no figures, and a token in the
// document are errors at file:line:column.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { parseDefinition } from '../../src/definition/load.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { loadProblems } from '../support/definition-problems.js';

function problems(text: string): string[] {
  return loadProblems(text).map((p) => `${p.line}:${p.column} ${p.message}`);
}

function orkestra(conditions: string): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    processor:
      apiTypes: { group: autoscale.orkestra.io, version: v1alpha1, kind: Processor, plural: processors }
      operatorBox:
        autoscale:
          conditions:
${conditions}          do: { workers: 4 }
`;
}

describe('autoscale condition source', () => {
  test("reads another process's figures: the source moves to autoscale.sources (by CRD, case aside), the condition stays; writes back equal", () => {
    const definition = parseDefinition(
      orkestra(`            when:
              - field: cross.Loader.metrics.queueDepth
                greaterThan: "60"
                source: { host: "http://loader-operator:8080/", type: metrics, cacheFor: 10s }
            or:
              - field: cross.Loader.metrics.errorRatePercent
                lessThan: "5"
                source: { host: "http://loader-operator:8080/", type: metrics, cacheFor: 10s }
              - field: cross.billing.metrics.workers
                equals: "0"
                source: { endpoint: "http://billing:9000/api/figures" }
`),
    );
    const rule = definition.crds.get('processor')?.operatorBox.autoscale;
    assert.deepEqual(rule?.when, [{ field: 'cross.Loader.metrics.queueDepth', operator: 'gt', value: '60' }]);
    assert.equal(rule?.anyOf.length, 2);
    assert.deepEqual(rule?.sources, {
      loader: { endpoint: undefined, host: 'http://loader-operator:8080', protocol: 'metrics', namespace: undefined, cacheForMs: 10_000, timeoutMs: 5000, maxResponseBytes: 65_536, auth: undefined },
      billing: { endpoint: 'http://billing:9000/api/figures', host: undefined, protocol: undefined, namespace: undefined, cacheForMs: undefined, timeoutMs: 5000, maxResponseBytes: 65_536, auth: undefined },
    });
    const again = parseDefinition(stringify(definitionToInput(definition)));
    assert.deepEqual(again.crds.get('processor')?.operatorBox.autoscale, rule);
  });

  test('a source on another field, two sources for one CRD, a route without figures and a written token are errors where they are written', () => {
    const found = problems(
      orkestra(`            when:
              - field: metrics.queueDepth
                greaterThan: "60"
                source: { endpoint: "http://a:1/x" }
              - field: cross.loader.metrics.queueDepth
                greaterThan: "60"
                source: { host: "http://a:1" }
              - field: cross.loader.metrics.workers
                greaterThan: "1"
                source: { host: "http://b:1" }
              - field: cross.billing.metrics.workers
                greaterThan: "1"
                source: { host: "http://b:1", protocol: health }
              - field: cross.audit.metrics.workers
                greaterThan: "1"
                source: { host: "http://c:1", token: "$AUDIT_TOKEN" }
`),
    );
    // billing's refused source leaves its condition without one, which is said too.
    assert.equal(found.length, 5, found.join('\n'));
    assert.ok(found.some((p) => p.startsWith('15:24 autoscale reads the figures of "billing", which is not a CRD of this definition; to read another process\'s figures, give the condition a source')), found.join('\n'));
    assert.match(found[0] ?? '', /^14:17 a condition's source is read only for a cross\.<crd>\.metrics\.<figure> field .*"metrics\.queueDepth"$/);
    assert.ok(found.some((p) => p.startsWith('20:17 two conditions read the figures of "loader" from different sources')), found.join('\n'));
    assert.ok(found.some((p) => /^23:57 an autoscale figures source reads <host>\/katalog\/billing \(protocol info or metrics\); protocol health serves no figures$/.test(p)), found.join('\n'));
    assert.ok(found.some((p) => p.startsWith('26:47') && p.includes('cross source token') && p.includes('auth.secretRef')), found.join('\n'));
  });

  test('katalog.dev/v1 writes autoscale.sources itself, and a rule without one on a CRD of elsewhere still says how to read it', () => {
    const base = (extra: string): string => `apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    processor:
      apiTypes: { group: autoscale.orkestra.io, version: v1alpha1, kind: Processor, plural: processors }
      operatorBox:
        autoscale:
          conditions:
            when: [{ field: cross.loader.metrics.queueDepth, operator: gt, value: 60 }]
          do: { workers: 4 }
${extra}`;
    const rule = parseDefinition(base(`          sources:\n            loader: { host: "http://loader:8080", protocol: info }\n`)).crds.get('processor')?.operatorBox.autoscale;
    assert.equal(rule?.sources?.['loader']?.host, 'http://loader:8080');
    const missing = problems(base(''));
    assert.equal(missing.length, 1);
    assert.match(missing[0] ?? '', /^11:29 autoscale reads the figures of "loader", which is not a CRD of this definition/);
  });

  test('a source for a CRD of this definition is left out: those figures are read in process; the others stay', () => {
    const text = orkestra(`            when:
              - field: cross.Loader.metrics.queueDepth
                greaterThan: "3"
                source: { host: "http://loader-operator:8080", type: metrics }
              - field: cross.billing.metrics.workers
                equals: "0"
                source: { endpoint: "http://billing:9000/api/figures" }
`).concat(`    loader:
      apiTypes: { group: autoscale.orkestra.io, version: v1alpha1, kind: Loader, plural: loaders }
`);
    const rule = parseDefinition(text).crds.get('processor')?.operatorBox.autoscale;
    assert.deepEqual(Object.keys(rule?.sources ?? {}), ['billing'], 'the loader is read from the runtime');
    assert.equal(rule?.when.length, 2, 'both conditions stay');
  });
});
