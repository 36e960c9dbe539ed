// Where a test API server's CPU goes, by stage of a write, from a V8 CPU profile of its process
// (`bench/server-writes.ts serverprof=DIR`, `bench:peers serverprof=DIR`):
//   node --import tsx bench/support/server-stages.ts FILE.cpuprofile [writes=N]
// Every busy sample goes to the first stage (in the order of STAGES) that a frame of its stack matches, so a stage is
// inclusive of what it calls unless an earlier stage claims it (the watch fan-out's socket write counts as the
// watch's, not as the answer's). Samples of seeding and of the bench's IPC are left out. Prints each stage's share
// of the busy samples and, with `writes=` (how many writes the profile covers), its milliseconds of the main
// thread per write. The collector's helper threads are not in a profile: `process.cpuUsage` counts them, so the
// sum per write here is below the bench's CPU per write.
import { readFileSync } from 'node:fs';

import type { CallFrame, Profile } from './cpu-profile.js';

/** Stages in priority order: a sample belongs to the first whose test matches one of its frames. */
const STAGES: ReadonlyArray<readonly [string, (frame: CallFrame) => boolean]> = [
  ['(left out: seeding, IPC, module loading)', (f) => /direct-access|apiserver-process|internal\/modules|source_map|child_process/.test(f.url)],
  ['garbage collector (main thread)', (f) => f.functionName === '(garbage collector)'],
  ['watch fan-out: offer, line, flush, its socket write', (f) => f.url.includes('/testing/watch/')],
  ['answer: sendJson, headers, its socket write', (f) => f.url.includes('/testing/http/respond.ts')],
  ['managed fields (field sets, FieldsV1)', (f) => /\/testing\/patch\/(managed-fields|field-set|field-walk)\.ts/.test(f.url)],
  ['apply / merge engine', (f) => /\/testing\/patch\//.test(f.url)],
  ['validation (fieldValidation, schema, object rules)', (f) => /field-validation|crd-rules|object-rules|known-fields/.test(f.url)],
  ['storing: record JSON, store maps, history', (f) => /\/testing\/store\/|\/testing\/cluster\.ts/.test(f.url)],
  ['body: read and JSON/YAML parse', (f) => f.url.includes('/testing/http/body.ts')],
  ['operation (create/update/patch rules, admission)', (f) => /\/testing\/(operations|admission)\//.test(f.url)],
  ['routing, query, request log', (f) => /\/testing\/(http\/(dispatch|paths|query|resource-handlers)|requests)\.ts/.test(f.url)],
  ['node:http server: parse, request/response objects', (f) => /_http_|node:http/.test(f.url)],
  ['streams, sockets, ticks, timers (other)', () => true],
];

const [file, ...rest] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: server-stages.ts FILE.cpuprofile [writes=N]');
  process.exit(2);
}
const options = new Map(rest.map((arg) => arg.split('=', 2) as [string, string]));
const writes = options.has('writes') ? Number(options.get('writes')) : undefined;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const notBusy = new Set(['(idle)', '(program)']);

const counts = new Map<string, { samples: number; us: number }>();
const deltas = profile.timeDeltas ?? [];
for (const [index, id] of profile.samples.entries()) {
  const node = byId.get(id);
  if (node === undefined || notBusy.has(node.callFrame.functionName)) continue;
  const frames: CallFrame[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at)?.callFrame;
    if (frame !== undefined) frames.push(frame);
  }
  const stage = STAGES.find(([, test]) => frames.some(test))?.[0] ?? 'other';
  const entry = counts.get(stage) ?? { samples: 0, us: 0 };
  entry.samples += 1;
  // A sample stands for the time until the next one.
  entry.us += deltas[index + 1] ?? deltas[index] ?? 0;
  counts.set(stage, entry);
}
const kept = [...counts].filter(([stage]) => !stage.startsWith('(left out'));
const total = kept.reduce((sum, [, c]) => sum + c.samples, 0);
const totalUs = kept.reduce((sum, [, c]) => sum + c.us, 0);
console.log(`${total} busy samples${writes === undefined ? '' : `, ${writes} writes: ${(totalUs / 1000 / writes).toFixed(3)} ms of the main thread per write`}`);
for (const [stage] of STAGES) {
  const c = counts.get(stage);
  if (c === undefined || stage.startsWith('(left out')) continue;
  const perWrite = writes === undefined ? '' : `  ${((c.us / 1000 / writes) * 1000).toFixed(0).padStart(5)} µs/write`;
  console.log(`${((100 * c.samples) / total).toFixed(1).padStart(5)} %${perWrite}  ${stage}`);
}
