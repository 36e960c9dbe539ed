// `protocol: prometheus` external calls in the definition: Orkestra's and katalog.dev/v1's load into one model
// (protocol, url, query), write back to input that loads the same, and the fields one protocol has and the
// other has not are errors at file:line:column; the protocols Orkestra itself refuses stay refused by name.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/load.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { loadProblems } from '../support/definition-problems.js';

function doc(apiVersion: string, calls: string): string {
  return `apiVersion: ${apiVersion}
kind: Katalog
metadata: { name: w }
spec:
  crds:
    queue:
      apiTypes: { group: demo.io, version: v1, kind: Queue, plural: queues }
      operatorBox:
        external:
${calls}`;
}

const problems = loadProblems;

describe('protocol: prometheus in the definition', () => {
  test('Orkestra and katalog.dev/v1 load the same call; it writes back to input that loads the same', () => {
    const calls = `          - name: depth
            protocol: prometheus
            url: "http://prometheus.monitoring.svc:9090"
            query: 'sum(queue_messages{queue="{{ .metadata.name }}"})'
            cacheFor: 30s
            continueOnError: true
`;
    const fromOrkestra = parseDefinition(doc('orkestra.orkspace.io/v1', calls)).crds.get('queue')?.operatorBox.external;
    const fromKatalog = parseDefinition(doc('katalog.dev/v1', calls)).crds.get('queue')?.operatorBox.external;
    const call = fromOrkestra?.[0];
    assert.equal(call?.protocol, 'prometheus');
    assert.equal(call?.query, 'sum(queue_messages{queue="{{ .metadata.name }}"})');
    assert.equal(call?.url, 'http://prometheus.monitoring.svc:9090');
    assert.equal(call?.cacheForMs, 30_000);
    assert.deepEqual(fromKatalog, fromOrkestra);
    const definition = parseDefinition(doc('katalog.dev/v1', calls));
    const again = parseDefinition(JSON.stringify(definitionToInput(definition)));
    assert.deepEqual(again.crds.get('queue')?.operatorBox.external, definition.crds.get('queue')?.operatorBox.external);
  });

  test('an http call keeps protocol http and no query; Orkestra drops an http call\'s query', () => {
    const call = parseDefinition(doc('orkestra.orkspace.io/v1', '          - { name: a, url: "http://a", query: unused }\n')).crds.get('queue')?.operatorBox.external?.[0];
    assert.equal(call?.protocol, 'http');
    assert.equal(call?.query, undefined);
  });

  test('a prometheus call without a query, with a method, a body or expectedStatus, and an http call with a query, are errors at the field', () => {
    const found = problems(
      doc(
        'katalog.dev/v1',
        `          - { name: a, protocol: prometheus, url: "http://p:9090" }
          - { name: b, protocol: prometheus, url: "http://p:9090", query: up, method: POST }
          - { name: c, protocol: prometheus, url: "http://p:9090", query: up, body: x, expectedStatus: 200 }
          - { name: d, url: "http://p:9090", query: up }
          - { name: e, protocol: prometheus, url: "http://p:9090", query: "{{ .spec" }
`,
      ),
    );
    const at = (line: number, text: string): boolean => found.some((p) => p.line === line && p.message.includes(text) && (p.column ?? 0) > 0);
    assert.ok(at(10, 'needs a `query`'), JSON.stringify(found));
    assert.ok(at(11, 'it has no method'), JSON.stringify(found));
    assert.ok(at(12, 'it has no body'), JSON.stringify(found));
    assert.ok(at(12, 'any 2xx'), JSON.stringify(found));
    assert.ok(at(13, '`query` belongs to `protocol: prometheus`'), JSON.stringify(found));
    assert.ok(found.some((p) => p.line === 14 && /query/.test(p.path)), JSON.stringify(found));
  });

  test('nats, mqtt and grpc stay refused by name, in Orkestra\'s words, pointing to the docs', () => {
    const protocols = ['nats', 'mqtt', 'grpc'];
    const found = problems(doc('orkestra.orkspace.io/v1', protocols.map((p, i) => `          - { name: c${i}, protocol: ${p}, url: "x://h", query: q }\n`).join('')));
    for (const [index, protocol] of protocols.entries()) {
      assert.ok(
        found.some((p) => p.code === 'orkestra-unsupported' && p.line === 10 + index && p.message.includes(`external protocol ${protocol}`) && p.message.includes(`unknown protocol "${protocol}" — valid values: http, prometheus, redis, postgres, mongo, kafka`) && p.message.includes('orkestra-compatibility.md#external-calls')),
        `${protocol}: ${JSON.stringify(found)}`,
      );
    }
    assert.ok(!found.some((p) => p.code === 'unknown-field'), JSON.stringify(found));
  });
});
