// Orkestra's client protocols (redis, postgres, mongo, kafka) in the definition: every generation's and
// katalog.dev/v1's calls load into one model (protocol, url as a connection string, query, poolSize), write back
// to input that loads the same, and Orkestra's ValidateCall rules (pkg/external/validate.go) are errors at
// file:line:column in its words; the HTTP-only fields katalog would otherwise drop are errors too.
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

const CALLS = `          - { name: depth, protocol: redis, url: "{{ .spec.redisURL }}", query: "LLEN jobs", poolSize: 4, cacheFor: 10s, continueOnError: true }
          - { name: bare, protocol: redis, url: "redis-svc:6379", query: "GET greeting", auth: { secretRef: { name: redis, key: password } } }
          - { name: rows, protocol: postgres, url: "postgres://db:5432/app", query: "SELECT count(*) FROM jobs" }
          - { name: docs, protocol: mongo, url: "mongodb://mongo:27017", query: 'app.jobs {"status":"active"}' }
          - { name: lag, protocol: kafka, url: "broker1:9092,broker2:9092", query: "workers/jobs", timeout: 2s }
`;

describe('client protocols in the definition', () => {
  test('Orkestra and katalog.dev/v1 load the same calls; they write back to input that loads the same', () => {
    const fromOrkestra = parseDefinition(doc('orkestra.orkspace.io/v1', CALLS)).crds.get('queue')?.operatorBox.external;
    const fromKatalog = parseDefinition(doc('katalog.dev/v1', CALLS)).crds.get('queue')?.operatorBox.external;
    assert.deepEqual(
      fromOrkestra?.map((call) => [call.name, call.protocol, call.url, call.query, call.poolSize]),
      [
        ['depth', 'redis', '{{ .spec.redisURL }}', 'LLEN jobs', 4],
        ['bare', 'redis', 'redis-svc:6379', 'GET greeting', undefined],
        ['rows', 'postgres', 'postgres://db:5432/app', 'SELECT count(*) FROM jobs', undefined],
        ['docs', 'mongo', 'mongodb://mongo:27017', 'app.jobs {"status":"active"}', undefined],
        ['lag', 'kafka', 'broker1:9092,broker2:9092', 'workers/jobs', undefined],
      ],
    );
    assert.equal(fromOrkestra?.[0]?.cacheForMs, 10_000);
    assert.equal(fromOrkestra?.[4]?.timeoutMs, 2000);
    assert.deepEqual(fromOrkestra?.[1]?.auth, { secretRef: { name: 'redis', namespace: undefined, key: 'password' }, header: undefined });
    assert.deepEqual(fromKatalog, fromOrkestra);
    const definition = parseDefinition(doc('katalog.dev/v1', CALLS));
    const again = parseDefinition(JSON.stringify(definitionToInput(definition)));
    assert.deepEqual(again.crds.get('queue')?.operatorBox.external, definition.crds.get('queue')?.operatorBox.external);
  });

  test('Orkestra\'s own rules, in its words, at the field', () => {
    const found = loadProblems(
      doc(
        'orkestra.orkspace.io/v1',
        `          - { name: a, protocol: redis, url: "redis://r" }
          - { name: b, protocol: mongo, url: "mongodb://m" }
          - { name: c, protocol: kafka, url: "k:9092" }
          - { name: d, protocol: postgres, url: "postgres://p" }
          - { name: e, protocol: redis, url: "redis://r", query: "GET k", method: POST, body: "{}" }
          - { name: f, protocol: redis, url: "redis://r", query: "GET k", headers: { X-A: b }, expectedStatus: 200 }
`,
      ),
    );
    const at = (line: number): string => found.filter((p) => p.line === line).map((p) => p.message).join(' | ');
    assert.match(at(10), /query is required for protocol: redis \(e\.g\. "GET mykey"\)/);
    assert.match(at(11), /query is required for protocol: mongo \(e\.g\. "mydb\.mycollection"\)/);
    assert.match(at(12), /query is required for protocol: kafka \(e\.g\. "group\/topic" or "@topic"\)/);
    assert.match(at(13), /query is required for protocol: postgres/);
    assert.equal(found.filter((p) => p.line === 14 && p.message === 'body, method, headers, and expectedStatus are HTTP-only fields').length, 2);
    assert.equal(found.filter((p) => p.line === 15 && p.message === 'body, method, headers, and expectedStatus are HTTP-only fields').length, 2);
  });

  test('fields katalog refuses rather than drop: maxResponseBytes and auth.header on a protocol call, poolSize on an HTTP one', () => {
    const found = loadProblems(
      doc(
        'katalog.dev/v1',
        `          - { name: a, protocol: redis, url: "redis://r", query: "GET k", maxResponseBytes: 100 }
          - { name: b, protocol: redis, url: "redis://r", query: "GET k", auth: { secretRef: { name: s, key: k }, header: X-Key } }
          - { name: c, url: "http://h", poolSize: 3 }
          - { name: d, protocol: redis, url: "redis://r", query: "GET k", poolSize: 0 }
`,
      ),
    );
    const at = (line: number): string => found.filter((p) => p.line === line).map((p) => `${p.path}: ${p.message}`).join(' | ');
    assert.match(at(10), /maxResponseBytes: maxResponseBytes limits HTTP and Prometheus responses/);
    assert.match(at(11), /auth\.header: auth\.header is HTTP only/);
    assert.match(at(12), /poolSize: poolSize is only meaningful for stateful protocols/);
    assert.match(at(13), /poolSize/);
  });

  test('an Orkestra HTTP call keeps dropping poolSize (HTTP has no pool); a refused protocol drops it too', () => {
    const found = loadProblems(doc('orkestra.orkspace.io/v1', `          - { name: a, url: "http://h", poolSize: 3 }\n          - { name: b, protocol: nats, url: "nats://n", query: "kv.key", poolSize: 2 }\n`));
    assert.ok(!found.some((p) => p.line === 10), JSON.stringify(found));
    assert.ok(found.some((p) => p.line === 11 && p.code === 'orkestra-unsupported'), JSON.stringify(found));
    assert.ok(!found.some((p) => p.path.endsWith('poolSize')), JSON.stringify(found));
  });
});
