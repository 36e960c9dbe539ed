// Shares of a V8 CPU profile (`node --cpu-prof`, the files `bench:peers prof=DIR serverprof=DIR` writes), by function:
//   node --import tsx bench/support/profile-shares.ts FILE.cpuprofile [top=40] [match=REGEX] [skip=REGEX] [under=REGEX] [last=SECONDS]
// Prints self and inclusive shares of the busy samples (idle and program samples left out), so two profiles taken
// at different loads compare by proportion. `match=` keeps only functions whose name or file matches; `skip=` drops
// every sample with a frame that matches (default: module loading, which is start-up, not work);
// `under=` keeps only samples with a frame that matches (shares stay of all busy samples). `last=` keeps only the
// samples of the profile's last SECONDS (bench:peers' idle window is the end of every operator's profile) and prints
// the busy milliseconds there.
import { readFileSync } from 'node:fs';

import type { CallFrame, Profile } from './cpu-profile.js';

const [file, ...rest] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: profile-shares.ts FILE.cpuprofile [top=40] [match=REGEX]');
  process.exit(2);
}
const options = new Map(rest.map((arg) => arg.split('=', 2) as [string, string]));
const top = Number(options.get('top') ?? '40');
const match = options.has('match') ? new RegExp(options.get('match') ?? '') : undefined;

const skip = new RegExp(options.get('skip') ?? 'node:internal/modules|source_map');
const under = options.has('under') ? new RegExp(options.get('under') ?? '') : undefined;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const label = (frame: CallFrame): string => {
  const where = frame.url === '' ? '' : ` ${frame.url.replace(/^.*\/(src|node_modules|bench)\//, '$1/')}:${frame.lineNumber + 1}`;
  return `${frame.functionName === '' ? '(anonymous)' : frame.functionName}${where}`;
};
const notBusy = new Set(['(idle)', '(program)']);

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let busy = 0;
let busyUs = 0;
// Sample i was taken at startTime + the sum of timeDeltas[0..i]; `last=` keeps those after endTime - SECONDS.
const lastUs = options.has('last') ? Number(options.get('last')) * 1e6 : undefined;
const sampledAt: number[] = [];
let at = profile.startTime ?? 0;
for (const delta of profile.timeDeltas ?? []) sampledAt.push((at += delta));
const from = lastUs === undefined ? -Infinity : (profile.endTime ?? at) - lastUs;
for (const [index, id] of profile.samples.entries()) {
  if ((sampledAt[index] ?? Infinity) < from) continue;
  const node = byId.get(id);
  if (node === undefined || notBusy.has(node.callFrame.functionName)) continue;
  const stack: string[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at)?.callFrame;
    if (frame === undefined) break;
    stack.push(label(frame));
  }
  if (stack.some((name) => skip.test(name))) continue;
  busy++;
  busyUs += (sampledAt[index + 1] ?? sampledAt[index] ?? 0) - (sampledAt[index] ?? 0);
  if (under !== undefined && !stack.some((name) => under.test(name))) continue;
  const own = label(node.callFrame);
  self.set(own, (self.get(own) ?? 0) + 1);
  for (const name of new Set(stack)) inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
}

const pct = (n: number): string => `${((100 * n) / busy).toFixed(2).padStart(6)} %`;
const rows = (table: Map<string, number>): [string, number][] =>
  [...table].filter(([name]) => match === undefined || match.test(name)).sort((a, b) => b[1] - a[1]).slice(0, top);
console.log(`${busy} busy samples of ${profile.samples.length}${lastUs === undefined ? '' : ` (in the last ${lastUs / 1e6} s: ${(busyUs / 1000).toFixed(1)} ms busy)`}`);
console.log('\nself');
for (const [name, n] of rows(self)) console.log(`${pct(n)}  ${name}`);
console.log('\ninclusive');
for (const [name, n] of rows(inclusive)) console.log(`${pct(n)}  ${name}`);
