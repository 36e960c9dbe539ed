/**
 * Events as kube-controller-manager's controllers record them: core/v1 Events written through the server's own
 * create path, shaped and correlated as client-go's legacy recorder does (tools/record). Each Event is named
 * `<object>.<hex nanoseconds>`, counts 1 and says its `source` and `reportingComponent`. The same event again (object,
 * type, reason, message) raises the first one's `count` and `lastTimestamp`. From the tenth distinct message with the
 * same object, type and reason within ten minutes on, they are combined: one Event, its message prefixed
 * `(combined from similar events): `, whose count grows. More than 25 Events about one object within five minutes
 * are dropped (one more every five minutes), as the recorder's spam filter drops them.
 */
import type { Cluster } from '../cluster.js';
import { createObject } from '../operations/create.js';
import { systemUpdate } from '../operations/system-write.js';
import { metadataOf, type KubeObject } from '../store/record.js';
import { storageViewOf } from './storage-view.js';

const EVENTS_KEY = '/events';
const AGGREGATE_AFTER = 10;
const AGGREGATE_WINDOW_MS = 600_000;
const SPAM_BURST = 25;
const SPAM_REFILL_MS = 300_000;
const COMBINED = '(combined from similar events): ';

/** The object an Event is about: what its involvedObject says. */
export interface InvolvedObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly object: KubeObject;
}

interface Observation {
  readonly name: string;
  readonly namespace: string;
  readonly count: number;
}

export class EventRecorder {
  private readonly similar = new Map<string, { messages: Set<string>; last: number }>();
  private readonly observed = new Map<string, Observation>();
  private readonly tokens = new Map<string, { left: number; at: number }>();
  private sequence = 0;

  /** `manager`: the field manager of the Event writes (the controllers' process). */
  constructor(
    private readonly cluster: Cluster,
    private readonly manager: string,
  ) {}

  /** Records one event of `component` about `involved`; a write the server refuses is the caller's error. */
  record(component: string, involved: InvolvedObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const metadata = metadataOf(involved.object);
    const name = String(metadata['name']);
    const namespace = typeof metadata['namespace'] === 'string' && metadata['namespace'] !== '' ? metadata['namespace'] : 'default';
    const reference = {
      kind: involved.kind,
      ...(typeof metadata['namespace'] === 'string' ? { namespace: metadata['namespace'] } : {}),
      name,
      uid: metadata['uid'],
      apiVersion: involved.apiVersion,
      resourceVersion: metadata['resourceVersion'],
    };
    const object = `${component}/${involved.kind}/${namespace}/${name}/${String(metadata['uid'])}/${involved.apiVersion}/${type}`;
    const now = this.cluster.clock.now();
    const aggregateKey = `${object}/${reason}/${component}`;
    const combined = this.combines(aggregateKey, message, now);
    const key = combined ? aggregateKey : `${object}/${reason}/${message}`;
    const last = this.observed.get(key);
    const count = (last?.count ?? 0) + 1;
    this.observed.set(key, { name: last?.name ?? this.eventName(name, now), namespace, count });
    if (!this.spend(object, now)) return;
    const text = combined ? `${COMBINED}${message}` : message;
    const timestamp = this.cluster.now();
    const stored = last === undefined ? undefined : this.cluster.store.get(EVENTS_KEY, last.namespace, last.name);
    if (stored !== undefined) {
      systemUpdate(this.cluster, EVENTS_KEY, stored, (next) => {
        next['count'] = count;
        next['lastTimestamp'] = timestamp;
        next['message'] = text;
      });
      return;
    }
    const view = storageViewOf(this.cluster, EVENTS_KEY);
    if (view === undefined) return;
    const event: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: this.observed.get(key)?.name, namespace },
      involvedObject: reference,
      reason,
      message: text,
      source: { component },
      firstTimestamp: timestamp,
      lastTimestamp: timestamp,
      count,
      type,
      eventTime: null,
      // client-go's aggregated copy leaves the reporting fields out.
      reportingComponent: combined ? '' : component,
      reportingInstance: '',
    };
    createObject(this.cluster, view, event, namespace, { manager: this.manager, dryRun: false });
  }

  /**
   * client-go's EventAggregator: whether this event is to be combined, once the distinct messages of one object, type
   * and reason within the window have reached ten (the set then stays at nine).
   */
  private combines(aggregateKey: string, message: string, now: number): boolean {
    const record = this.similar.get(aggregateKey);
    const fresh = record === undefined || now - record.last > AGGREGATE_WINDOW_MS ? { messages: new Set<string>(), last: now } : record;
    fresh.messages.add(message);
    fresh.last = now;
    this.similar.set(aggregateKey, fresh);
    if (fresh.messages.size < AGGREGATE_AFTER) return false;
    fresh.messages.delete(fresh.messages.values().next().value ?? message);
    return true;
  }

  /** Its spam filter, a token bucket per object: whether this event may be written. */
  private spend(object: string, now: number): boolean {
    const bucket = this.tokens.get(object) ?? { left: SPAM_BURST, at: now };
    const refilled = Math.min(SPAM_BURST, bucket.left + Math.floor((now - bucket.at) / SPAM_REFILL_MS));
    const at = refilled > bucket.left ? now : bucket.at;
    this.tokens.set(object, { left: Math.max(0, refilled - 1), at });
    return refilled >= 1;
  }

  /** `<object>.<hex nanoseconds>`, unique though the clock's milliseconds repeat. */
  private eventName(object: string, now: number): string {
    this.sequence = (this.sequence + 1) % 1_000_000;
    return `${object}.${(BigInt(now) * 1_000_000n + BigInt(this.sequence)).toString(16)}`;
  }
}
