// cross[].source (another Orkestra process read over HTTP): a CRD this definition does not declare loads as an entry
// read over HTTP (host + protocol, or an endpoint template), with Orkestra's defaults; the forms katalog does not read
// (a token in the document or the environment) are refused by name; a wrong shape is an error at file:line; an
// autoscale condition on that CRD's figures loads when a cross entry's source serves them; the definition writes
// back as katalog.dev/v1 and loads equal.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { parseDefinition } from '../../src/definition/load.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { loadProblems } from '../support/definition-problems.js';

function orkestra(box: string): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    processor:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Processor, plural: processors }
      operatorBox:
${box}`;
}

const at = (found: ReturnType<typeof loadProblems>, line: number, text: string): boolean => found.some((p) => p.line === line && p.message.includes(text));

describe('cross[].source', () => {
  test('host + protocol and endpoint entries load with Orkestra defaults; older `type:` reads as protocol; writes back equal', () => {
    const definition = parseDefinition(
      orkestra(`        cross:
          - crd: loader
            selector: { name: my-loader, namespace: default }
            source: { host: "http://localhost:8080/", protocol: cr }
            as: loaderCRInfo
          - crd: loader
            source: { host: "http://localhost:8080", type: metrics, cacheFor: 30s }
            as: loaderCRDInfo
          - crd: loader
            source:
              endpoint: "http://loader:8080/katalog/loader/cr/{{ .metadata.namespace }}/{{ .metadata.name }}"
              timeout: 2s
              maxResponseBytes: 4096
              auth: { secretRef: { name: peer, key: token } }
            as: mine
`),
    );
    const cross = definition.crds.get('processor')?.operatorBox.cross ?? [];
    assert.deepEqual(
      cross.map((entry) => [entry.as, entry.kind, entry.name, entry.namespace, entry.source]),
      [
        ['loaderCRInfo', '', 'my-loader', 'default', { endpoint: undefined, host: 'http://localhost:8080', protocol: 'cr', namespace: undefined, cacheForMs: undefined, timeoutMs: 5000, maxResponseBytes: 65536, auth: undefined }],
        ['loaderCRDInfo', '', undefined, undefined, { endpoint: undefined, host: 'http://localhost:8080', protocol: 'metrics', namespace: undefined, cacheForMs: 30000, timeoutMs: 5000, maxResponseBytes: 65536, auth: undefined }],
        [
          'mine',
          '',
          undefined,
          undefined,
          {
            endpoint: 'http://loader:8080/katalog/loader/cr/{{ .metadata.namespace }}/{{ .metadata.name }}',
            host: undefined,
            protocol: undefined,
            namespace: undefined,
            cacheForMs: undefined,
            timeoutMs: 2000,
            maxResponseBytes: 4096,
            auth: { secretRef: { name: 'peer', namespace: undefined, key: 'token' }, header: undefined },
          },
        ],
      ],
    );
    const again = parseDefinition(stringify(definitionToInput(definition)));
    assert.deepEqual(again.crds.get('processor')?.operatorBox.cross, cross);
  });

  test('a token in the document or the environment is refused by name at its line, never "unknown field"', () => {
    const found = loadProblems(
      orkestra(`        cross:
          - crd: loader
            source:
              host: "http://localhost:8080"
              token: "$LOADER_TOKEN"
              auth: { token: abc, env: LOADER_TOKEN }
`),
    );
    assert.ok(at(found, 13, 'cross source token') && at(found, 13, 'docs/orkestra-compatibility.md#cross'), JSON.stringify(found));
    assert.ok(at(found, 14, 'cross source auth.token') && at(found, 14, 'cross source auth.env'), JSON.stringify(found));
    assert.ok(!found.some((p) => p.code === 'unknown-field'), JSON.stringify(found));
  });

  test('wrong shapes are errors at their line', () => {
    const found = loadProblems(
      orkestra(`        cross:
          - crd: a
            source: { host: "http://x:1", endpoint: "http://x:1/katalog/a" }
          - crd: b
            source: { host: "loader:8080" }
          - crd: c
            source: { host: "http://x:1", cacheFor: often }
          - crd: d
            selector: { matchLabels: { tier: x } }
            source: { host: "http://x:1" }
          - crd: e
            source: { host: "http://x:1", protocol: cr }
          - crd: f
            selector: { name: one }
            strategy: all
            source: { host: "http://x:1", protocol: cr }
          - crd: g
            source: { host: "http://x:1", protocol: everything }
          - crd: h
            selector: { name: one }
`),
    );
    assert.ok(at(found, 11, 'exactly one of endpoint (a URL) and host'), JSON.stringify(found));
    assert.ok(at(found, 13, 'must be an http:// or https:// base URL'), JSON.stringify(found));
    assert.ok(at(found, 15, 'cacheFor "often" is not a positive duration'), JSON.stringify(found));
    assert.ok(at(found, 17, 'a cross read over HTTP (source) selects by selector.name'), JSON.stringify(found));
    assert.ok(at(found, 19, 'protocol cr reads one custom resource: give selector.name'), JSON.stringify(found));
    assert.ok(at(found, 23, 'strategy: all cannot be read over HTTP'), JSON.stringify(found));
    assert.ok(found.some((p) => p.line === 26 && p.path.endsWith('source.protocol') && p.message.includes('"everything"')), JSON.stringify(found));
    assert.ok(at(found, 27, 'cross reads "h", which is not a CRD of this definition; give a source'), JSON.stringify(found));
  });

  test("autoscale on another process's figures: through a cross entry whose source serves them (by crd or as), or the condition's own, else an error at the field", () => {
    const rule = parseDefinition(
      orkestra(`        cross:
          - crd: loader
            source: { host: "http://localhost:8080", protocol: metrics }
            as: loaderFigures
        autoscale:
          conditions:
            when:
              - field: cross.loader.metrics.queueDepth
                greaterThan: "60"
              - field: cross.LoaderFigures.metrics.workers
                lessThan: "9"
          do: { workers: 8 }
`),
    ).crds.get('processor')?.operatorBox.autoscale;
    assert.deepEqual(rule?.when.map((c) => c.field), ['cross.loader.metrics.queueDepth', 'cross.LoaderFigures.metrics.workers']);
    const found = loadProblems(
      orkestra(`        cross:
          - crd: loader
            source: { host: "http://localhost:8080", protocol: health }
        autoscale:
          conditions:
            when:
              - field: cross.loader.metrics.queueDepth
                greaterThan: "60"
          do: { workers: 8 }
`),
    );
    assert.ok(at(found, 15, 'autoscale reads the figures of "loader"') && at(found, 15, 'protocol: metrics'), JSON.stringify(found));
    // A condition's own source is the other way (orkestra-autoscale-source.test.ts).
    const own = parseDefinition(
      orkestra(`        autoscale:
          conditions:
            when:
              - field: cross.loader.metrics.queueDepth
                greaterThan: "60"
                source: { host: "http://localhost:8080", protocol: metrics }
          do: { workers: 8 }
`),
    );
    assert.equal(own.crds.get('processor')?.operatorBox.autoscale?.sources?.['loader']?.host, 'http://localhost:8080');
  });
});
