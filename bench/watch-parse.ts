// bench/watch-parse: what parsing one watch event of bench/peers' job costs the operator's thread, by way of
// parsing. Baseline, in the same run: the event parsed whole, then slimmed for the cache with the managedFields
// fingerprint (what every informer did before session 9). Measured: parsed whole alone; cut, then parsed (what an
// informer not asked for the fingerprint does now, kube/managed-fields-cut.ts); a JSON.parse reviver that drops the key.
//   npx tsx bench/watch-parse.ts [count=200000] [rounds=3]
// Prints µs of CPU per event (process.cpuUsage, so a loaded machine stretches it less than wall time) and the ratio to
// the baseline of the same round; medians of the rounds.
import { slimForCache } from '../src/kube/cache-slim.js';
import { withoutManagedFields } from '../src/kube/managed-fields-cut.js';
import type { KubeObject } from '../src/kube/resource.js';

const args = Object.fromEntries(process.argv.slice(2).map((arg, i) => (arg.includes('=') ? arg.split('=', 2) : [['count', 'rounds'][i] ?? arg, arg])));
const COUNT = Number(args['count'] ?? 200_000);
const ROUNDS = Number(args['rounds'] ?? 3);

// The two lines of the job as the test API server writes them: the child's ADDED (after katalog's apply) and the
// Widget's MODIFIED (after the status patch).
const LINES = [
  '{"type":"ADDED","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"w-0","namespace":"default","labels":{"katalog.dev/owner":"w-0"},"annotations":{"katalog.dev/template-hash":"4f0c1e"},"ownerReferences":[{"apiVersion":"example.io/v1","kind":"Widget","name":"w-0","uid":"e534861a-33db-4c73-8472-a4f5ad62576b","controller":true,"blockOwnerDeletion":true}],"managedFields":[{"manager":"katalog","operation":"Apply","apiVersion":"v1","time":"2026-11-25T15:30:31Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:image":{},"f:replicas":{}},"f:metadata":{"f:annotations":{"f:katalog.dev/template-hash":{}},"f:labels":{"f:katalog.dev/owner":{}},"f:ownerReferences":{"k:{\\"uid\\":\\"e534861a-33db-4c73-8472-a4f5ad62576b\\"}":{}}}}}],"uid":"16ecbc3f-a223-4c15-bed9-a4aac919bfbf","creationTimestamp":"2026-11-25T15:30:31Z","resourceVersion":"7"},"data":{"image":"nginx","replicas":"3"}}}',
  '{"type":"MODIFIED","object":{"apiVersion":"example.io/v1","kind":"Widget","metadata":{"name":"w-0","namespace":"default","uid":"e534861a-33db-4c73-8472-a4f5ad62576b","creationTimestamp":"2026-11-25T15:30:31Z","generation":1,"managedFields":[{"manager":"katalog","operation":"Update","apiVersion":"example.io/v1","time":"2026-11-25T15:30:31Z","fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:conditions":{}}},"subresource":"status"},{"manager":"unknown","operation":"Update","apiVersion":"example.io/v1","time":"2026-11-25T15:30:31Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:image":{},"f:replicas":{}}}}],"resourceVersion":"8"},"spec":{"image":"nginx","replicas":3},"status":{"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-11-25T15:30:31Z","reason":"Reconciled","observedGeneration":1}]}}}',
];

type Event = { object: KubeObject };
const WAYS: ReadonlyArray<readonly [string, (line: string) => Event]> = [
  ['parsed whole, slimmed with the fingerprint (baseline)', (line) => {
    const event = JSON.parse(line) as Event;
    event.object = slimForCache(event.object, undefined, true);
    return event;
  }],
  ['parsed whole, no slimming', (line) => JSON.parse(line) as Event],
  ['cut, then parsed (now)', (line) => JSON.parse(withoutManagedFields(line, 'event')) as Event],
  ['reviver dropping the key', (line) => JSON.parse(line, (key, value: unknown) => (key === 'managedFields' ? undefined : value)) as Event],
];

function cpuPerEvent(parse: (line: string) => Event): number {
  let names = 0;
  const start = process.cpuUsage();
  for (let i = 0; i < COUNT; i++) names += parse(LINES[i & 1] as string).object.metadata?.name?.length ?? 0;
  const used = process.cpuUsage(start);
  if (names === 0) throw new Error('nothing parsed');
  return (used.user + used.system) / COUNT;
}

const results = WAYS.map(() => [] as number[]);
for (let round = 0; round < ROUNDS; round++) WAYS.forEach(([, parse], i) => results[i]?.push(cpuPerEvent(parse)));
const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const baseline = median(results[0] ?? []);
console.log(`bench/watch-parse: ${COUNT} events per way, ${ROUNDS} rounds, medians`);
WAYS.forEach(([name], i) => {
  const value = median(results[i] ?? []);
  console.log(`${value.toFixed(2).padStart(7)} µs per event  ${(value / baseline).toFixed(2)}×  ${name}`);
});
