/**
 * `operatorBox.events` (Orkestra's `emit.events`) into the model: one {@link EmitEvent} per name, in declaration
 * order (Orkestra iterates a Go map, so its order varies), `on` read as the outcomes that record it, templates
 * checked at load.
 */
import type { EmitEvent } from './types.js';
import { formatPath, type Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';
import type { EmitEventInput } from './schema-operator-box.js';
import type { Loose } from './operator-box.js';
import { normalizeConditions } from './conditions.js';
import { checkTemplates } from './template-check.js';

/** `events` of an operatorBox at `path` (`canonical`: its path as `spec.crds.<name>.operatorBox.events`). */
export function normalizeEvents(
  input: Readonly<Record<string, Loose<EmitEventInput> | undefined>> | undefined,
  origin: Origin,
  path: Path,
  canonical: Path,
  problems: ProblemList,
): EmitEvent[] | undefined {
  if (input === undefined) return undefined;
  const events: EmitEvent[] = [];
  for (const [name, entry] of Object.entries(input)) {
    if (entry?.type === undefined || entry.reason === undefined || entry.message === undefined) continue; // the schema check reported it
    const at = [...path, name];
    checkTemplates({ reason: entry.reason, message: entry.message }, at, origin, problems);
    const written = (entry.on ?? []).filter((on): on is 'always' | 'success' | 'failure' => on !== undefined);
    const always = written.length === 0 || written.includes('always');
    const on: Array<'success' | 'failure'> = always ? ['success', 'failure'] : (['success', 'failure'] as const).filter((o) => written.includes(o));
    events.push({
      name,
      type: entry.type,
      reason: entry.reason,
      message: entry.message,
      on,
      when: normalizeConditions(entry.when, origin, [...at, 'when'], problems),
      anyOf: normalizeConditions(entry.anyOf, origin, [...at, 'anyOf'], problems),
      path: formatPath([...canonical, name]),
    });
  }
  return events;
}
