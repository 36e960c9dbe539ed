// The `katalog` command as CI runs it: validate, graph and rbac print their results on stdout, their progress and
// errors on stderr, and exit 0 (ok), 1 (definition problems) or 2 (usage).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { katalog, type CommandResult } from './katalog-command.js';

const BROKEN = `apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: broken }
spec:
  crds:
    web:
      apiTypes: { group: example.io, version: v1, kind: Web, plural: webs }
      resync: 10 minutes
      dependsOn: [db]
      operatorBox:
        reconcileMode: always
`;

// Every command starts a Node process that compiles the sources with tsx, which costs seconds of CPU: two run
// at a time, before the tests, and each test reads the results it needs.
describe('katalog validate, graph, rbac', () => {
  let dir = '';
  const results: Record<string, CommandResult> = {};

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'katalog-cli-'));
    await writeFile(join(dir, 'broken.yaml'), BROKEN);
    const runs: Record<string, [readonly string[], string?]> = {
      validate: [['validate', 'broken.yaml', join(process.cwd(), 'examples/website/katalog.yaml')], dir],
      json: [['validate', '--json', 'broken.yaml', join(process.cwd(), 'examples/komposer/komposer.yaml')], dir],
      unknownOption: [['validate', '--strict', 'x.yaml']],
      noFile: [['graph'], dir],
      unknownCommand: [['deploy']],
      help: [['rbac', '--help']],
      graph: [['graph', 'examples/komposer/komposer.yaml']],
      dot: [['graph', '--dot', '-f', 'examples/komposer/komposer.yaml']],
      graphBroken: [['graph', 'broken.yaml'], dir],
      rbac: [['rbac', 'examples/hooks-and-constructor/katalog.yaml', '-n', 'ops']],
      rbacLease: [['rbac', 'examples/website/katalog.yaml', '--leader-elect', '--lease-namespace', 'leases', '-o', join(dir, 'rbac.yaml')]],
    };
    const queue = Object.entries(runs);
    const worker = async (): Promise<void> => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) results[next[0]] = await katalog(next[1][0], next[1][1]);
    };
    await Promise.all([worker(), worker()]);
  });
  after(() => rm(dir, { recursive: true, force: true }));
  const ran = (name: string): CommandResult => {
    const found = results[name];
    if (found === undefined) throw new Error(`no run named ${name}`);
    return found;
  };

  test('validate: every problem as file:line:column on stdout, a summary on stderr, exit 1', () => {
    const result = ran('validate');
    assert.equal(result.code, 1, result.stderr);
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines.length, 3, result.stdout);
    for (const line of lines) assert.match(line, /^broken\.yaml:\d+:\d+: spec\.crds\.web\./);
    assert.match(result.stdout, /^broken\.yaml:8:15: spec\.crds\.web\.resync: .*duration/m);
    assert.match(result.stdout, /^broken\.yaml:11:9: spec\.crds\.web\.operatorBox\.reconcileMode: unknown field "reconcileMode"/m);
    assert.match(result.stdout, /"db"/);
    assert.match(result.stderr, /katalog\.yaml: ok \(1 CRD\)/);
    assert.match(result.stderr, /3 problems in 1 of 2 files/);
  });

  test('validate --json: one document for tools, valid files included', () => {
    const result = ran('json');
    assert.equal(result.code, 1);
    const report = JSON.parse(result.stdout) as { valid: boolean; files: Array<{ file: string; valid: boolean; problems: Array<{ code: string; line: number; column: number; path: string }> }> };
    assert.equal(report.valid, false);
    assert.equal(report.files[0]?.file, 'broken.yaml');
    assert.deepEqual(report.files[0]?.problems.map((p) => p.path).sort(), ['spec.crds.web.dependsOn[0]', 'spec.crds.web.operatorBox.reconcileMode', 'spec.crds.web.resync'].sort());
    assert.ok(report.files[0]?.problems.every((p) => p.line > 0 && p.column > 0 && p.code !== ''));
    assert.deepEqual(report.files[1], { file: join(process.cwd(), 'examples/komposer/komposer.yaml'), valid: true, crds: ['store', 'catalog', 'invoice'], problems: [] });
  });

  test('usage mistakes exit 2 with the reason on stderr; --help prints on stdout and exits 0', () => {
    const unknown = ran('unknownOption');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /katalog validate: Unknown option '--strict'/);
    assert.equal(unknown.stdout, '');
    const none = ran('noFile');
    assert.equal(none.code, 2);
    assert.match(none.stderr, /neither \.\/katalog\.yaml nor \.\/komposer\.yaml exists/);
    const command = ran('unknownCommand');
    assert.equal(command.code, 2);
    assert.match(command.stderr, /unknown command "deploy"/);
    const help = ran('help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^usage: katalog rbac/);
  });

  test('graph: the start order with what each CRD waits for; --dot is a Graphviz digraph', () => {
    const text = ran('graph');
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout, '1. catalog\n2. store  (after catalog is healthy)\n3. invoice\n');
    const dot = ran('dot');
    assert.equal(dot.code, 0, dot.stderr);
    assert.match(dot.stdout, /^digraph "shop-and-billing" \{\n/);
    assert.match(dot.stdout, /^ {2}"store" -> "catalog" \[label="healthy"\];$/m);
    assert.equal(dot.stdout.match(/ -> /g)?.length, 1);
    const broken = ran('graphBroken');
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /^broken\.yaml:8:15: /m);
    assert.equal(broken.stdout, '');
  });

  test('rbac: ServiceAccount, ClusterRole and binding; code and RBAC children are noted on stderr', () => {
    const result = ran('rbac');
    assert.equal(result.code, 0, result.stderr);
    const docs = parseAllDocuments(result.stdout).map((doc) => doc.toJS() as { kind: string; metadata: { name: string; namespace?: string }; rules?: Array<{ apiGroups: string[]; resources: string[]; verbs: string[] }> });
    assert.deepEqual(docs.map((doc) => doc.kind), ['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding']);
    assert.deepEqual(docs[0]?.metadata, { name: 'hooks-and-constructor', namespace: 'ops' });
    const rules = docs[1]?.rules ?? [];
    const verbsOf = (group: string, resource: string): string[] | undefined => rules.find((r) => r.apiGroups.includes(group) && r.resources.includes(resource))?.verbs;
    assert.deepEqual(verbsOf('example.io', 'greetings'), ['get', 'list', 'watch', 'patch']);
    assert.deepEqual(verbsOf('example.io', 'backups/status'), ['patch']);
    assert.deepEqual(verbsOf('', 'configmaps'), ['get', 'list', 'watch', 'create', 'patch', 'delete']);
    assert.deepEqual(verbsOf('apiextensions.k8s.io', 'customresourcedefinitions'), ['list', 'watch']);
    assert.equal(verbsOf('coordination.k8s.io', 'leases'), undefined, 'no Lease rules without --leader-elect');
    assert.match(result.stderr, /note: CRD greeting runs code \(GreetingHooks\)/);
    assert.match(result.stderr, /note: CRD backup runs code \(NewBackupReconciler\)/);
  });

  test('rbac --leader-elect: a Role for the one Lease in its namespace', async () => {
    const result = ran('rbacLease');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '');
    const docs = parseAllDocuments(await readFile(join(dir, 'rbac.yaml'), 'utf8')).map((doc) => doc.toJS() as Record<string, unknown>);
    const role = docs.find((doc) => doc['kind'] === 'Role');
    assert.deepEqual(role, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'website-operator-leader-election', namespace: 'leases' },
      rules: [
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['website-operator'], verbs: ['get', 'update', 'list', 'watch'] },
      ],
    });
    assert.ok(docs.some((doc) => doc['kind'] === 'RoleBinding'));
  });
});
