// The layering of DESIGN.md, enforced: a module under src/ imports only from its own layer or lower ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');

// Higher rank may import lower or equal rank. The pure leaves (template, graph) sit under definition because the
// definition loader compiles templates and orders dependencies at load time (docs/architecture.md).
const rank: Record<string, number> = {
  'errors.ts': -1,
  util: 0,
  template: 1,
  graph: 1,
  definition: 2,
  rules: 2,
  kube: 3,
  observe: 4,
  registry: 5,
  operatorbox: 6,
  reconcile: 7,
  controller: 8,
  'options.ts': 10,
  runtime: 10,
  http: 11,
  admission: 11,
  'create-runtime.ts': 12,
  'index.ts': 13,
  testing: 13,
  cli: 14,
};
// The test API server is its own product: it stands on util and errors only.
const testingMayImport = new Set(['util', 'errors.ts', 'testing']);
// The admission webhook router reads the frozen definition and the template evaluator only: it must run without a
// runtime (a webhook server scales apart from the operator), so it never reaches into runtime/, controller/ or kube/.
const admissionMayImport = new Set(['util', 'errors.ts', 'template', 'definition', 'rules', 'admission']);
// Besides, the external-call client alone (validation.external / mutation.external): one HTTP client in katalog.
const admissionMayImportFiles = new Set(['operatorbox/external-calls.ts', 'operatorbox/external-http.ts', 'operatorbox/external-protocol.ts', 'operatorbox/external-protocols.ts']);
// The command line stands on the public surface only, like an example: the package's two entry points.
const cliMayImport = new Set(['index.ts', 'testing/index.ts', 'cli']);

function layerOf(file: string): string {
  const first = relative(root, file).split('/')[0] ?? '';
  return first.replace(/\.js$/, '.ts');
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

test('src/ imports point only downwards between layers', () => {
  const violations: string[] = [];
  for (const file of sources(root)) {
    const from = layerOf(file);
    const fromRank = rank[from];
    if (fromRank === undefined) {
      violations.push(`${relative(root, file)}: layer "${from}" has no rank in test/layering.test.ts`);
      continue;
    }
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const spec = match[1] ?? '';
      const target = resolve(dirname(file), spec);
      const to = layerOf(target);
      const toRank = rank[to];
      const entry = relative(root, target).replace(/\.js$/, '.ts');
      const ok =
        from === 'testing'
          ? testingMayImport.has(to)
          : from === 'admission'
            ? admissionMayImport.has(to) || admissionMayImportFiles.has(entry)
          : from === 'cli'
            ? cliMayImport.has(to === 'cli' ? 'cli' : entry)
            : toRank !== undefined && toRank <= fromRank && to !== 'testing' && to !== 'cli';
      if (!ok) violations.push(`${relative(root, file)} (${from}) imports ${spec} (${to})`);
    }
  }
  assert.deepEqual(violations, []);
});
