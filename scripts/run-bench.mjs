// Runs the benchmarks under bench/ one after another (never in parallel: they measure the machine).
// `npm run bench` runs them all; `npm run bench -- template reconcile` runs bench/template.ts and bench/reconcile.ts.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const wanted = process.argv.slice(2);
const all = readdirSync('bench').filter((file) => file.endsWith('.ts')).sort();
const chosen = wanted.length === 0 ? all : wanted.map((name) => (name.endsWith('.ts') ? name : `${name}.ts`));
for (const file of chosen) {
  if (!all.includes(file)) {
    console.error(`no benchmark bench/${file} (have: ${all.join(', ')})`);
    process.exit(1);
  }
}
let failed = 0;
for (const file of chosen) {
  console.log(`\n=== bench/${file}`);
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', `bench/${file}`], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
