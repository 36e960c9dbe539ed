// The test API server's server-side apply engine alone (no HTTP, no store), on the writes of bench/peers' job:
//   node --import tsx bench/server-apply.ts [count=20000 rounds=5 against=DIR]
// Applies `count` apply configurations of each kind, freshly parsed, as the server does for a create: the job's child
// ConfigMap (katalog's labels, annotation and owner reference) and bench/support/raw-writes' small ConfigMap; and,
// for an update, the same child applied again over the object the first apply made (drift correction). Prints µs of
// CPU per apply, the median of `rounds` (after one round not counted), and the child ÷ raw ratio. `against=DIR`
// loads the engine of another checkout too and runs both in alternating rounds: the before/after of a change in one
// command. CPU of the process (`process.cpuUsage`), so run it on a quiet machine for absolute figures; the ratios
// hold under load.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

type Apply = (live: Record<string, unknown> | undefined, applied: Record<string, unknown>, opts: Record<string, unknown>) => { object: Record<string, unknown> };
interface Engine {
  readonly name: string;
  readonly apply: Apply;
  readonly listKeys: unknown;
}

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.split('=', 2) as [string, string]));
const COUNT = Number(args['count'] ?? 20_000);
const ROUNDS = Number(args['rounds'] ?? 5);
const AGAINST = args['against'];

async function load(name: string, root: string): Promise<Engine> {
  const patch = (await import(pathToFileURL(join(root, 'src/testing/patch/index.ts')).href)) as {
    serverSideApply: Apply;
    listKeysFor: (apiVersion: string, kind: string) => unknown;
  };
  return { name, apply: patch.serverSideApply, listKeys: patch.listKeysFor('v1', 'ConfigMap') };
}

function childText(i: number): string {
  const name = `w-${i}`;
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace: 'default',
      labels: { 'app.kubernetes.io/managed-by': 'katalog', 'katalog.dev/crd': 'widget', 'katalog.dev/owner': `widget.default.${name}` },
      annotations: { 'katalog.dev/template-hash': 'f1855cc0dcc841e6' },
      ownerReferences: [{ apiVersion: 'example.io/v1', kind: 'Widget', name, uid: `0b1e4a0e-5d7c-4a3e-9a57-${String(i).padStart(12, '0')}`, controller: true, blockOwnerDeletion: true }],
    },
    data: { image: 'nginx:1.27', replicas: '2' },
  });
}

function rawText(i: number): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `raw-${i}`, namespace: 'default' }, data: { image: 'nginx:1.27', replicas: '2' } });
}

const cpuUs = (): number => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/** µs of CPU per apply of each kind, in one round. */
function round(engine: Engine): { child: number; raw: number; again: number } {
  const opts = (now: string): Record<string, unknown> => ({ manager: 'katalog', force: true, apiVersion: 'v1', now, listKeys: engine.listKeys });
  const children = Array.from({ length: COUNT }, (_, i) => childText(i));
  const raws = Array.from({ length: COUNT }, (_, i) => rawText(i));
  let started = cpuUs();
  const created = children.map((text) => engine.apply(undefined, JSON.parse(text) as Record<string, unknown>, opts('2026-01-01T00:00:00Z')).object);
  const child = (cpuUs() - started) / COUNT;
  started = cpuUs();
  for (const text of raws) engine.apply(undefined, JSON.parse(text) as Record<string, unknown>, opts('2026-01-01T00:00:00Z'));
  const raw = (cpuUs() - started) / COUNT;
  started = cpuUs();
  created.forEach((live, i) => engine.apply(live, JSON.parse(children[i] ?? '{}') as Record<string, unknown>, opts('2026-01-01T00:00:01Z')));
  const again = (cpuUs() - started) / COUNT;
  return { child, raw, again };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const engines = [await load('this checkout', resolve('.'))];
if (AGAINST !== undefined) engines.push(await load(`against ${AGAINST}`, resolve(AGAINST)));
const results = new Map(engines.map((engine) => [engine.name, { child: [] as number[], raw: [] as number[], again: [] as number[] }]));
for (const engine of engines) round(engine); // not counted: V8 compiles the engine
for (let r = 0; r < ROUNDS; r++) {
  for (const engine of r % 2 === 0 ? engines : [...engines].reverse()) {
    const { child, raw, again } = round(engine);
    const into = results.get(engine.name);
    into?.child.push(child);
    into?.raw.push(raw);
    into?.again.push(again);
  }
}
console.log(`bench/server-apply: ${COUNT} applies of each kind, median of ${ROUNDS} rounds, µs of CPU per apply`);
const medians = new Map<string, { child: number; raw: number; again: number }>();
for (const engine of engines) {
  const r = results.get(engine.name);
  if (r === undefined) continue;
  const m = { child: median(r.child), raw: median(r.raw), again: median(r.again) };
  medians.set(engine.name, m);
  console.log(
    `${engine.name}: child create ${m.child.toFixed(1)} µs, raw create ${m.raw.toFixed(1)} µs (child ÷ raw ${(m.child / m.raw).toFixed(2)}×), child applied again ${m.again.toFixed(1)} µs`,
  );
}
const [mine, other] = engines.map((engine) => medians.get(engine.name));
if (mine !== undefined && other !== undefined) {
  console.log(
    `this checkout ÷ ${engines[1]?.name ?? ''}: child create ${(mine.child / other.child).toFixed(2)}×, raw create ${(mine.raw / other.raw).toFixed(2)}×, child applied again ${(mine.again / other.again).toFixed(2)}×`,
  );
}
