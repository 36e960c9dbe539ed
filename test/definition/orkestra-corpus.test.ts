// The Orkestra conformance corpus (test/fixtures/orkestra/, each file citing its source repository, path and
// commit): every Katalog and Komposer either loads unchanged, or is refused only for a reason that
// docs/orkestra-compatibility.md documents — by feature name, with file:line:column, never "unknown field".
// Motifs are covered through the Katalogs that import them.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDefinition } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'orkestra');

type Expected = { readonly loads: readonly string[] } | { readonly refused: readonly string[] };

/** Document → the CRDs it loads, or the refused features its errors must name (text found in a message). */
const CORPUS: Readonly<Record<string, Expected>> = {
  'early/01-hello-website/katalog.yaml': { loads: ['website'] },
  'early/02-website-with-service/katalog.yaml': { loads: ['website'] },
  'early/03-secret-copy/katalog.yaml': { loads: ['secret-distribution'] },
  'early/03b-configmap-copy/katalog.yaml': { loads: ['configmap-distribution'] },
  'early/04-multi-resource/katalog.yaml': { loads: ['application'] },
  'early/crdkatalog/crdkatalog.yaml': { loads: ['project', 'managednamespace', 'application'] },
  'early/docs-komposer/komposer.yaml': { refused: ['Helm sources', 'registry sources'] },
  'early/docs-platform-namespace/platform-namespace-katalog.yaml': { loads: ['platformnamespace'] },
  'early/docs-website/website-katalog.yaml': { loads: ['pod-governance', 'deployment-watcher', 'secrets-manager', 'backend', 'frontend'] },
  'early/komposer-basic/komposer.yaml': { loads: ['website', 'namespace-governance'] },
  'early/komposer-basic/namespace-katalog.yaml': { loads: ['namespace-governance'] },
  'early/komposer-basic/website-katalog.yaml': { loads: ['website'] },
  'early/komposer-registry/komposer.yaml': { refused: ['registry sources', 'Helm sources'] },
  'documented/09-hooks/katalog.yaml': { loads: ['database'] },
  'documented/10-constructor/katalog.yaml': { loads: ['pipeline'] },
  'documented/mixed/komposer.yaml': { loads: ['website', 'database', 'pipeline'] },
  'documented/mixed/01-hello-website/katalog.yaml': { loads: ['website'] },
  'documented/mixed/09-hooks/katalog.yaml': { loads: ['database'] },
  'documented/mixed/10-constructor/katalog.yaml': { loads: ['pipeline'] },
  'documented/public/cluster-01/katalog.yaml': { loads: ['website'] },
  'documented/public/cluster-02/katalog.yaml': { loads: ['website'] },
  'documented/public/cluster-03/katalog.yaml': { loads: ['secret-distribution'] },
  'documented/public/cluster-04/katalog.yaml': { loads: ['application', 'app-service', 'route', 'config-bundle', 'scale-policy'] },
  'documented/public/cluster-06/katalog.yaml': { loads: ['traffic-policy', 'virtual-service', 'backend', 'health-check', 'rate-limit', 'circuit-breaker', 'tls-policy'] },
  'current/02-with-serviceaccount/katalog.yaml': { loads: ['website'] },
  'current/03b-configmap-copy/katalog.yaml': { loads: ['configmap-distribution'] },
  'current/05-when-conditions/katalog.yaml': { loads: ['platform'] },
  'current/05-conditional-reconciliation/katalog.yaml': { loads: ['app', 'route'] },
  'current/07-crd-file/katalog.yaml': { loads: ['app', 'database'] },
  // failureThreshold: 0.5 does not fit Orkestra's integer field either (Go's YAML decoder refuses it).
  'current/08-state-machine/katalog.yaml': { refused: ['must be an integer'] },
  'current/09-notes/01-built-in/katalog.yaml': { loads: ['website'] },
  'current/09-notes/02-user-defined/katalog.yaml': { loads: ['workload'] },
  'current/09-notes/03-motifs/katalog.yaml': { loads: ['workload'] },
  'current/09-notes/04-komposer/komposer.yaml': { loads: ['website', 'workload'] },
  'current/12-autoscale-without/katalog.yaml': { loads: ['ingestor'] },
  'current/12-autoscale-sibling/katalog-processor.yaml': { loads: ['processor'] },
  'current/ctrlruntime/katalog.yaml': { loads: ['webapp'] },
  'current/e2e-probe/katalog.yaml': { loads: ['e2e-probe'] },
  'current/include-katalog/include-katalog.yaml': { loads: ['pipeline'] },
  'current/informer-watch/katalog.yaml': { loads: ['watch-probe'] },
  // Not valid YAML (unescaped quotes inside a quoted string): Orkestra's YAML decoder refuses it too.
  'current/status-update/status-katalog.yaml': { refused: ['YAML syntax error'] },
  'current/watch-entries/valid/watch-entries.yaml': { loads: ['widget'] },
};

function documents(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) documents(path, out);
    else if (name.endsWith('.yaml') && /^kind: (Katalog|Komposer)\s*$/m.test(readFileSync(path, 'utf8'))) out.push(relative(root, path));
  }
  return out;
}

describe('Orkestra corpus', () => {
  test('every Katalog and Komposer of the corpus is in the table, and every file cites its source', () => {
    assert.deepEqual(documents(root).sort(), Object.keys(CORPUS).sort());
    for (const file of documents(root)) {
      const first = readFileSync(join(root, file), 'utf8').split('\n')[0] ?? '';
      assert.match(first, /Source: \S+\/\S+ \S+ @ [0-9a-f]{40}$/, file);
    }
  });

  test('the corpus has at least 40 definitions (Katalogs, Komposers and Motifs), all three generations', () => {
    const motifs = readdirSync(join(root, 'documented', 'public', 'motifs')).length + 2; // + 09-notes and include-katalog Motifs
    assert.ok(Object.keys(CORPUS).length + motifs >= 40);
    for (const generation of ['early/', 'documented/', 'current/']) assert.ok(Object.keys(CORPUS).some((f) => f.startsWith(generation)));
  });

  for (const [file, expected] of Object.entries(CORPUS)) {
    test(file, async () => {
      const path = join(root, file);
      if ('loads' in expected) {
        const definition = await loadDefinition(path);
        assert.deepEqual([...definition.crds.keys()], expected.loads);
        assert.equal(definition.apiVersion, 'orkestra.orkspace.io/v1');
        return;
      }
      const error = await loadDefinition(path).then(
        () => assert.fail('expected a refusal'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof DefinitionError);
      const problems = error.problems;
      assert.ok(!problems.some((p) => p.code === 'unknown-field'), `no unknown-field: ${JSON.stringify(problems)}`);
      for (const feature of expected.refused) {
        const found = problems.find((p) => p.message.includes(feature));
        assert.ok(found, `a problem names "${feature}": ${problems.map((p) => p.message).join(' | ')}`);
        assert.ok(found.file !== undefined && found.line !== undefined && found.column !== undefined, `placed: ${JSON.stringify(found)}`);
      }
      for (const refusal of problems.filter((p) => p.code === 'orkestra-unsupported')) {
        assert.match(refusal.message, /see docs\/orkestra-compatibility\.md#[a-z-]+$/);
      }
    });
  }
});
