// Runs the benchmarks under bench/ one after another (never in parallel: they measure the machine).
// `npm run bench` runs them all; `npm run bench -- template reconcile` runs bench/template.ts and bench/reconcile.ts.
// Arguments after a name go to that bench: `npm run bench -- scale crds=10 per=200`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const all = readdirSync('bench').filter((file) => file.endsWith('.ts')).sort();
/** Bench file → its arguments (`key=value` words following its name). */
const picked = new Map();
let last;
for (const word of process.argv.slice(2)) {
  if (word.includes('=') && last !== undefined) picked.get(last).push(word);
  else picked.set((last = word.endsWith('.ts') ? word : `${word}.ts`), []);
}
const chosen = picked.size === 0 ? all : [...picked.keys()];
for (const file of chosen) {
  if (!all.includes(file)) {
    console.error(`no benchmark bench/${file} (have: ${all.join(', ')})`);
    process.exit(1);
  }
}
let failed = 0;
for (const file of chosen) {
  console.log(`\n=== bench/${file}`);
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', `bench/${file}`, ...(picked.get(file) ?? [])], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
