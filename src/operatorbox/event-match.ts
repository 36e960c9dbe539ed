/**
 * Whether an events.k8s.io/v1 Event matches an observed-Event entry (Orkestra's `EventEntry.Matches` and
 * `ManagedResource.Matches`): every field the entry gives equals the Event's; a field not given matches anything.
 * `regarding` / `related` compare the Event's object reference (`apiVersion`, `kind`, `name`, `namespace`; katalog
 * also reads `group` and `version` as the parts of the reference's apiVersion).
 */
import type { EventObjectMatch, ObservedEvent } from '../definition/types.js';
import type { KubeObject } from '../kube/resource.js';
import { groupOf } from './watch-keys.js';

const TOP_LEVEL = ['reason', 'action', 'type', 'reportingController', 'reportingInstance'] as const;

export function eventMatches(entry: ObservedEvent, event: KubeObject): boolean {
  for (const field of TOP_LEVEL) {
    const wanted = entry[field];
    if (wanted !== undefined && text(event[field]) !== wanted) return false;
  }
  if (entry.namespace !== undefined && event.metadata?.namespace !== entry.namespace) return false;
  if (entry.eventName !== undefined && event.metadata?.name !== entry.eventName) return false;
  if (entry.regarding !== undefined && !referenceMatches(entry.regarding, event['regarding'])) return false;
  if (entry.related !== undefined && !referenceMatches(entry.related, event['related'])) return false;
  return true;
}

function referenceMatches(wanted: EventObjectMatch, reference: unknown): boolean {
  const ref = typeof reference === 'object' && reference !== null ? (reference as Record<string, unknown>) : {};
  const apiVersion = text(ref['apiVersion']);
  const slash = apiVersion.indexOf('/');
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  if (wanted.apiVersion !== undefined && apiVersion !== wanted.apiVersion) return false;
  if (wanted.group !== undefined && groupOf(apiVersion) !== wanted.group) return false;
  if (wanted.version !== undefined && version !== wanted.version) return false;
  if (wanted.kind !== undefined && text(ref['kind']) !== wanted.kind) return false;
  if (wanted.name !== undefined && text(ref['name']) !== wanted.name) return false;
  if (wanted.namespace !== undefined && text(ref['namespace']) !== wanted.namespace) return false;
  return true;
}

/** A field as Orkestra's NestedString reads it: a string, else "". */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
