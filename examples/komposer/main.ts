// Loads a Komposer and shows where each setting came from, as the inspection API reports it.
//   npx tsx examples/komposer/main.ts     (no cluster needed: nothing is started)
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime, loadDefinition } from 'katalog';

const here = dirname(fileURLToPath(import.meta.url));
const definition = await loadDefinition(join(here, 'komposer.yaml'));
console.log(`${definition.kind} ${definition.name}: CRDs in start order: ${definition.order.join(', ')}`);
for (const file of definition.files) console.log(`  read ${file.slice(here.length + 1)}`);

const runtime = createRuntime(definition, { defaults: { workers: 3 } });
for (const name of definition.order) {
  const response = await runtime.router.request(`/katalog/${name}`);
  const detail = (await response.json()) as { workers: { value: number; source: string }; resync: { value: string; source: string } };
  console.log(`  ${name.padEnd(8)} workers ${detail.workers.value} (${detail.workers.source}), resync ${detail.resync.value} (${detail.resync.source})`);
}
