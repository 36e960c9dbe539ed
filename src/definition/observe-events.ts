/**
 * `operatorBox.observe.events` (Orkestra's `observe.events`, also katalog.dev/v1) → the model's observed Events.
 * Checked at load as Orkestra's validator checks them (`pkg/katalog/validate/event.go`): the name is an identifier,
 * each entry declares at least one matching or routing field, `keyFrom` has exactly one of `label` and `name`, `on`
 * names create/update/delete. katalog also requires every matching field to be literal (the Events informer is
 * opened once, before any custom resource is seen) and refuses a watch gate's external calls, as for `watch`.
 */
import type { EventObjectMatch, ObservedEvent, WatchEvent } from './types.js';
import { formatPath, type Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';
import type { ObserveEventInput } from './schema-operator-box.js';
import type { Loose } from './operator-box.js';
import { normalizeKeyFrom, watchGate } from './box-flow.js';

const ALL_EVENTS: readonly WatchEvent[] = ['create', 'update', 'delete'];
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TEXT_FIELDS = ['reason', 'action', 'type', 'reportingController', 'reportingInstance', 'namespace', 'name'] as const;
const MATCH_FIELDS = ['apiVersion', 'kind', 'group', 'version', 'name', 'namespace'] as const;

/** `observe.events` (a map by name) → observed Events in declaration order; undefined when absent. */
export function normalizeObserveEvents(
  map: Readonly<Record<string, Loose<ObserveEventInput> | undefined>> | undefined,
  origin: Origin,
  path: Path,
  canonical: Path,
  problems: ProblemList,
): ObservedEvent[] | undefined {
  if (map === undefined) return undefined;
  const out: ObservedEvent[] = [];
  for (const [name, entry] of Object.entries(map)) {
    if (entry === undefined) continue;
    const at = [...path, name];
    if (!NAME.test(name)) {
      problems.add(origin, at, 'invalid-value', `observe.events name "${name}" must be an identifier (letters, digits and _, not starting with a digit), as Orkestra requires`, { at: 'key' });
    }
    for (const key of TEXT_FIELDS) literal(entry[key], origin, [...at, key], problems);
    const regarding = objectMatch(entry.regarding, origin, [...at, 'regarding'], problems);
    const related = objectMatch(entry.related, origin, [...at, 'related'], problems);
    const keyFrom = normalizeKeyFrom(entry.keyFrom, origin, at, problems);
    if (TEXT_FIELDS.every((key) => entry[key] === undefined) && regarding === undefined && related === undefined && entry.keyFrom === undefined) {
      problems.add(origin, at, 'invalid-value', 'an observed Event needs at least one matching or routing field (reason, action, type, reportingController, reportingInstance, regarding, related, namespace, name or keyFrom), as in Orkestra; without one it would match every Event of the cluster');
    }
    const on = (entry.on ?? []).filter((event): event is WatchEvent => event !== undefined);
    const enqueueGate = watchGate(entry.enqueueGate, origin, [...at, 'enqueueGate'], problems);
    out.push({
      name,
      ...pick(entry, ['reason', 'action', 'type', 'reportingController', 'reportingInstance', 'namespace']),
      ...(entry.name === undefined ? {} : { eventName: entry.name }),
      ...(regarding === undefined ? {} : { regarding }),
      ...(related === undefined ? {} : { related }),
      on: on.length === 0 ? ALL_EVENTS : [...new Set(on)],
      keyFrom,
      ...(enqueueGate === undefined ? {} : { enqueueGate }),
      path: formatPath([...canonical, name]),
    });
  }
  return out;
}

function objectMatch(input: Loose<ObserveEventInput['regarding']> | undefined, origin: Origin, path: Path, problems: ProblemList): EventObjectMatch | undefined {
  if (input === undefined) return undefined;
  for (const key of MATCH_FIELDS) literal(input[key], origin, [...path, key], problems);
  if (input.apiVersion !== undefined && (input.group !== undefined || input.version !== undefined)) {
    problems.add(origin, [...path, input.group === undefined ? 'version' : 'group'], 'invalid-value', 'give either apiVersion or group/version, not both', { at: 'key' });
  }
  return pick(input, MATCH_FIELDS);
}

/** Matching fields are compared as written: a template would never be rendered. */
function literal(value: string | undefined, origin: Origin, path: Path, problems: ProblemList): void {
  if (value?.includes('{{') === true) problems.add(origin, path, 'invalid-value', 'an observed Event field must be literal (the Events informer is opened once, before any custom resource is seen)');
}

function pick<K extends string>(from: { readonly [key in K]?: string | undefined }, keys: readonly K[]): { [key in K]?: string } {
  const out: { [key in K]?: string } = {};
  for (const key of keys) {
    const value = from[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
