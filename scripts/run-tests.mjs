// Runs the test suite with node:test through tsx.
// `npm test` runs everything under test/; `npm test -- test/template` runs only the files under the given paths.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function collect(path, out) {
  const stat = statSync(path);
  if (stat.isFile()) {
    if (/\.test\.(ts|mts|js|mjs)$/.test(path)) out.push(path);
    return out;
  }
  for (const entry of readdirSync(path).sort()) {
    if (entry === 'node_modules' || entry === 'fixtures') continue;
    collect(join(path, entry), out);
  }
  return out;
}

const args = process.argv.slice(2);
const roots = args.length > 0 ? args : ['test'];
const files = roots.flatMap((root) => collect(root, []));
if (files.length === 0) {
  console.error(`no test files under ${roots.join(', ')}`);
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
