// Orkestra's `protocol: postgres` external calls end to end against a real PostgreSQL 15 (Debian's, from
// .tools/postgres, run as nobody; skipped with the reason when it cannot be fetched): the runtime reconciles
// through the real client-node against the test API server, queries with the built-in client, no option given
// (SCRAM, the password from a Secret through auth.secretRef), and a child and status
// fields use the result. Changed rows are read at the next reconcile; a server error is Ready=False naming the call
// and the SQLSTATE (no URL, no password); stop() closes the pooled sessions.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { ExternalProtocolClient, ExternalProtocolRequest } from '../../src/operatorbox/external-protocol.js';
import { postgresProtocol } from '../../src/operatorbox/protocol-postgres.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';
import { PG_USERS, postgresBinaries, startPostgres, userSetupStatements, type PostgresServer } from '../support/postgres-server.js';

type Obj = Record<string, unknown>;

const GROUP = 'jobs.orkestra.io';
const binaries = postgresBinaries();

function katalog(port: number): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: queues }
spec:
  crds:
    queue:
      apiTypes: { group: ${GROUP}, version: v1, kind: Queue, plural: queues }
      operatorBox:
        external:
            - name: pending
              protocol: postgres
              url: "postgres://scram_user@127.0.0.1:${port}/postgres?sslmode=disable&application_name=katalog-run"
              query: "SELECT count(*) AS pending, max(id) AS last FROM jobs WHERE queue = '{{ .metadata.name }}'"
              auth: { secretRef: { name: pg, key: password } }
              poolSize: 2
              timeout: 5s
            - name: broken
              protocol: postgres
              url: "postgres://scram_user@127.0.0.1:${port}/postgres?sslmode=disable&application_name=katalog-run"
              query: "SELECT * FROM {{ .spec.table }}"
              auth: { secretRef: { name: pg, key: password } }
              when:
                - field: spec.table
                  operator: exists
        onReconcile:
          configMaps:
            - name: "{{ .metadata.name }}-pending"
              data:
                count: "{{ .external.pending.result }}"
        status:
          fields:
            - path: pending
              value: "{{ .external.pending.result }}"
            - path: rowCount
              value: "{{ .external.pending.rowCount }}"
`;
}

function request(url: string, query: string): ExternalProtocolRequest {
  return { call: 'setup', url, query, credential: undefined, timeoutMs: 20_000, poolSize: 1, signal: new AbortController().signal };
}

describe('Orkestra postgres calls, run', { skip: binaries.reason ?? false }, () => {
  let postgres: PostgresServer;
  let admin: ExternalProtocolClient;
  let server: TestApiServer;
  let runtime: Runtime;
  const sql = async (query: string): Promise<Readonly<Record<string, unknown>>> => {
    const result = await admin.fetch(request(postgres.url('trust', 'sslmode=disable&application_name=admin'), query));
    assert.equal(result.error, '', query);
    return result;
  };
  before(async () => {
    admin = postgresProtocol();
    postgres = await startPostgres(binaries.bin ?? '', async () => {});
    for (const statement of [...userSetupStatements(), 'CREATE TABLE jobs (id int PRIMARY KEY, queue text)', 'GRANT SELECT ON jobs TO scram_user', "INSERT INTO jobs VALUES (1, 'builds'), (2, 'builds'), (3, 'mail')"]) await sql(statement);
    server = await startTestApiServer();
    const definition = parseDefinition(katalog(postgres.port), { source: 'queues.yaml' });
    for (const crd of definition.crds.values()) {
      const { group, kind, plural, scope, version } = crd.apiTypes;
      server.create(crdManifest({ group, kind, plural, scope, versions: [{ name: version, served: true, storage: true, status: true }] }));
    }
    server.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'pg', namespace: 'default' }, data: { password: Buffer.from(PG_USERS.scram.password).toString('base64') } });
    runtime = createRuntime(definition, {
      kubeConfig: server.kubeConfig,
      watch: FAST_WATCH,
      installCrds: true,
      rateLimiter: { baseDelay: 20, maxDelay: 200 },
    });
    await runtime.start();
  });
  after(async () => {
    await runtime?.stop();
    await server?.stop();
    await admin?.close?.();
    await postgres?.stop();
  });

  const queue = (name: string, spec: Obj = { rev: 1 }): Obj => ({ apiVersion: `${GROUP}/v1`, kind: 'Queue', metadata: { name, namespace: 'default' }, spec });
  const statusOf = (name: string): Obj | undefined => server.get(`${GROUP}/v1`, 'Queue', name, 'default')?.['status'] as Obj | undefined;
  const readyOf = (name: string): Obj | undefined => (statusOf(name)?.['conditions'] as Obj[] | undefined)?.find((condition) => condition['type'] === 'Ready');
  const countOf = (name: string): unknown => ((server.get('v1', 'ConfigMap', `${name}-pending`, 'default') as Obj | undefined)?.['data'] as Obj | undefined)?.['count'];

  test('the query\'s result (SCRAM with the Secret\'s password) feeds a child and status fields', async () => {
    server.create(queue('builds'));
    await waitFor('the pending ConfigMap', () => countOf('builds') === '2', 30_000);
    const status = await waitFor('the status of builds', () => (statusOf('builds')?.['pending'] === undefined ? undefined : statusOf('builds')));
    assert.equal(String(status['pending']), '2');
    assert.equal(String(status['rowCount']), '1');
    await waitFor('Ready=True on builds', () => readyOf('builds')?.['status'] === 'True');
  });

  test('changed rows are read at the next reconcile', async () => {
    await sql("INSERT INTO jobs VALUES (4, 'builds'), (5, 'builds')");
    const current = server.get(`${GROUP}/v1`, 'Queue', 'builds', 'default') as Obj;
    server.update({ ...current, spec: { rev: 2 } });
    await waitFor('the ConfigMap to follow the rows', () => countOf('builds') === '4', 30_000);
  });

  test('a server error is Ready=False naming the call and the SQLSTATE, never the URL, the password or the query', async () => {
    server.create(queue('typo', { table: 'no_such_table' }));
    const ready = await waitFor('Ready=False on typo', () => (readyOf('typo')?.['status'] === 'False' ? readyOf('typo') : undefined), 30_000);
    assert.match(String(ready['message']), /external call "broken" failed: postgres: query: the server answered ERROR 42P01 \(undefined_table\)/);
    assert.doesNotMatch(JSON.stringify(statusOf('typo')), new RegExp(`${PG_USERS.scram.password}|127\\.0\\.0\\.1|${postgres.port}|no_such_table`));
  });

  test('stop() closes the pooled sessions', async () => {
    const sessions = async (): Promise<number> => Number((await sql("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'katalog-run'")).result);
    assert.ok((await sessions()) > 0, 'the runtime keeps pooled sessions while it runs');
    await runtime.stop();
    await waitFor('no session of the runtime left', async () => (await sessions()) === 0, 30_000);
  });
});
